//! [`Remote`]: the editor's attachment to one debug server. It owns the [`Link`], keeps
//! the server's instance list, the instances the user attached to (by name, so they are
//! found again when the program restarts and the server numbers them anew), which one is
//! in focus, and turns the user's pause/step/breakpoint/set into requests.

use std::collections::BTreeMap;

use arbor_runtime::debug::{InstanceEntry, PauseReason, Request, ServerMessage};
use serde_json::Value;

use super::instance::{InstanceView, Pause};
use super::link::{Link, LinkEvent};
use crate::live::{LiveSource, NodeLive};

/// Lines of the connection log kept for the panel.
const LOG_LINES: usize = 50;

/// The connection as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Connection {
    Connecting,
    Connected {
        server: String,
    },
    /// Lost, retrying.
    Lost(String),
    /// Refused for good (token, protocol): the user has to attach again.
    Refused(String),
}

/// See the module documentation.
pub struct Remote {
    pub addr: String,
    link: Link,
    pub connection: Connection,
    /// The server's latest list.
    pub listed: Vec<InstanceEntry>,
    /// Attached instances, by name.
    pub attached: BTreeMap<String, InstanceView>,
    pub focus: Option<String>,
    /// Errors and notices, newest last.
    pub log: Vec<String>,
    /// The node the focused instance last paused at by a breakpoint, until the app takes
    /// it to select and frame it (as the preview does).
    hit: Option<String>,
}

impl Remote {
    /// Starts attaching to the server at `addr`; the instance list follows once connected.
    pub fn connect(addr: &str, token: Option<String>) -> Remote {
        Remote {
            addr: addr.to_owned(),
            link: Link::start(addr, token.filter(|t| !t.is_empty())),
            connection: Connection::Connecting,
            listed: Vec::new(),
            attached: BTreeMap::new(),
            focus: None,
            log: Vec::new(),
            hit: None,
        }
    }

    /// Reads what the server sent since the last call. Returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let events = self.link.poll();
        let changed = !events.is_empty();
        for event in events {
            self.apply(event);
        }
        changed
    }

    /// Folds one event in (public for tests and tools that drive the link themselves).
    pub fn apply(&mut self, event: LinkEvent) {
        match event {
            LinkEvent::Connected { server } => {
                self.connection = Connection::Connected { server };
                self.link.send(Request::List);
            }
            LinkEvent::Lost(why) => {
                self.note(why.clone());
                self.connection = Connection::Lost(why);
                self.unlist_all();
            }
            LinkEvent::Refused(why) => {
                self.note(why.clone());
                self.connection = Connection::Refused(why);
                self.unlist_all();
            }
            LinkEvent::Message(message) => self.message(message),
            LinkEvent::Unreadable(why) => self.note(format!("unreadable message: {why}")),
        }
    }

    fn message(&mut self, message: ServerMessage<'static>) {
        match message {
            ServerMessage::Instances { instances, .. } => self.relist(instances),
            ServerMessage::Tree { instance, file, .. } => {
                if let Some(view) = self.by_id(instance) {
                    view.file = Some(file.into_owned());
                }
            }
            ServerMessage::Tick(frame) => {
                if let Some(view) = self.by_id(frame.instance) {
                    view.tick(&frame);
                }
            }
            ServerMessage::Paused {
                instance,
                reason,
                node,
                tick,
            } => {
                let focused = self.focused().and_then(|(_, v)| v.id) == Some(instance);
                if focused && reason == PauseReason::Breakpoint {
                    self.hit = node.clone();
                }
                if let Some(view) = self.by_id(instance) {
                    view.tick = view.tick.max(tick);
                    view.paused = Some(Pause { reason, node });
                }
            }
            ServerMessage::Resumed { instance } => {
                if let Some(view) = self.by_id(instance) {
                    view.paused = None;
                }
            }
            ServerMessage::Dropped { instance, frames } => {
                if let Some(view) = self.by_id(instance) {
                    view.dropped += frames;
                }
            }
            ServerMessage::Error { code, message, .. } => self.note(format!("{message} ({code})")),
            ServerMessage::Ok { .. } | ServerMessage::Hello { .. } | ServerMessage::Welcome => {}
        }
    }

    /// A new list: attached instances that came back (a restarted program) are subscribed
    /// again, with their breakpoints.
    fn relist(&mut self, instances: Vec<InstanceEntry>) {
        for (name, view) in self.attached.iter_mut() {
            match instances.iter().find(|i| &i.name == name) {
                Some(info) => {
                    let new_run = view.id != Some(info.instance);
                    view.listed(info);
                    if new_run {
                        subscribe(&self.link, info.instance, view);
                    }
                }
                None => view.unlisted(),
            }
        }
        self.listed = instances;
    }

    fn unlist_all(&mut self) {
        self.listed.clear();
        for view in self.attached.values_mut() {
            view.unlisted();
        }
    }

    fn by_id(&mut self, id: u64) -> Option<&mut InstanceView> {
        self.attached.values_mut().find(|v| v.id == Some(id))
    }

    fn note(&mut self, line: String) {
        self.log.push(line);
        let excess = self.log.len().saturating_sub(LOG_LINES);
        self.log.drain(..excess);
    }

    /// Asks for the instance list again (tick counts, paused flags), when connected.
    pub fn refresh_list(&self) {
        if matches!(self.connection, Connection::Connected { .. }) {
            self.link.send(Request::List);
        }
    }

    /// Attaches to the listed instance `name` (it gets the focus if none has it).
    pub fn attach(&mut self, name: &str) {
        if self.attached.contains_key(name) {
            return;
        }
        let mut view = InstanceView::default();
        if let Some(info) = self.listed.iter().find(|i| i.name == name) {
            view.listed(info);
            subscribe(&self.link, info.instance, &view);
        }
        self.attached.insert(name.to_owned(), view);
        if self.focus.is_none() {
            self.focus = Some(name.to_owned());
        }
    }

    /// Stops watching one instance.
    pub fn detach_instance(&mut self, name: &str) {
        if let Some(view) = self.attached.remove(name) {
            if let Some(id) = view.id {
                for node in &view.breakpoints {
                    self.link.send(Request::Breakpoint {
                        instance: id,
                        node: node.clone(),
                        set: false,
                    });
                }
                self.link.send(Request::Unsubscribe {
                    instances: vec![id],
                });
            }
        }
        if self.focus.as_deref() == Some(name) {
            self.focus = self.attached.keys().next().cloned();
        }
    }

    /// The breakpoint node the focused instance paused at since the last call.
    pub fn take_hit(&mut self) -> Option<String> {
        self.hit.take()
    }

    pub fn focused(&self) -> Option<(&str, &InstanceView)> {
        let name = self.focus.as_deref()?;
        self.attached.get(name).map(|v| (name, v))
    }

    /// The tree GUID of the instance in focus.
    pub fn focused_tree(&self) -> Option<&str> {
        self.focused()?.1.tree.as_ref().map(|t| t.guid.as_str())
    }

    fn focused_id(&self) -> Option<u64> {
        self.focused()?.1.id
    }

    pub fn pause(&self) {
        if let Some(instance) = self.focused_id() {
            self.link.send(Request::Pause { instance });
        }
    }

    pub fn resume(&self) {
        if let Some(instance) = self.focused_id() {
            self.link.send(Request::Resume { instance });
        }
    }

    pub fn step(&self) {
        if let Some(instance) = self.focused_id() {
            self.link.send(Request::Step { instance });
        }
    }

    /// Sets or clears a breakpoint on the focused instance; kept by the editor so it is
    /// set again after a restart.
    pub fn toggle_breakpoint(&mut self, node: &str) {
        let Some(name) = self.focus.clone() else {
            return;
        };
        let Some(view) = self.attached.get_mut(&name) else {
            return;
        };
        let set = !view.breakpoints.remove(node);
        if set {
            view.breakpoints.insert(node.to_owned());
        }
        if let Some(instance) = view.id {
            self.link.send(Request::Breakpoint {
                instance,
                node: node.to_owned(),
                set,
            });
        }
    }

    /// Sets a blackboard value of the focused instance; the server answers with an error
    /// (shown in the log) when the key or the value's type is wrong.
    pub fn set_value(&self, key: &str, value: Value) {
        if let Some(instance) = self.focused_id() {
            self.link.send(Request::Set {
                instance,
                key: key.to_owned(),
                value,
            });
        }
    }
}

fn subscribe(link: &Link, instance: u64, view: &InstanceView) {
    link.send(Request::Subscribe {
        instances: vec![instance],
    });
    link.send(Request::Tree { instance });
    for node in &view.breakpoints {
        link.send(Request::Breakpoint {
            instance,
            node: node.clone(),
            set: true,
        });
    }
}

impl LiveSource for Remote {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        self.focused()?.1.node_live(guid)
    }

    fn has_breakpoint(&self, guid: &str) -> bool {
        self.focused()
            .is_some_and(|(_, v)| v.breakpoints.contains(guid))
    }
}
