//! The connection to a debug server, on a background thread, so the editor's frame never
//! waits for the network. It connects, does the handshake, forwards requests and parsed
//! messages through channels, and, when the connection drops (the program exited or
//! restarted), keeps trying again until the editor detaches. A refusal (wrong token,
//! another protocol version) is final: retrying would not change the answer.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::wire::{Incoming, Request, PROTOCOL};

/// Longest line accepted from a server: a tree file is sent as one line, and a big tree is
/// a few MiB; anything longer is not a server speaking this protocol.
pub const MAX_LINE: usize = 64 << 20;
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
    Message(Incoming),
    /// The connection failed or dropped; the link tries again.
    Lost(String),
    /// The server refused this client; the link has stopped.
    Refused(String),
}

/// See the module documentation. Dropping it closes the connection and ends the thread.
pub struct Link {
    requests: Sender<Request>,
    events: Receiver<LinkEvent>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Link {
    /// Starts connecting to `addr` (`host:port`).
    pub fn start(addr: &str, token: Option<String>) -> Link {
        let (requests, outgoing) = mpsc::channel();
        let (events_tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let worker = Worker {
            addr: addr.to_owned(),
            token,
            outgoing,
            events: events_tx,
            stop: Arc::clone(&stop),
        };
        let thread = std::thread::Builder::new()
            .name(format!("arbor-remote {addr}"))
            .spawn(move || worker.run())
            .ok();
        Link {
            requests,
            events,
            stop,
            thread,
        }
    }

    /// Queues a request; it is sent once connected (requests queued while disconnected
    /// are dropped at the next connection: they were meant for the last one).
    pub fn send(&self, request: Request) {
        // A send fails only when the thread has ended (refused); then there is no one to
        // send to, which the events already said.
        let _ = self.requests.send(request);
    }

    /// Everything reported since the last call.
    pub fn poll(&self) -> Vec<LinkEvent> {
        self.events.try_iter().collect()
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

struct Worker {
    addr: String,
    token: Option<String>,
    outgoing: Receiver<Request>,
    events: Sender<LinkEvent>,
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
                    let _ = self.events.send(LinkEvent::Refused(why));
                    return;
                }
                End::Lost(why) => {
                    // Each distinct failure once: a program that is not running yet
                    // would otherwise fill the panel with the same line.
                    if why != last_error {
                        let _ = self.events.send(LinkEvent::Lost(why.clone()));
                        last_error = why;
                    }
                }
            }
            self.sleep(backoff);
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
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
        let mut reader = Lines::new(stream);
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
                            let line = request.to_line() + "\n";
                            if let Err(e) = writer.write_all(line.as_bytes()) {
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
            let line = match reader.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                Err(e) => return End::Lost(e),
            };
            match Incoming::parse(&line) {
                Incoming::Hello {
                    protocol,
                    server: name,
                    auth,
                } if !welcomed => {
                    if protocol != PROTOCOL {
                        return End::Refused(format!(
                            "the server speaks debug protocol {protocol}; this editor speaks {PROTOCOL}"
                        ));
                    }
                    if auth == "token" && self.token.is_none() {
                        return End::Refused("the server asks for a token".into());
                    }
                    server = name;
                    greeted = true;
                    let token = if auth == "token" {
                        self.token.clone()
                    } else {
                        None
                    };
                    let hello = Request::Hello { token }.to_line() + "\n";
                    if let Err(e) = writer.write_all(hello.as_bytes()) {
                        return End::Lost(format!("connection lost: {e}"));
                    }
                }
                Incoming::Welcome {} if !welcomed => {
                    welcomed = true;
                    let _ = self.events.send(LinkEvent::Connected {
                        server: server.clone(),
                    });
                }
                // Before its hello, a server turns clients away for a passing reason (it
                // serves too many clients): try again later. After the client's hello, the
                // answer is about this client (token, version) and would not change.
                Incoming::Error { code, message, .. } if !greeted => {
                    return End::Lost(format!("{}: {message} ({code})", self.addr));
                }
                Incoming::Error { code, message, .. } if !welcomed => {
                    return End::Refused(format!("{message} ({code})"));
                }
                message => {
                    if self.events.send(LinkEvent::Message(message)).is_err() {
                        return End::Stopped;
                    }
                }
            }
        }
    }
}

/// Newline-delimited lines from a stream with a read timeout: a timeout keeps the partial
/// line for the next call instead of losing it.
struct Lines {
    reader: BufReader<TcpStream>,
    partial: Vec<u8>,
}

impl Lines {
    fn new(stream: TcpStream) -> Lines {
        Lines {
            reader: BufReader::new(stream),
            partial: Vec::new(),
        }
    }

    /// `Ok(None)`: no whole line yet. `Err`: the connection is over, with why.
    fn next_line(&mut self) -> Result<Option<String>, String> {
        loop {
            let available = match self.reader.fill_buf() {
                Ok([]) => return Err("the server closed the connection".into()),
                Ok(bytes) => bytes,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Ok(None)
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("connection lost: {e}")),
            };
            match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.partial.extend_from_slice(&available[..end]);
                    self.reader.consume(end + 1);
                    let line = String::from_utf8_lossy(&self.partial).into_owned();
                    self.partial.clear();
                    return Ok(Some(line));
                }
                None => {
                    let n = available.len();
                    self.partial.extend_from_slice(available);
                    self.reader.consume(n);
                    if self.partial.len() > MAX_LINE {
                        return Err(format!(
                            "the server sent a line longer than {} MiB",
                            MAX_LINE >> 20
                        ));
                    }
                }
            }
        }
    }
}
