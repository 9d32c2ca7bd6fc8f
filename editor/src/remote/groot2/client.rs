//! [`Client`]: the ZeroMQ side of a Groot2 attachment, on its own thread.
//!
//! The thread runs a single-threaded tokio runtime (zmq.rs is async) and, while the
//! editor holds the client: connects a REQ socket to the program's server port and a SUB
//! socket to the next port; fetches the tree and the hooks the program holds; then every
//! [`POLL`] asks for the statuses (every few polls the blackboards too), carries out the
//! editor's [`Command`]s, and passes breakpoint notifications on. The polls are also the
//! heartbeat the publisher watches: it disables every hook after
//! [`HEARTBEAT`](protocol::HEARTBEAT) without a request, so an editor that goes away
//! never leaves the program held at a breakpoint, and one that stays attached never
//! sees its breakpoints switched off. Every wait has a deadline, so a program that stops
//! answering costs a reconnection (and a line in the log), never a stuck editor. A reply
//! with a different program id means the program restarted: the client starts over and
//! the editor gets the tree again. The editor reads [`Event`]s from a bounded channel;
//! statuses are dropped rather than queued when it does not read (a minimised window).
//!
//! A publisher that refuses a bulk hook request (one older than BT.CPP 4.1, or another
//! implementation of the protocol) is not an error: the request is marked unknown for the
//! rest of the session and the client falls back: without the hooks dump it removes
//! every hook on attaching, as it cannot show them; without remove-all or disable-all it
//! removes the hooks the editor knows one by one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;

use arbor_runtime::btcpp::NodeState;
use arbor_runtime::Status;
use serde_json::Value;
use zeromq::{Socket, SocketRecv, SocketSend, ZmqMessage};

use super::protocol::{self, Kind, ProgramHook, WireError};

/// Time between two status requests.
pub const POLL: Duration = Duration::from_millis(100);
/// Blackboards are asked for every this many polls.
const BLACKBOARD_EVERY: u32 = 5;
/// Longest wait for a connection or an answer.
const DEADLINE: Duration = Duration::from_millis(1500);
/// Wait before trying again after the program went away.
const RETRY: Duration = Duration::from_millis(500);
/// Events the editor has not read yet, at most.
const QUEUE: usize = 64;

// Between two requests the program sees at most an answer's deadline and a poll, or, when
// that answer never came, a retry and a new connection's deadline. Both must stay under the
// publisher's heartbeat, or the program would disable the editor's hooks while attached.
const _: () = assert!(
    2 * DEADLINE.as_millis() + POLL.as_millis() + RETRY.as_millis()
        < protocol::HEARTBEAT.as_millis()
);

/// What the editor asks of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A hook before the node's tick: a breakpoint (`None`), or a forced result.
    Hook {
        uid: u16,
        replace: Option<Status>,
    },
    Unhook(u16),
    /// Let the node waiting at its breakpoint go on, ticked or with a forced result.
    Unlock {
        uid: u16,
        result: Option<Status>,
    },
    /// One-shot breakpoints before these nodes (a step: the next node ticked stops).
    StepHooks(Vec<u16>),
    /// Remove every hook, waking a node held at a breakpoint (detaching: nothing is left
    /// waiting for an editor that is gone). `known` are the hooks the editor knows, removed
    /// one by one if the program cannot remove them all at once.
    RemoveAllHooks {
        known: Vec<u16>,
    },
    /// Disable every hook (a held node goes on); [`Command::Hook`] enables one again. A
    /// program that cannot disable them has the `known` ones removed instead.
    DisableAllHooks {
        known: Vec<u16>,
    },
    /// The blackboards to ask for (`;`-separated names), once the tree is known.
    Blackboards(String),
}

/// What the program said, or what happened to the connection.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Connected (again): the program's id, its tree, and the hooks it holds (set by
    /// Groot2 or an earlier attachment). `hooks` is `None` when the program cannot list
    /// them: the client then removed them all.
    Connected {
        program: [u8; 16],
        xml: String,
        hooks: Option<Vec<ProgramHook>>,
    },
    Statuses(Vec<(u16, NodeState)>),
    Blackboards(Value),
    /// A node waits at its breakpoint.
    Breakpoint(u16),
    /// The connection is gone; the client is retrying.
    Lost(String),
    /// The program refused a request or answered nonsense.
    Problem(String),
}

/// See the module documentation. Dropping it stops the thread (within one deadline).
pub struct Client {
    commands: Sender<Command>,
    events: Receiver<Event>,
    stop: Arc<AtomicBool>,
}

impl Client {
    /// Starts attaching to the program whose server listens at `host:port`.
    pub fn start(host: &str, port: u16) -> Client {
        let (commands, command_rx) = mpsc::channel();
        let (event_tx, events) = mpsc::sync_channel(QUEUE);
        let stop = Arc::new(AtomicBool::new(false));
        let link = Link {
            server: format!("tcp://{host}:{port}"),
            publisher: format!("tcp://{host}:{}", port.wrapping_add(1)),
            commands: command_rx,
            events: event_tx,
            stop: stop.clone(),
            blackboards: None,
            next_id: seed(),
            unknown: Vec::new(),
        };
        let spawned = std::thread::Builder::new()
            .name("groot2".into())
            .spawn(move || link.run());
        if let Err(e) = spawned {
            // No thread, no connection: say so through the same channel the UI reads.
            let (tx, rx) = mpsc::sync_channel(1);
            let _ = tx.try_send(Event::Lost(format!(
                "cannot start the connection thread: {e}"
            )));
            return Client {
                commands,
                events: rx,
                stop,
            };
        }
        Client {
            commands,
            events,
            stop,
        }
    }

    pub fn send(&self, command: Command) {
        // Fails only once the thread is gone, and then there is nobody to tell.
        let _ = self.commands.send(command);
    }

    /// The events since the last call.
    pub fn poll(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Request ids only need to differ between consecutive requests; a clock-seeded counter
/// does (BT.CPP draws them at random).
fn seed() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(1)
}

/// The program's id and the answer's body parts.
type Answer = ([u8; 16], Vec<Vec<u8>>);

/// Why a session ended.
enum End {
    Stopped,
    Lost(String),
}

/// The thread's state.
struct Link {
    server: String,
    publisher: String,
    commands: Receiver<Command>,
    events: SyncSender<Event>,
    stop: Arc<AtomicBool>,
    blackboards: Option<String>,
    next_id: u32,
    /// The bulk hook requests this session's program refused.
    unknown: Vec<Kind>,
}

impl Link {
    fn run(mut self) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        let runtime = match runtime {
            Ok(r) => r,
            Err(e) => {
                self.tell(Event::Lost(format!(
                    "cannot start the connection runtime: {e}"
                )));
                return;
            }
        };
        runtime.block_on(async {
            let mut said = String::new();
            loop {
                match self.session().await {
                    End::Stopped => return,
                    End::Lost(why) => {
                        // The same failure again and again (nothing listens) is said once.
                        if why != said {
                            self.tell(Event::Lost(why.clone()));
                            said = why;
                        }
                    }
                }
                if self.stopped() {
                    return;
                }
                tokio::time::sleep(RETRY).await;
            }
        });
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Important events wait for room; the editor reads every frame.
    fn tell(&self, event: Event) {
        let _ = self.events.send(event);
    }

    /// Statuses and blackboards are replaced by the next ones anyway.
    fn offer(&self, event: Event) {
        if let Err(TrySendError::Disconnected(_)) = self.events.try_send(event) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    async fn session(&mut self) -> End {
        let mut req = zeromq::ReqSocket::new();
        if let Err(why) = connect(&mut req, &self.server).await {
            return End::Lost(why);
        }
        let mut sub = zeromq::SubSocket::new();
        if let Err(e) = sub.subscribe("").await {
            return End::Lost(format!("cannot subscribe: {e}"));
        }
        if let Err(why) = connect(&mut sub, &self.publisher).await {
            return End::Lost(why);
        }
        let (program, parts) = match self.ask(&mut req, Kind::FullTree, None).await {
            Ok(Some(answer)) => answer,
            Ok(None) => return End::Lost("the program refused to send its tree".into()),
            Err(end) => return end,
        };
        let xml = match protocol::body(&parts, "tree") {
            Ok(body) => String::from_utf8_lossy(body).into_owned(),
            Err(e) => return End::Lost(e.to_string()),
        };
        // A program may be restarted as another BT.CPP version: negotiate afresh.
        self.unknown.clear();
        let hooks = match self.hooks(&mut req, program).await {
            Ok(hooks) => hooks,
            Err(end) => return end,
        };
        self.tell(Event::Connected {
            program,
            xml,
            hooks,
        });
        let mut polls = 0u32;
        loop {
            // Commands first: the last ones (RemoveAllHooks) come just before the stop.
            while let Ok(command) = self.commands.try_recv() {
                if let Err(end) = self.command(&mut req, program, command).await {
                    return end;
                }
            }
            if self.stopped() {
                return End::Stopped;
            }
            match self.ask(&mut req, Kind::Status, None).await {
                Ok(None) => {}
                Ok(Some((id, _))) if id != program => {
                    return End::Lost("the program restarted".into())
                }
                Ok(Some((_, parts))) => {
                    match protocol::body(&parts, "statuses").and_then(protocol::statuses) {
                        Ok(statuses) => self.offer(Event::Statuses(statuses)),
                        Err(e) => self.tell(Event::Problem(e.to_string())),
                    }
                }
                Err(end) => return end,
            }
            polls = polls.wrapping_add(1);
            if let Some(names) = self
                .blackboards
                .clone()
                .filter(|_| polls % BLACKBOARD_EVERY == 1)
            {
                match self
                    .ask(&mut req, Kind::Blackboard, Some(names.into_bytes()))
                    .await
                {
                    Ok(None) => {}
                    Ok(Some((_, parts))) => match protocol::body(&parts, "blackboards")
                        .and_then(protocol::blackboards)
                    {
                        Ok(value) => self.offer(Event::Blackboards(value)),
                        Err(e) => self.tell(Event::Problem(e.to_string())),
                    },
                    Err(end) => return end,
                }
            }
            // The pause between polls is spent listening for breakpoint notifications.
            if let Ok(Ok(message)) = tokio::time::timeout(POLL, sub.recv()).await {
                let parts = frames(message);
                match protocol::breakpoint_reached(&parts) {
                    Ok(uid) => self.tell(Event::Breakpoint(uid)),
                    Err(e) => self.tell(Event::Problem(e.to_string())),
                }
            }
        }
    }

    /// The hooks the program holds; without the dump request, removes them all instead
    /// (hooks an earlier editor left, one killed while the program waited at its
    /// breakpoint, would otherwise stay invisible), which also lets a waiting node go on.
    async fn hooks(
        &mut self,
        req: &mut zeromq::ReqSocket,
        program: [u8; 16],
    ) -> Result<Option<Vec<ProgramHook>>, End> {
        match self.optional(req, program, Kind::HooksDump, None).await? {
            Some(parts) => match protocol::body(&parts, "hooks").and_then(protocol::hooks_dump) {
                Ok(hooks) => Ok(Some(hooks)),
                Err(e) => Err(End::Lost(e.to_string())),
            },
            None => {
                let clear = Command::RemoveAllHooks { known: Vec::new() };
                self.command(req, program, clear).await?;
                Ok(None)
            }
        }
    }

    /// A request the program may not know: `None` when it refused (said once a session,
    /// and remembered, so it is not asked again).
    async fn optional(
        &mut self,
        req: &mut zeromq::ReqSocket,
        program: [u8; 16],
        kind: Kind,
        body: Option<Vec<u8>>,
    ) -> Result<Option<Vec<Vec<u8>>>, End> {
        if self.unknown.contains(&kind) {
            return Ok(None);
        }
        match self.try_ask(req, kind, body).await? {
            Ok((id, _)) if id != program => Err(End::Lost("the program restarted".into())),
            Ok((_, parts)) => Ok(Some(parts)),
            Err(why) => {
                self.unknown.push(kind);
                self.tell(Event::Problem(format!(
                    "the program does not know {} ({why}); {}",
                    describe(kind),
                    fallback(kind)
                )));
                Ok(None)
            }
        }
    }

    /// Removes the hooks before the nodes `uids`, one request each; a node without one is
    /// no problem (that is what was wanted).
    async fn remove_each(
        &mut self,
        req: &mut zeromq::ReqSocket,
        program: [u8; 16],
        uids: &[u16],
    ) -> Result<(), End> {
        for uid in uids {
            let body = protocol::unhook(*uid).into_bytes();
            if let Ok((id, _)) = self.try_ask(req, Kind::HookRemove, Some(body)).await? {
                if id != program {
                    return Err(End::Lost("the program restarted".into()));
                }
            }
        }
        Ok(())
    }

    async fn command(
        &mut self,
        req: &mut zeromq::ReqSocket,
        program: [u8; 16],
        command: Command,
    ) -> Result<(), End> {
        let (kind, body) = match command {
            Command::Hook { uid, replace } => (Kind::HookInsert, protocol::hook(uid, replace)),
            Command::Unhook(uid) => (Kind::HookRemove, protocol::unhook(uid)),
            Command::Unlock { uid, result } => {
                (Kind::BreakpointUnlock, protocol::unlock(uid, result))
            }
            Command::StepHooks(uids) => (Kind::HookInsert, protocol::step_hooks(&uids)),
            Command::RemoveAllHooks { known } => {
                return self.bulk(req, program, Kind::RemoveAllHooks, &known).await
            }
            Command::DisableAllHooks { known } => {
                return self.bulk(req, program, Kind::DisableAllHooks, &known).await
            }
            Command::Blackboards(names) => {
                self.blackboards = Some(names).filter(|n| !n.is_empty());
                return Ok(());
            }
        };
        let body = Some(body.into_bytes()).filter(|b| !b.is_empty());
        match self.ask(req, kind, body).await {
            Ok(Some((id, _))) if id != program => Err(End::Lost("the program restarted".into())),
            Ok(_) => Ok(()),
            Err(end) => Err(end),
        }
    }

    /// Remove-all or disable-all, or removing the `known` hooks one by one when the
    /// program knows neither.
    async fn bulk(
        &mut self,
        req: &mut zeromq::ReqSocket,
        program: [u8; 16],
        kind: Kind,
        known: &[u16],
    ) -> Result<(), End> {
        match self.optional(req, program, kind, None).await? {
            Some(_) => Ok(()),
            None => self.remove_each(req, program, known).await,
        }
    }

    /// One request and its answer; `None` when the program refused it (reported, and not
    /// the end of the session).
    async fn ask(
        &mut self,
        req: &mut zeromq::ReqSocket,
        kind: Kind,
        body: Option<Vec<u8>>,
    ) -> Result<Option<Answer>, End> {
        match self.try_ask(req, kind, body).await? {
            Ok(answer) => Ok(Some(answer)),
            Err(why) => {
                self.tell(Event::Problem(format!("the program refused: {why}")));
                Ok(None)
            }
        }
    }

    /// One request and its answer, or the program's refusal. Garbage or silence ends the
    /// session: the REQ socket cannot be trusted after either.
    async fn try_ask(
        &mut self,
        req: &mut zeromq::ReqSocket,
        kind: Kind,
        body: Option<Vec<u8>>,
    ) -> Result<Result<Answer, String>, End> {
        self.next_id = self.next_id.wrapping_add(1);
        let id = self.next_id;
        let mut message = ZmqMessage::from(protocol::header(kind, id));
        if let Some(body) = body {
            message.push_back(body.into());
        }
        let lost = |what: String| End::Lost(what);
        match tokio::time::timeout(DEADLINE, req.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(lost(format!("cannot send: {e}"))),
            Err(_) => return Err(lost("the program does not take requests".into())),
        }
        let answer = match tokio::time::timeout(DEADLINE, req.recv()).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => return Err(lost(format!("connection lost: {e}"))),
            Err(_) => {
                return Err(lost(format!(
                    "no answer within {} ms",
                    DEADLINE.as_millis()
                )))
            }
        };
        let parts = frames(answer);
        match protocol::reply(&parts, kind, id) {
            Ok((program, body)) => Ok(Ok((program, body.to_vec()))),
            Err(WireError::Refused(why)) => Ok(Err(why)),
            Err(e) => Err(lost(e.to_string())),
        }
    }
}

/// A bulk hook request, for the log.
fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::HooksDump => "the hooks dump",
        Kind::RemoveAllHooks => "remove-all-hooks",
        Kind::DisableAllHooks => "disable-all-hooks",
        _ => "this request",
    }
}

/// What the client does instead, for the log.
fn fallback(kind: Kind) -> &'static str {
    match kind {
        Kind::HooksDump => "hooks it holds are removed rather than shown",
        Kind::DisableAllHooks => "the hooks are removed one by one, and set again to enable them",
        _ => "the hooks are removed one by one",
    }
}

async fn connect(socket: &mut impl Socket, endpoint: &str) -> Result<(), String> {
    match tokio::time::timeout(DEADLINE, socket.connect(endpoint)).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("cannot connect to {endpoint}: {e}")),
        Err(_) => Err(format!("nothing answers at {endpoint}")),
    }
}

fn frames(message: ZmqMessage) -> Vec<Vec<u8>> {
    message.into_vec().into_iter().map(|b| b.to_vec()).collect()
}
