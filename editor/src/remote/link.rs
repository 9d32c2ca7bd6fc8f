//! The connection to a debug server, on a background thread, so the editor's frame never
//! waits for the network. It connects, does the handshake, forwards requests and the
//! server's messages through bounded queues, and, when the connection drops (the program
//! exited or restarted), keeps trying again until the editor detaches. A refusal (wrong
//! token, another protocol version) is final: retrying would not change the answer.
//!
//! The messages and the framing are the runtime's (`arbor_runtime::debug`), the same code
//! the server uses. Requests wait in a queue of [`REQUESTS`]; the server's messages wait in
//! an [`Inbox`], which coalesces tick frames while the editor draws nothing.

use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arbor_runtime::debug::{
    is_timeout, Auth, Framed, LineReader, Request, ServerMessage, MAX_LINE, PROTOCOL_VERSION,
};

use super::inbox::{Inbox, Overflow};

/// How the editor names itself in its `hello`.
const CLIENT: &str = concat!("arbor-editor ", env!("CARGO_PKG_VERSION"));
/// Requests that wait for the connection; more are dropped. The thread sends them every
/// [`POLL`], so only a stalled connection fills it, and that one is dropped anyway.
pub const REQUESTS: usize = 256;
/// How long a read waits before the thread looks at its outgoing queue again.
const POLL: Duration = Duration::from_millis(30);
/// Waits between reconnection attempts: short at first (a program that restarts is back
/// within a second), then no more often than this.
const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// What the link reports to the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    /// The handshake succeeded; `server` is how the server named itself.
    Connected {
        server: String,
    },
    Message(ServerMessage<'static>),
    /// A line this client could not read (not JSON, an unknown type, a wrong field), with
    /// why: shown in the panel's log rather than dropped silently.
    Unreadable(String),
    /// The connection failed or dropped; the link tries again.
    Lost(String),
    /// The server refused this client; the link has stopped.
    Refused(String),
}

/// See the module documentation. Dropping it closes the connection and ends the thread.
pub struct Link {
    requests: SyncSender<Request>,
    inbox: Arc<Mutex<Inbox>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Link {
    /// Starts connecting to `addr` (`host:port`).
    pub fn start(addr: &str, token: Option<String>) -> Link {
        let (requests, outgoing) = mpsc::sync_channel(REQUESTS);
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let worker = Worker {
            addr: addr.to_owned(),
            token,
            outgoing,
            inbox: Arc::clone(&inbox),
            stop: Arc::clone(&stop),
        };
        let thread = std::thread::Builder::new()
            .name(format!("arbor-remote {addr}"))
            .spawn(move || worker.run())
            .ok();
        Link {
            requests,
            inbox,
            stop,
            thread,
        }
    }

    /// Queues a request; it is sent once connected (requests queued while disconnected
    /// are dropped at the next connection: they were meant for the last one).
    pub fn send(&self, request: Request) {
        // A send fails when the thread has ended (refused), and then there is no one to
        // send to, which the events already said; or when [`REQUESTS`] wait, which only a
        // stalled connection does, and it is about to be dropped with its requests.
        let _ = self.requests.try_send(request);
    }

    /// Everything reported since the last call.
    pub fn poll(&self) -> Vec<LinkEvent> {
        lock(&self.inbox).take()
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Locks ignoring poison: a push or a take leaves the queue consistent.
fn lock(inbox: &Mutex<Inbox>) -> std::sync::MutexGuard<'_, Inbox> {
    inbox.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Worker {
    addr: String,
    token: Option<String>,
    outgoing: Receiver<Request>,
    inbox: Arc<Mutex<Inbox>>,
    stop: Arc<AtomicBool>,
}

/// How a connection ended.
enum End {
    Lost(String),
    Refused(String),
    Stopped,
}

impl Worker {
    fn run(self) {
        let mut backoff = Duration::from_millis(100);
        let mut last_error = String::new();
        while !self.stopped() {
            let end = match self.connect() {
                Ok(stream) => {
                    backoff = Duration::from_millis(100);
                    last_error.clear();
                    self.session(stream)
                }
                Err(e) => End::Lost(e),
            };
            match end {
                End::Stopped => return,
                End::Refused(why) => {
                    let _ = self.report(LinkEvent::Refused(why));
                    return;
                }
                End::Lost(why) => {
                    // Each distinct failure once: a program that is not running yet
                    // would otherwise fill the panel with the same line.
                    if why != last_error {
                        let _ = self.report(LinkEvent::Lost(why.clone()));
                        last_error = why;
                    }
                }
            }
            self.sleep(backoff);
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }

    /// Hands an event to the editor.
    fn report(&self, event: LinkEvent) -> Result<(), Overflow> {
        lock(&self.inbox).push(event)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn sleep(&self, total: Duration) {
        let until = Instant::now() + total;
        while !self.stopped() && Instant::now() < until {
            std::thread::sleep(POLL.min(total));
        }
    }

    fn connect(&self) -> Result<TcpStream, String> {
        let addrs: Vec<SocketAddr> = self
            .addr
            .to_socket_addrs()
            .map_err(|e| format!("{}: {e}", self.addr))?
            .collect();
        let mut last = format!("{}: no address", self.addr);
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
                Ok(stream) => return Ok(stream),
                Err(e) => last = format!("cannot connect to {addr}: {e}"),
            }
        }
        Err(last)
    }

    fn session(&self, stream: TcpStream) -> End {
        if let Err(e) = stream.set_read_timeout(Some(POLL)) {
            return End::Lost(e.to_string());
        }
        let _ = stream.set_nodelay(true);
        let mut writer = match stream.try_clone() {
            Ok(w) => w,
            Err(e) => return End::Lost(e.to_string()),
        };
        let mut reader = LineReader::new(BufReader::new(stream));
        // Requests queued for an earlier connection name its instance ids: drop them.
        while self.outgoing.try_recv().is_ok() {}

        let mut welcomed = false;
        let mut greeted = false;
        let mut server = String::new();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if self.stopped() {
                return End::Stopped;
            }
            if welcomed {
                loop {
                    match self.outgoing.try_recv() {
                        Ok(request) => {
                            if let Err(e) = writer.write_all(request.to_line().as_bytes()) {
                                return End::Lost(format!("connection lost: {e}"));
                            }
                        }
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => return End::Stopped,
                    }
                }
            } else if Instant::now() > deadline {
                return End::Lost(format!("{}: no handshake from the server", self.addr));
            }
            let message = match reader.read() {
                Ok(Framed::Line(line)) => ServerMessage::from_line(line).map_err(|e| {
                    let shown = String::from_utf8_lossy(&line[..line.len().min(120)]);
                    format!("{e}: {shown}")
                }),
                Ok(Framed::Eof) => return End::Lost("the server closed the connection".into()),
                Ok(Framed::TooLong) => {
                    return End::Lost(format!(
                        "the server sent a line longer than {} MiB",
                        MAX_LINE >> 20
                    ))
                }
                Err(e) if is_timeout(&e) => continue,
                Err(e) => return End::Lost(format!("connection lost: {e}")),
            };
            let message = match message {
                Ok(message) => message,
                Err(why) => match self.report(LinkEvent::Unreadable(why)) {
                    Ok(()) => continue,
                    Err(Overflow) => return self.overflow(),
                },
            };
            match message {
                ServerMessage::Hello {
                    protocol,
                    server: name,
                    auth,
                } if !welcomed => {
                    if protocol != PROTOCOL_VERSION {
                        return End::Refused(format!(
                            "the server speaks debug protocol {protocol}; this editor speaks {PROTOCOL_VERSION}"
                        ));
                    }
                    if auth == Auth::Token && self.token.is_none() {
                        return End::Refused("the server asks for a token".into());
                    }
                    server = name;
                    greeted = true;
                    let token = match auth {
                        Auth::Token => self.token.clone(),
                        Auth::None => None,
                    };
                    let hello = Request::hello(CLIENT, token).to_line();
                    if let Err(e) = writer.write_all(hello.as_bytes()) {
                        return End::Lost(format!("connection lost: {e}"));
                    }
                }
                ServerMessage::Welcome if !welcomed => {
                    welcomed = true;
                    let connected = LinkEvent::Connected {
                        server: server.clone(),
                    };
                    if self.report(connected).is_err() {
                        return self.overflow();
                    }
                }
                // Before its hello, a server turns clients away for a passing reason (it
                // serves too many clients): try again later. After the client's hello, the
                // answer is about this client (token, version) and would not change.
                ServerMessage::Error { code, message, .. } if !greeted => {
                    return End::Lost(format!("{}: {message} ({code})", self.addr));
                }
                ServerMessage::Error { code, message, .. } if !welcomed => {
                    return End::Refused(format!("{message} ({code})"));
                }
                message => {
                    if self.report(LinkEvent::Message(message)).is_err() {
                        return self.overflow();
                    }
                }
            }
        }
    }

    /// The editor has not read [`super::inbox::LIMIT`] messages that could not be folded
    /// together: give the connection up (and try again) rather than the memory.
    fn overflow(&self) -> End {
        End::Lost(format!(
            "{}: the server sends more than the editor reads; reconnecting",
            self.addr
        ))
    }
}
