//! The reader thread of one client: reads request lines (at most 1 MiB each), answers
//! them through the client's queue, and turns steering requests into queued changes of the
//! instance's control state. It never touches an agent and never waits on the host.

use std::io::BufReader;
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value as Json;

use super::client::{ClientLink, Outgoing, Refused};
use super::hub::{lock, Hub};
use super::line::{read_line, skip_line, LineRead};
use super::protocol::{
    Breakpoint, ErrorCode, Hello, Many, One, PauseReason, Request, ServerMessage, Set, MAX_LINE,
    PROTOCOL_VERSION,
};
use super::requests::{self, Parsed};
use super::shared::{Control, InstanceShared, Subscriber};

/// Bad requests logged per client; more would let one client flood the host's log.
const LOGGED_BAD_REQUESTS: u32 = 3;

/// A connection that has not said `hello` by then is closed, so that idle sockets cannot
/// hold client slots. After the handshake a client may stay silent for as long as it likes.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

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
    let mut reader = BufReader::new(&stream);
    let mut line = Vec::new();
    let mut timed = stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT)).is_ok();
    let stop = loop {
        match read_line(&mut reader, &mut line, MAX_LINE) {
            Ok(LineRead::Line) => {
                if let Err(stop) = session.handle(&line) {
                    break stop;
                }
                if timed && session.greeted {
                    if let Err(e) = stream.set_read_timeout(None) {
                        break Stop(format!("cannot clear the handshake timeout: {e}"));
                    }
                    timed = false;
                }
            }
            Ok(LineRead::Eof) => break Stop("disconnected".into()),
            Ok(LineRead::TooLong) => {
                let _ = session.error(
                    None,
                    ErrorCode::LineTooLong,
                    format!("lines are limited to {MAX_LINE} bytes"),
                );
                // Bounded in time and size: a client that keeps streaming is cut off.
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = skip_line(&mut reader, 64 * MAX_LINE);
                break Stop(format!("sent a line longer than {MAX_LINE} bytes"));
            }
            Err(e)
                if timed
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
            {
                let _ = session.error(None, ErrorCode::Protocol, "no `hello` in time".into());
                break Stop(format!("no hello within {} s", HANDSHAKE_TIMEOUT.as_secs()));
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
            Request::Hello(hello) => self.hello(id, hello),
            _ if !self.greeted => self.error(
                id,
                ErrorCode::Protocol,
                "the handshake comes first: send `hello`".into(),
            ),
            Request::List => {
                let listing = self.hub.listing(id);
                self.send(listing)
            }
            Request::Tree(One { instance }) => {
                let Some(shared) = self.instance(id, instance)? else {
                    return Ok(());
                };
                self.send(
                    ServerMessage::Tree {
                        id,
                        instance,
                        file: &shared.file,
                    }
                    .to_line(),
                )
            }
            Request::Subscribe(Many { instances }) => self.subscribe(id, &instances, true),
            Request::Unsubscribe(Many { instances }) => self.subscribe(id, &instances, false),
            Request::Pause(One { instance }) => self.pause(id, instance, true),
            Request::Resume(One { instance }) => self.pause(id, instance, false),
            Request::Step(One { instance }) => {
                let Some(shared) = self.instance(id, instance)? else {
                    return Ok(());
                };
                {
                    let mut control = shared.control();
                    control.steps = control.steps.saturating_add(1);
                    shared.update_active(&control);
                }
                self.ok(id)
            }
            Request::Breakpoint(breakpoint) => self.breakpoint(id, breakpoint),
            Request::Set(set) => self.set(id, set),
        }
    }

    fn hello(&mut self, id: Option<&Json>, hello: Hello) -> Result<(), Stop> {
        if self.greeted {
            return self.error(id, ErrorCode::Protocol, "already greeted".into());
        }
        if hello.protocol != PROTOCOL_VERSION {
            let message = format!(
                "protocol {} is not supported; this server speaks {PROTOCOL_VERSION}",
                hello.protocol
            );
            self.error(id, ErrorCode::Protocol, message.clone())?;
            return Err(Stop(message));
        }
        if let Some(token) = &self.hub.token {
            if !hello.token.as_deref().is_some_and(|t| same_token(t, token)) {
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
        let ok = ServerMessage::Ok { id }.to_line();
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

    fn breakpoint(&mut self, id: Option<&Json>, b: Breakpoint) -> Result<(), Stop> {
        let Some(shared) = self.instance(id, b.instance)? else {
            return Ok(());
        };
        let nodes = shared.nodes_with_guid(&b.node);
        if nodes.is_empty() {
            let message = format!("instance {} has no node `{}`", b.instance, b.node);
            return self.error(id, ErrorCode::UnknownNode, message);
        }
        {
            let mut control = shared.control();
            for node in nodes {
                if b.set {
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
    fn set(&mut self, id: Option<&Json>, set: Set) -> Result<(), Stop> {
        let Some(shared) = self.instance(id, set.instance)? else {
            return Ok(());
        };
        let Some(info) = shared.keys.iter().find(|k| k.name == set.key) else {
            let message = format!("instance {} has no key `{}`", set.instance, set.key);
            return self.error(id, ErrorCode::UnknownKey, message);
        };
        if !set.value.is_null() {
            if let Err(found) = info.ty.coerce(&set.value) {
                let message = format!("key `{}` ({}): {found}", info.name, info.ty);
                return self.error(id, ErrorCode::BadValue, message);
            }
        }
        {
            let mut control = shared.control();
            control.writes.push((set.key, set.value));
            shared.update_active(&control);
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
        self.send(ServerMessage::Ok { id }.to_line())
    }

    fn error(&self, id: Option<&Json>, code: ErrorCode, message: String) -> Result<(), Stop> {
        self.send(ServerMessage::Error { id, code, message }.to_line())
    }

    fn send(&self, line: String) -> Result<(), Stop> {
        self.link.reply(line).map_err(|refused| {
            Stop(match refused {
                Refused::Full => "does not read its replies".into(),
                Refused::Gone => "connection closed".into(),
            })
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
        let instances: Vec<Arc<InstanceShared>> =
            lock(&self.hub.instances).values().cloned().collect();
        for shared in instances {
            let mut control = shared.control();
            control.subscribers.retain(|s| s.link.id != self.link.id);
            shared.update_active(&control);
        }
        self.hub.remove_client(self.link.id);
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

/// Compares tokens in time independent of where they differ.
fn same_token(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
