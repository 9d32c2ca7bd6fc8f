//! The reader thread of one client: reads request lines (at most `MAX_LINE` each), answers
//! them through the client's queue, and turns steering requests into queued changes of the
//! instance's control state. It never touches an agent and never waits on the host.

use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, BufReader, Read};
use std::net::TcpStream;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use super::client::{ClientLink, Outgoing, Refused};
use super::hub::{lock, Hub};
use super::line::{is_timeout, Framed, LineReader, MAX_LINE};
use super::protocol::{ErrorCode, PauseReason, Request, ServerMessage, PROTOCOL_VERSION};
use super::requests::{self, Parsed};
use super::shared::{Control, InstanceShared, Subscriber};

/// Bad requests logged per client; more would let one client flood the host's log.
const LOGGED_BAD_REQUESTS: u32 = 3;

/// How long a client that sent an over-long line may take to finish it.
const SKIP_TIMEOUT: Duration = Duration::from_secs(2);

/// The socket as the line reader sees it: each read waits at most until `deadline` (the
/// hello deadline; bytes trickled one per second do not extend it, since the time left is
/// recomputed before every read) or, without a deadline, at most `idle`.
struct Timed<'s> {
    stream: &'s TcpStream,
    deadline: Rc<Cell<Option<Instant>>>,
    idle: Duration,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let wait = match self.deadline.get() {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::ErrorKind::TimedOut.into());
                }
                left
            }
            None => self.idle,
        };
        // A zero timeout is refused by the socket (it would mean "no timeout").
        self.stream
            .set_read_timeout(Some(wait.max(Duration::from_millis(1))))?;
        (&*self.stream).read(buf)
    }
}

/// Why a connection ends (for the log line).
struct Stop(String);

struct Session {
    hub: Arc<Hub>,
    link: Arc<ClientLink>,
    greeted: bool,
    bad_requests: u32,
}

pub(crate) fn run(stream: TcpStream, hub: Arc<Hub>, link: Arc<ClientLink>) {
    let mut session = Session {
        hub,
        link,
        greeted: false,
        bad_requests: 0,
    };
    let hello_timeout = session.hub.hello_timeout;
    let idle = session.hub.idle_timeout;
    let deadline = Rc::new(Cell::new(Some(Instant::now() + hello_timeout)));
    let timed = Timed {
        stream: &stream,
        deadline: deadline.clone(),
        idle,
    };
    let mut reader = LineReader::new(BufReader::new(timed));
    let stop = loop {
        match reader.read() {
            Ok(Framed::Line(line)) => {
                if let Err(stop) = session.handle(line) {
                    break stop;
                }
                if session.greeted {
                    deadline.set(None);
                }
            }
            Ok(Framed::Eof) => break Stop("disconnected".into()),
            Ok(Framed::TooLong) => {
                let _ = session.error(
                    None,
                    ErrorCode::LineTooLong,
                    format!("lines are limited to {MAX_LINE} bytes"),
                );
                // Bounded in time and size: a client that keeps streaming is cut off.
                deadline.set(Some(Instant::now() + SKIP_TIMEOUT));
                let _ = reader.skip_line(4 * MAX_LINE);
                break Stop(format!("sent a line longer than {MAX_LINE} bytes"));
            }
            Err(e) if is_timeout(&e) && !session.greeted => {
                let _ = session.error(None, ErrorCode::Protocol, "no `hello` in time".into());
                break Stop(format!("no hello within {:?}", hello_timeout));
            }
            // Silent, but watching an instance: the frames it reads are its activity.
            Err(e) if is_timeout(&e) && session.subscribed() => {}
            Err(e) if is_timeout(&e) => {
                let _ = session.error(
                    None,
                    ErrorCode::Protocol,
                    "idle: nothing sent and nothing subscribed".into(),
                );
                break Stop(format!("idle for {idle:?}, subscribed to nothing"));
            }
            Err(e) => break Stop(format!("read failed: {e}")),
        }
    };
    session.finish(&stop);
}

impl Session {
    fn handle(&mut self, line: &[u8]) -> Result<(), Stop> {
        let Parsed { id, request } = match requests::parse(line) {
            Ok(parsed) => parsed,
            Err(rejected) => {
                self.bad_requests += 1;
                if self.bad_requests <= LOGGED_BAD_REQUESTS {
                    self.hub.log(&format!(
                        "client {} ({}): {}",
                        self.link.id, self.link.peer, rejected.message
                    ));
                }
                return self.error(rejected.id.as_ref(), rejected.code, rejected.message);
            }
        };
        let id = id.as_ref();
        match request {
            Request::Hello {
                protocol, token, ..
            } => self.hello(id, protocol, token),
            _ if !self.greeted => self.error(
                id,
                ErrorCode::Protocol,
                "the handshake comes first: send `hello`".into(),
            ),
            Request::List => {
                let listing = self.hub.listing(id);
                self.send(listing)
            }
            Request::Tree { instance } => {
                let Some(shared) = self.instance(id, instance)? else {
                    return Ok(());
                };
                self.send(
                    ServerMessage::Tree {
                        id: id.cloned(),
                        instance,
                        file: Cow::Borrowed(&shared.file),
                    }
                    .to_line(),
                )
            }
            Request::Subscribe { instances } => self.subscribe(id, &instances, true),
            Request::Unsubscribe { instances } => self.subscribe(id, &instances, false),
            Request::Pause { instance } => self.pause(id, instance, true),
            Request::Resume { instance } => self.pause(id, instance, false),
            Request::Step { instance } => {
                let Some(shared) = self.instance(id, instance)? else {
                    return Ok(());
                };
                {
                    let mut control = shared.control();
                    control.steps = control.steps.saturating_add(1);
                    control.held_by = Some(self.link.id);
                    shared.update_active(&control);
                }
                self.ok(id)
            }
            Request::Breakpoint {
                instance,
                node,
                set,
            } => self.breakpoint(id, instance, &node, set),
            Request::Set {
                instance,
                key,
                value,
            } => self.set(id, instance, key, value),
            // `requests::parse` answers it with `unknown_type`.
            Request::Unknown => Ok(()),
        }
    }

    fn hello(
        &mut self,
        id: Option<&Json>,
        protocol: u64,
        token: Option<String>,
    ) -> Result<(), Stop> {
        if self.greeted {
            return self.error(id, ErrorCode::Protocol, "already greeted".into());
        }
        if protocol != PROTOCOL_VERSION {
            let message = format!(
                "protocol {protocol} is not supported; this server speaks {PROTOCOL_VERSION}"
            );
            self.error(id, ErrorCode::Protocol, message.clone())?;
            return Err(Stop(message));
        }
        if let Some(expected) = &self.hub.token {
            if !token.as_deref().is_some_and(|t| same_token(t, expected)) {
                let message = "missing or wrong token".to_owned();
                self.error(id, ErrorCode::Auth, message.clone())?;
                return Err(Stop(message));
            }
        }
        self.send(ServerMessage::Welcome.to_line())?;
        self.greeted = true;
        self.link.greeted.store(true, Ordering::Release);
        Ok(())
    }

    fn subscribe(&mut self, id: Option<&Json>, ids: &[u64], on: bool) -> Result<(), Stop> {
        let mut found = Vec::with_capacity(ids.len());
        for &instance in ids {
            match self.instance(id, instance)? {
                Some(shared) => found.push(shared),
                None => return Ok(()),
            }
        }
        found.sort_by_key(|shared| shared.id);
        found.dedup_by_key(|shared| shared.id);
        if !on {
            for shared in &found {
                let mut control = shared.control();
                control.subscribers.retain(|s| s.link.id != self.link.id);
                shared.update_active(&control);
            }
            // Last, so that no frame follows it.
            return self.ok(id);
        }
        // The subscriptions are made (and `active` set) before `ok` is queued, with every
        // instance's control locked until then: a tick that has not yet seen the
        // subscription cannot publish before `ok`, and every tick after `ok` is reported.
        // Locks are taken in id order, and the host's tick holds at most one, so this
        // cannot deadlock.
        let ok = ServerMessage::Ok { id: id.cloned() }.to_line();
        let mut controls: Vec<_> = found.iter().map(|shared| shared.control()).collect();
        for (shared, control) in found.iter().zip(controls.iter_mut()) {
            subscribe(&self.link, shared, control);
        }
        if self.link.try_send(Outgoing::Line(ok.clone())).is_err() {
            // The queue is full: take the subscriptions back and wait for room without
            // holding the host up; frames of ticks in between are not reported.
            for (shared, control) in found.iter().zip(controls.iter_mut()) {
                control.subscribers.retain(|s| s.link.id != self.link.id);
                shared.update_active(control);
            }
            drop(controls);
            self.send(ok)?;
            for shared in &found {
                subscribe(&self.link, shared, &mut shared.control());
            }
        }
        Ok(())
    }

    fn pause(&mut self, id: Option<&Json>, instance: u64, pause: bool) -> Result<(), Stop> {
        let Some(shared) = self.instance(id, instance)? else {
            return Ok(());
        };
        let changed = {
            let mut control = shared.control();
            let changed = control.paused != pause;
            control.paused = pause;
            control.held_by = pause.then_some(self.link.id);
            control.steps = 0;
            shared.update_active(&control);
            changed
        };
        self.ok(id)?;
        if changed {
            let message = if pause {
                ServerMessage::Paused {
                    instance,
                    reason: PauseReason::Request,
                    node: None,
                    tick: shared.ticks.load(Ordering::Relaxed),
                }
            } else {
                ServerMessage::Resumed { instance }
            };
            self.hub.broadcast(&message);
        }
        Ok(())
    }

    fn breakpoint(
        &mut self,
        id: Option<&Json>,
        instance: u64,
        node: &str,
        set: bool,
    ) -> Result<(), Stop> {
        let Some(shared) = self.instance(id, instance)? else {
            return Ok(());
        };
        let nodes = shared.nodes_with_guid(node);
        if nodes.is_empty() {
            let message = format!("instance {instance} has no node `{node}`");
            return self.error(id, ErrorCode::UnknownNode, message);
        }
        {
            let mut control = shared.control();
            for node in nodes {
                if set {
                    control.breakpoints.insert(node);
                } else {
                    control.breakpoints.remove(&node);
                }
            }
            control.breakpoints_changed = true;
            shared.update_active(&control);
        }
        self.ok(id)
    }

    /// Checks the value against the key's type here, so the client hears about a bad value
    /// at once; the host applies the write at its next tick call.
    fn set(
        &mut self,
        id: Option<&Json>,
        instance: u64,
        key: String,
        value: Json,
    ) -> Result<(), Stop> {
        let Some(shared) = self.instance(id, instance)? else {
            return Ok(());
        };
        let Some(info) = shared.keys.iter().find(|k| k.name == key) else {
            let message = format!("instance {instance} has no key `{key}`");
            return self.error(id, ErrorCode::UnknownKey, message);
        };
        if !value.is_null() {
            if let Err(found) = info.ty.coerce(&value) {
                let message = format!("key `{}` ({}): {found}", info.name, info.ty);
                return self.error(id, ErrorCode::BadValue, message);
            }
        }
        let weight = write_weight(&key, &value);
        let refused = {
            let mut control = shared.control();
            let held = control.writes_bytes;
            if held > 0 && held.saturating_add(weight) > self.hub.pending_writes {
                Some(held)
            } else {
                control.writes.push((key, value));
                control.writes_bytes = held.saturating_add(weight);
                shared.update_active(&control);
                None
            }
        };
        if let Some(held) = refused {
            let message = format!(
                "instance {instance}: {held} bytes of blackboard writes wait for the host's next tick; \
                 the limit is {} bytes; send it again after that tick",
                self.hub.pending_writes
            );
            return self.error(id, ErrorCode::Busy, message);
        }
        self.ok(id)
    }

    /// The instance, or `None` after replying `unknown_instance`.
    fn instance(
        &mut self,
        id: Option<&Json>,
        instance: u64,
    ) -> Result<Option<Arc<InstanceShared>>, Stop> {
        match self.hub.instance(instance) {
            Some(shared) => Ok(Some(shared)),
            None => {
                let message = format!("no instance {instance}");
                self.error(id, ErrorCode::UnknownInstance, message)?;
                Ok(None)
            }
        }
    }

    fn ok(&self, id: Option<&Json>) -> Result<(), Stop> {
        self.send(ServerMessage::Ok { id: id.cloned() }.to_line())
    }

    fn error(&self, id: Option<&Json>, code: ErrorCode, message: String) -> Result<(), Stop> {
        self.send(
            ServerMessage::Error {
                id: id.cloned(),
                code,
                message,
            }
            .to_line(),
        )
    }

    fn send(&self, line: String) -> Result<(), Stop> {
        self.link.reply(line).map_err(|refused| match refused {
            Refused::Full => {
                let message = format!(
                    "disconnected: replies the client did not read fill its queue (limit {} bytes)",
                    self.hub.queue_bytes
                );
                self.link.last_word(
                    ServerMessage::Error {
                        id: None,
                        code: ErrorCode::Busy,
                        message,
                    }
                    .to_line(),
                );
                Stop("does not read its replies".into())
            }
            Refused::Gone => Stop("connection closed".into()),
        })
    }

    /// Unsubscribes everywhere, leaves the client list and lets the writer close.
    fn finish(self, stop: &Stop) {
        if !self.hub.stopping.load(Ordering::Acquire) {
            self.hub.log(&format!(
                "client {} ({}): {}; connection closed",
                self.link.id, self.link.peer, stop.0
            ));
        }
        self.link.close();
        self.hub.remove_client(self.link.id);
        // What a disconnect releases (docs/debug-protocol.md): the pauses this client
        // holds; and when no client is left, every pause and breakpoint, since nobody
        // could resume the instance any more.
        let nobody_left = lock(&self.hub.clients).is_empty();
        let instances: Vec<Arc<InstanceShared>> =
            lock(&self.hub.instances).values().cloned().collect();
        for shared in instances {
            let released = {
                let mut control = shared.control();
                control.subscribers.retain(|s| s.link.id != self.link.id);
                let release = (control.paused || control.steps > 0)
                    && (nobody_left || control.held_by == Some(self.link.id));
                if release {
                    control.paused = false;
                    control.steps = 0;
                    control.held_by = None;
                }
                if nobody_left && !control.breakpoints.is_empty() {
                    control.breakpoints.clear();
                    control.breakpoints_changed = true;
                }
                shared.update_active(&control);
                release
            };
            if released && !nobody_left {
                self.hub.broadcast(&ServerMessage::Resumed {
                    instance: shared.id,
                });
            }
        }
    }

    /// Whether this client is subscribed to some instance.
    fn subscribed(&self) -> bool {
        let instances: Vec<Arc<InstanceShared>> =
            lock(&self.hub.instances).values().cloned().collect();
        instances.iter().any(|shared| {
            shared
                .control()
                .subscribers
                .iter()
                .any(|s| s.link.id == self.link.id)
        })
    }
}

/// Subscribes `link` to an instance (again: a repeated subscription starts afresh).
fn subscribe(link: &Arc<ClientLink>, shared: &InstanceShared, control: &mut Control) {
    control.subscribers.retain(|s| s.link.id != link.id);
    control.subscribers.push(Subscriber {
        link: link.clone(),
        fresh: true,
        dropped: 0,
    });
    shared.update_active(control);
}

/// What a queued blackboard write holds in memory: its key and its value, each JSON value
/// counted as one `serde_json::Value` plus the bytes of its strings. Walks without
/// recursion; linear in the value.
fn write_weight(key: &str, value: &Json) -> usize {
    let node = std::mem::size_of::<Json>();
    let mut total = key.len() + std::mem::size_of::<(String, Json)>();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += node;
        match v {
            Json::String(s) => total += s.len(),
            Json::Array(items) => stack.extend(items),
            Json::Object(map) => {
                for (k, item) in map {
                    total += k.len();
                    stack.push(item);
                }
            }
            Json::Null | Json::Bool(_) | Json::Number(_) => {}
        }
    }
    total
}

/// Compares tokens in time independent of where they differ.
fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
