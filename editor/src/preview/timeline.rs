//! Timeline: the last ticks the preview ran, kept so a slider can scrub back and show the
//! statuses of an earlier tick on the canvas.
//!
//! Each [`TickRecord`] holds only the visited nodes' outcomes and the condition results
//! (a few dozen bytes per visited node) plus a shared pointer to the node map of the tree
//! it ran, so records stay meaningful across hot reloads.
//!
//! Beside each record, the simulation's [`Checkpoint`] after that tick (the agent's
//! snapshot and a copy of the world, whose log lines are shared, not copied): scrubbing
//! puts it back, so the blackboard and the world show that tick too. Both rings hold at
//! most `capacity` ticks, so memory is bounded by the capacity times one agent's state
//! and one world.
//!
//! Limitations: the state shown for a scrubbed tick is folded from the oldest kept record
//! up to it, so a node last visited before the window shows as not visited.

use std::collections::VecDeque;

use arbor_samples::Checkpoint;

use super::live::{LiveState, TickRecord};
use crate::live::NodeLive;

/// How many ticks are kept by default.
pub const DEFAULT_CAPACITY: usize = 600;

/// The recorded ticks and where the slider is.
#[derive(Debug)]
pub struct Timeline {
    records: VecDeque<TickRecord>,
    /// The state after each record's tick, where the simulation can give one.
    checkpoints: VecDeque<Option<Checkpoint>>,
    capacity: usize,
    scrub: Option<Scrub>,
}

/// A tick being looked at, with the statuses as they were then.
#[derive(Debug)]
struct Scrub {
    seq: u64,
    clock: f64,
    state: LiveState,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline::new(DEFAULT_CAPACITY)
    }
}

impl Timeline {
    /// A timeline keeping the last `capacity` ticks (at least one).
    pub fn new(capacity: usize) -> Timeline {
        Timeline {
            records: VecDeque::new(),
            checkpoints: VecDeque::new(),
            capacity: capacity.max(1),
            scrub: None,
        }
    }

    /// Records a tick and the state after it.
    pub fn push(&mut self, record: TickRecord, checkpoint: Option<Checkpoint>) {
        if self.records.len() == self.capacity {
            self.records.pop_front();
            self.checkpoints.pop_front();
        }
        self.records.push_back(record);
        self.checkpoints.push_back(checkpoint);
    }

    /// The state after tick `seq`, if kept.
    pub fn checkpoint(&self, seq: u64) -> Option<&Checkpoint> {
        let first = self.records.front()?.seq;
        let at = usize::try_from(seq.checked_sub(first)?).ok()?;
        self.checkpoints.get(at)?.as_ref()
    }

    pub fn clear(&mut self) {
        self.records.clear();
        self.checkpoints.clear();
        self.scrub = None;
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The oldest and newest kept tick numbers.
    pub fn range(&self) -> Option<(u64, u64)> {
        Some((self.records.front()?.seq, self.records.back()?.seq))
    }

    pub fn get(&self, seq: u64) -> Option<&TickRecord> {
        let first = self.records.front()?.seq;
        let record = self
            .records
            .get(usize::try_from(seq.checked_sub(first)?).ok()?)?;
        // Ticks are numbered consecutively, but check rather than trust it.
        (record.seq == seq).then_some(record)
    }

    pub fn last(&self) -> Option<&TickRecord> {
        self.records.back()
    }

    /// Shows tick `seq` (clamped to the kept range) instead of the present.
    pub fn scrub_to(&mut self, seq: u64) {
        let Some((first, last)) = self.range() else {
            return;
        };
        let seq = seq.clamp(first, last);
        if self.scrub.as_ref().is_some_and(|s| s.seq == seq) {
            return;
        }
        let mut state = LiveState::default();
        let mut clock = 0.0;
        for record in self.records.iter().take_while(|r| r.seq <= seq) {
            state.apply(record);
            clock = record.clock;
        }
        self.scrub = Some(Scrub { seq, clock, state });
    }

    /// Back to the present.
    pub fn go_live(&mut self) {
        self.scrub = None;
    }

    /// The tick being looked at, if scrubbed back.
    pub fn scrubbed(&self) -> Option<u64> {
        self.scrub.as_ref().map(|s| s.seq)
    }

    /// A node's statuses as of the scrubbed tick; `None` when live or not visited.
    pub fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let scrub = self.scrub.as_ref()?;
        scrub.state.node_live(guid, scrub.clock, scrub.seq)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Arc;

    use arbor_runtime::{Agent, Status};

    use super::*;
    use crate::preview::live::tests::{guid, small_tree};
    use crate::preview::live::{NodeMap, TickRecorder};

    #[test]
    fn keeps_the_last_ticks_and_scrubs_back() {
        // Sequence[Scripted success, Scripted running]: the second leaf runs forever.
        let tree = Arc::new(small_tree());
        let map = Arc::new(NodeMap::new(&*tree));
        let mut agent = Agent::new(tree, 1);
        let mut timeline = Timeline::new(3);
        let none = HashSet::new();
        for seq in 1..=5 {
            let mut rec = TickRecorder::new(&map, &none);
            let root = agent.tick_traced(&mut (), 1.0, &mut rec);
            let record = rec.finish(seq, seq as f64, agent.now(), root, map.clone());
            timeline.push(record, None);
        }
        assert_eq!(timeline.len(), 3);
        assert_eq!(timeline.range(), Some((3, 5)));
        assert!(timeline.get(2).is_none());
        assert_eq!(timeline.get(4).map(|r| r.root), Some(Status::Running));
        assert!(
            timeline.node_live(&guid(3)).is_none(),
            "live: nothing scrubbed"
        );

        timeline.scrub_to(1);
        assert_eq!(timeline.scrubbed(), Some(3), "clamped to the oldest kept");
        // The first leaf completed in tick 1 and is skipped afterwards (rule 10): within
        // the window it was never visited.
        assert!(timeline.node_live(&guid(2)).is_none());
        let running = timeline.node_live(&guid(3)).expect("visited in tick 3");
        assert_eq!(running.status, Some(Status::Running));
        assert_eq!((running.age, running.ticks_ago), (0.0, 0));

        timeline.scrub_to(5);
        let running = timeline.node_live(&guid(3)).expect("visited in tick 5");
        assert_eq!(running.ticks_ago, 0);
        timeline.go_live();
        assert_eq!(timeline.scrubbed(), None);
        timeline.clear();
        assert!(timeline.is_empty());
    }
}
