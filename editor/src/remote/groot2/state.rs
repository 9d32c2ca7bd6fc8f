//! [`Groot2`]: the editor attached to a BT.CPP program, UI-free: the program's tree
//! (imported), each node's last status, the blackboards, the breakpoints and forced
//! results the user set, and where the program waits. The canvas reads it through
//! [`LiveSource`] exactly as it reads an Arbor program.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use arbor_runtime::btcpp::{MonitoredTree, NodeState};
use arbor_runtime::Status;
use serde_json::Value;

use super::client::{Client, Command, Event};
use super::protocol::{ProgramHook, ROOT};
use super::Address;
use crate::live::{LiveSource, NodeLive};
use crate::remote::Connection;

/// Lines of the connection log kept for the panel.
const LOG_LINES: usize = 50;

/// What the user set on a node through the program's hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeHook {
    /// Wait before the node's tick until told to go on.
    Breakpoint,
    /// Return this instead of ticking the node.
    Force(Status),
}

/// See the module documentation.
pub struct Groot2 {
    pub address: Address,
    client: Client,
    pub connection: Connection,
    /// The program's tree, imported; replaced when a restarted program reports another.
    pub tree: Option<MonitoredTree>,
    /// The XML it was imported from, to tell a restart with the same tree from a new one.
    xml: Option<String>,
    /// Counts tree replacements, so the app knows to show the new one.
    pub generation: u64,
    /// GUID -> UID, the reverse of `tree.nodes`.
    uids: HashMap<String, u16>,
    /// Each node's state and when it took it.
    states: HashMap<u16, (NodeState, Instant)>,
    /// The blackboards by name (`Main`, `Deliver::7`), each key to its value.
    pub blackboards: BTreeMap<String, Value>,
    /// By UID: kept across restarts of the same tree and set again on reconnection.
    pub hooks: BTreeMap<u16, NodeHook>,
    /// Hooks the user disabled (all at once): kept to enable them again.
    pub disabled: BTreeMap<u16, NodeHook>,
    /// The node waiting at its breakpoint.
    pub waiting: Option<u16>,
    /// The one-shot hooks of a step in progress (removed once one of them fires).
    stepping: Vec<u16>,
    /// The breakpoint node reached since the app last asked (to select and frame it).
    hit: Option<String>,
    pub log: Vec<String>,
}

impl Groot2 {
    pub fn connect(address: Address) -> Groot2 {
        let client = Client::start(&address.host, address.port);
        let mut this = Groot2 {
            client,
            connection: Connection::Connecting,
            tree: None,
            xml: None,
            generation: 0,
            uids: HashMap::new(),
            states: HashMap::new(),
            blackboards: BTreeMap::new(),
            hooks: BTreeMap::new(),
            disabled: BTreeMap::new(),
            waiting: None,
            stepping: Vec::new(),
            hit: None,
            log: Vec::new(),
            address,
        };
        if !this.address.is_loopback() {
            this.note(format!(
                "{} is not this machine: the protocol is unencrypted and unauthenticated",
                this.address
            ));
        }
        this
    }

    /// Reads what the program sent since the last call. Returns whether anything changed.
    pub fn poll(&mut self) -> bool {
        let events = self.client.poll();
        let changed = !events.is_empty();
        for event in events {
            self.apply(event);
        }
        changed
    }

    fn apply(&mut self, event: Event) {
        match event {
            Event::Connected {
                program,
                xml,
                hooks,
            } => self.connected(program, xml, hooks),
            Event::Statuses(statuses) => {
                let now = Instant::now();
                for (uid, state) in statuses {
                    let entry = self.states.entry(uid).or_insert((state, now));
                    if entry.0 != state {
                        *entry = (state, now);
                    }
                }
            }
            Event::Blackboards(Value::Object(map)) => self.blackboards = map.into_iter().collect(),
            Event::Blackboards(_) => self.blackboards.clear(),
            Event::Breakpoint(uid) => {
                // A step is over: its other one-shot hooks go (not this one, which holds
                // the program until Continue, and BT.CPP removes once it is let go).
                for other in std::mem::take(&mut self.stepping) {
                    if other != uid {
                        self.client.send(Command::Unhook(other));
                    }
                }
                self.waiting = Some(uid);
                self.hit = self.guid(uid).map(str::to_owned);
            }
            Event::Lost(why) => {
                self.note(why.clone());
                self.connection = Connection::Lost(why);
                self.waiting = None;
            }
            Event::Problem(why) => self.note(why),
        }
    }

    fn connected(&mut self, program: [u8; 16], xml: String, found: Option<Vec<ProgramHook>>) {
        let id: String = program[..4].iter().map(|b| format!("{b:02x}")).collect();
        self.connection = Connection::Connected {
            server: format!("BT.CPP program {id}…"),
        };
        self.states.clear();
        self.waiting = None;
        self.stepping.clear();
        if self.xml.as_deref() != Some(xml.as_str()) {
            match MonitoredTree::import(&xml, "program", &format!("the tree of {}", self.address)) {
                Ok(tree) => {
                    if self.tree.is_some() {
                        self.note(
                            "the program now runs another tree; its hooks were cleared".into(),
                        );
                        self.hooks.clear();
                        self.disabled.clear();
                    }
                    self.uids = tree.nodes.iter().map(|(u, g)| (g.clone(), *u)).collect();
                    self.tree = Some(tree);
                    self.generation += 1;
                }
                Err(e) => {
                    self.note(format!("cannot import the program's tree: {e}"));
                    self.tree = None;
                    self.uids.clear();
                }
            }
            self.xml = Some(xml);
        }
        if let Some(tree) = &self.tree {
            self.client
                .send(Command::Blackboards(tree.blackboard_request()));
        }
        if let Some(found) = found {
            self.adopt(found);
        }
        for (uid, hook) in &self.hooks {
            self.client.send(command(*uid, Some(*hook)));
        }
    }

    /// Takes over the hooks the program already holds (set by Groot2, or by an earlier
    /// attachment that went away), so that the canvas shows them and the user can remove
    /// them; the editor's own hooks win where both set one. A step's one-shot hooks are
    /// removed: the step they belonged to is over.
    fn adopt(&mut self, found: Vec<ProgramHook>) {
        let mut adopted = 0;
        for hook in found {
            if hook.after_tick {
                continue; // not a kind the editor sets or shows; left as it is
            }
            if hook.once {
                self.client.send(Command::Unhook(hook.uid));
                continue;
            }
            if self.hooks.contains_key(&hook.uid) || self.disabled.contains_key(&hook.uid) {
                continue;
            }
            let kind = match hook.replace {
                None => NodeHook::Breakpoint,
                Some(Status::Running) => continue, // a forced "tick as usual": no hook at all
                Some(result) => NodeHook::Force(result),
            };
            if hook.enabled {
                self.hooks.insert(hook.uid, kind);
            } else {
                self.disabled.insert(hook.uid, kind);
            }
            adopted += 1;
        }
        if adopted > 0 {
            self.note(format!(
                "the program already held {adopted} hook(s) (set by Groot2 or an earlier attachment): shown as yours"
            ));
        }
    }

    /// The root blackboard BT.CPP 4.10 reports beside the trees' own (the one the program
    /// passed to its trees), if any.
    pub fn root_blackboard(&self) -> Option<&Value> {
        self.blackboards.get(ROOT)
    }

    /// Every hook the program may hold for this editor.
    fn known_hooks(&self) -> Vec<u16> {
        let mut uids: Vec<u16> = self
            .hooks
            .keys()
            .chain(self.disabled.keys())
            .chain(&self.stepping)
            .copied()
            .collect();
        uids.sort_unstable();
        uids.dedup();
        uids
    }

    /// Removes every hook, the program's included (the breakpoints panel's "remove all");
    /// a node held at a breakpoint goes on.
    pub fn remove_all_hooks(&mut self) {
        let known = self.known_hooks();
        self.client.send(Command::RemoveAllHooks { known });
        self.hooks.clear();
        self.disabled.clear();
        self.stepping.clear();
        self.waiting = None;
    }

    /// Disables every hook, keeping them to enable again; a node held at a breakpoint
    /// goes on.
    pub fn disable_all_hooks(&mut self) {
        let known = self.known_hooks();
        self.client.send(Command::DisableAllHooks { known });
        let hooks = std::mem::take(&mut self.hooks);
        self.disabled.extend(hooks);
        self.stepping.clear();
        self.waiting = None;
    }

    /// Sets every disabled hook again.
    pub fn enable_all_hooks(&mut self) {
        for (uid, hook) in std::mem::take(&mut self.disabled) {
            self.hooks.insert(uid, hook);
            self.client.send(command(uid, Some(hook)));
        }
    }

    fn note(&mut self, line: String) {
        self.log.push(line);
        let excess = self.log.len().saturating_sub(LOG_LINES);
        self.log.drain(..excess);
    }

    pub fn guid(&self, uid: u16) -> Option<&str> {
        self.tree.as_ref()?.guid(uid)
    }

    pub fn uid(&self, guid: &str) -> Option<u16> {
        self.uids.get(guid).copied()
    }

    /// The current state of a node, by UID.
    pub fn state(&self, uid: u16) -> Option<NodeState> {
        self.states.get(&uid).map(|(s, _)| *s)
    }

    /// Whether `guid` is the root of one of the program's trees (a document showing it
    /// is drawn with the program's statuses).
    pub fn shows(&self, tree_guid: &str) -> bool {
        self.tree
            .as_ref()
            .is_some_and(|t| t.imported.files.iter().any(|f| f.tree.guid == tree_guid))
    }

    /// The breakpoint node reached since the last call.
    pub fn take_hit(&mut self) -> Option<String> {
        self.hit.take()
    }

    /// Sets or clears a breakpoint (F9). A node has one hook: a breakpoint replaces a
    /// forced result.
    pub fn toggle_breakpoint(&mut self, guid: &str) {
        let Some(uid) = self.uid(guid) else {
            return;
        };
        let hook = match self.hooks.get(&uid) {
            Some(NodeHook::Breakpoint) => None,
            _ => Some(NodeHook::Breakpoint),
        };
        self.set_hook(uid, hook);
    }

    /// Makes the node return `result` instead of running (`None`: run it again).
    pub fn force(&mut self, guid: &str, result: Option<Status>) {
        if let Some(uid) = self.uid(guid) {
            self.set_hook(uid, result.map(NodeHook::Force));
        }
    }

    fn set_hook(&mut self, uid: u16, hook: Option<NodeHook>) {
        self.disabled.remove(&uid);
        match hook {
            Some(h) => self.hooks.insert(uid, h),
            None => self.hooks.remove(&uid),
        };
        if self.waiting == Some(uid) && hook != Some(NodeHook::Breakpoint) {
            // Removing or replacing the hook wakes the program itself.
            self.waiting = None;
        }
        self.client.send(command(uid, hook));
    }

    /// F10 at a breakpoint: lets the waiting node go on and stops before the next node
    /// ticked, whichever it is, through a one-shot breakpoint on every node that has no
    /// hook of the user's. Does nothing unless the program waits.
    pub fn step(&mut self) {
        if self.waiting.is_none() {
            return;
        }
        let Some(tree) = &self.tree else {
            return;
        };
        let mut uids: Vec<u16> = tree
            .nodes
            .keys()
            .copied()
            .filter(|u| !self.hooks.contains_key(u))
            .collect();
        uids.sort_unstable();
        self.client.send(Command::StepHooks(uids.clone()));
        self.stepping = uids;
        self.resume(None);
    }

    /// Lets the waiting node go on (F5): ticked as usual, or with a forced result.
    pub fn resume(&mut self, result: Option<Status>) {
        if let Some(uid) = self.waiting.take() {
            self.client.send(Command::Unlock { uid, result });
        }
    }
}

impl Drop for Groot2 {
    /// Detaching leaves nothing behind: every hook goes, disabled and step hooks too,
    /// and a node held at a breakpoint goes on (even before the publisher's heartbeat
    /// would give up on the editor).
    fn drop(&mut self) {
        if matches!(self.connection, Connection::Connected { .. }) {
            let known = self.known_hooks();
            self.client.send(Command::RemoveAllHooks { known });
        }
    }
}

fn command(uid: u16, hook: Option<NodeHook>) -> Command {
    match hook {
        None => Command::Unhook(uid),
        Some(NodeHook::Breakpoint) => Command::Hook { uid, replace: None },
        Some(NodeHook::Force(s)) => Command::Hook {
            uid,
            replace: Some(s),
        },
    }
}

impl LiveSource for Groot2 {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let (state, since) = self.states.get(&self.uid(guid)?)?;
        Some(NodeLive {
            status: Some(state.status()?),
            age: since.elapsed().as_secs_f32(),
            // The protocol reports states, not ticks: a node in the current tick's path
            // is 0 ticks ago, one remembered from an earlier tick at least 1.
            ticks_ago: u64::from(!state.is_current()),
            ..NodeLive::default()
        })
    }

    fn has_breakpoint(&self, guid: &str) -> bool {
        self.uid(guid)
            .is_some_and(|u| self.hooks.get(&u) == Some(&NodeHook::Breakpoint))
    }
}
