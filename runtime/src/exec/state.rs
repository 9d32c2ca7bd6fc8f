//! One agent's mutable state: a slot per node, the blackboard, events, triggers and RNG.

use crate::blackboard::Blackboard;

/// Per-node state. Which fields mean what depends on the node kind:
/// `cursor` is a composite's current child or a Repeat/Retry's count (per execution);
/// `persist` is a Scripted leaf's return cursor or a Limiter's start count (rules 6 and 19,
/// kept across executions); `start` is when a Wait/Timeout entered.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub running: bool,
    /// Set by a Parallel parent on a child that succeeded in its current execution (rule 13).
    pub parallel_done: bool,
    pub cursor: u32,
    pub persist: u32,
    pub start: f64,
}

/// When an event was last raised (rule 31). Runs are numbered from 1.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EventSlot {
    /// The run in which a host-raised event is visible.
    pub external: Option<u64>,
    /// The run in which a SendEvent leaf last sent it, and that leaf's pre-order index.
    pub sent: Option<(u64, u32)>,
}

#[derive(Clone, Debug)]
pub(crate) struct State {
    pub slots: Vec<Slot>,
    pub bb: Blackboard,
    pub events: Vec<EventSlot>,
    pub triggers: Vec<bool>,
    pub rng: crate::rng::Rng,
    /// Host state of the stateful host nodes, by the index in their `Kind::Host`.
    pub host: Vec<Box<dyn crate::host::HostState>>,
    /// Root ticks started so far; the current one while ticking.
    pub run: u64,
}

impl State {
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
