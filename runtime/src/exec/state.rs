//! One agent's mutable state: a slot per node, the blackboard, events, triggers and RNG.

use crate::blackboard::Blackboard;

/// Per-node state. Which fields mean what depends on the node kind:
/// `cursor` is a composite's current child or a Repeat/Retry's count (per execution);
/// `persist` is a Scripted leaf's return cursor or a Limiter's start count (rules 6 and 19,
/// kept across executions). A timed node's deadline is not here but in `State::timers`:
/// only those nodes need a time, and without it a slot takes 12 bytes instead of 24.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub running: bool,
    /// Set by a Parallel parent on a child that succeeded in its current execution (rule 13).
    pub parallel_done: bool,
    pub cursor: u32,
    pub persist: u32,
}

/// When an event was last raised (rule 31). Runs are numbered from 1.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EventSlot {
    /// The run in which a host-raised event is visible.
    pub external: Option<u64>,
    /// The run in which a SendEvent leaf last sent it, and that leaf's pre-order index.
    pub sent: Option<(u64, u32)>,
}

/// One agent's whole mutable state (named by generated code, `codegen::support::State`;
/// its fields are the crate's).
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) nodes: Nodes,
    pub(crate) bb: Blackboard,
    pub(crate) host: Host,
}

/// What host actions reach through their context besides the blackboard, behind one
/// pointer (`ActionCtx::host`), so that building a tick's context takes one store for
/// both.
#[derive(Clone, Debug)]
pub(crate) struct Host {
    pub rng: crate::rng::Rng,
    /// Host state of the stateful host nodes, by the index in their `Kind::Host`.
    pub states: Vec<Box<dyn crate::host::HostState>>,
    /// The tree's node names and GUIDs, by pre-order index (`ActionCtx::name`).
    pub info: std::sync::Arc<[crate::tree::NodeInfo]>,
    /// The clock at the current (or last) root tick, and at the one before: their
    /// difference is `ActionCtx::dt`. Both 0 for a new agent.
    pub ticked_at: f64,
    pub ticked_before: f64,
    /// What the running path promised in the current (or last) root tick, for the
    /// agent's next wake (rules 82, 83, 98, 99): cleared as each root tick starts. Empty
    /// until a node first promises: an agent whose nodes never do keeps no buffer, and one
    /// whose nodes do allocates it once, on that tick.
    pub sleeps: Vec<Promise>,
}

/// One promise a node made in a root tick about its next ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Promise {
    /// Host action `node` needs no tick before the clock reaches `until`, unless an
    /// input changes (`ActionCtx::sleep_until`, rule 83).
    Until { node: u32, until: f64 },
    /// Host action `node` needs no tick until `key` is written, which had `updates`
    /// writes when it said so (`ActionCtx::sleep_until_written`, rule 99).
    Written {
        node: u32,
        key: crate::blackboard::Key,
        updates: u32,
    },
    /// Attached decorator `decorator` (its place among node `node`'s), a host condition
    /// that says what it observes, gave `passed` (before `invert`) with its inputs as
    /// `stamp` says (rule 98).
    Seen {
        node: u32,
        decorator: u32,
        passed: bool,
        stamp: crate::observes::Stamp,
    },
}

impl Host {
    /// Seconds between the agent's previous root tick (or its creation) and this one.
    pub fn dt(&self) -> f64 {
        self.ticked_at - self.ticked_before
    }

    /// Node `node`'s name and GUID, as in the tree file.
    pub fn label(&self, node: crate::trace::NodeId) -> (&str, &str) {
        self.info
            .get(node.index())
            .map_or(("", ""), |i| (i.name.as_str(), i.guid.as_str()))
    }
}

impl State {
    /// Starts a root tick: counts it and records when it runs, for `ActionCtx::dt`.
    #[inline(always)]
    pub(crate) fn begin_run(&mut self) {
        self.nodes.run += 1;
        self.host.ticked_before = self.host.ticked_at;
        self.host.ticked_at = self.bb.now();
        self.host.sleeps.clear();
    }
}

/// What ticking borrows of a [`State`] besides the blackboard, RNG and host states (which
/// the engine lends to host actions through its one `ActionCtx`): a disjoint borrow, so
/// both can be held for the whole tick.
#[derive(Clone, Debug)]
pub(crate) struct Nodes {
    pub slots: Vec<Slot>,
    pub events: Vec<EventSlot>,
    pub triggers: Vec<bool>,
    /// Deadlines of the timed nodes, by `Duration::timer`.
    pub timers: Vec<f64>,
    /// Root ticks started so far; the current one while ticking.
    pub run: u64,
    /// A yielding node (rules 49, 50, 63) ended a run this root tick; read and cleared by
    /// [`crate::TickMode::RetickAfterYield`] (rule 85).
    pub woken: bool,
}

impl Nodes {
    /// Rule 31: an external event is visible during the run it was raised for; a sent event
    /// during the rest of its run, and in the next run to nodes at or before its sender in
    /// pre-order.
    pub fn event_visible(&self, event: u32, checker: u32) -> bool {
        let slot = &self.events[event as usize];
        if slot.external == Some(self.run) {
            return true;
        }
        match slot.sent {
            Some((run, _)) if run == self.run => true,
            Some((run, sender)) => run + 1 == self.run && checker <= sender,
            None => false,
        }
    }
}
