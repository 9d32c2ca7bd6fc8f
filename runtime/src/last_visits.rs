//! [`LastVisits`]: the trace observer a live view needs (the editor's preview, a
//! debugger): how each node's latest visit in the current tick stands. It is meant to
//! cost little next to the tick it watches (docs/performance.md, "Tracing overhead"): an
//! event is one bounds check and one store, and starting a tick is one increment, so there
//! is nothing to clear. Nodes are stamped with the tick they were last visited in, so
//! reading "visited this tick" compares stamps.

use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};

/// How a node's latest visit in a tick stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Entered, or ticked and still running.
    Running,
    /// Ticked and succeeded.
    Success,
    /// Ticked and failed.
    Failure,
    /// Aborted (rule 28), and not ticked again in the tick.
    Aborted,
}

impl Visit {
    /// The visit a tick status records.
    pub fn from_status(status: Status) -> Visit {
        match status {
            Status::Running => Visit::Running,
            Status::Success => Visit::Success,
            Status::Failure => Visit::Failure,
        }
    }
}

/// See the module documentation. Size it with the tree's node count
/// ([`crate::CompiledTree::len`]); events for nodes beyond it are ignored.
#[derive(Clone, Debug, Default)]
pub struct LastVisits {
    /// Per node: the stamp of the tick it was last visited in, and how that visit stands.
    last: Vec<(u32, Visit)>,
    /// The current tick's stamp; 0 is never a tick's, so fresh entries read "not visited".
    stamp: u32,
}

impl LastVisits {
    /// Room for a tree of `nodes` nodes ([`crate::CompiledTree::len`]).
    pub fn new(nodes: usize) -> LastVisits {
        LastVisits {
            last: vec![(0, Visit::Running); nodes],
            stamp: 1,
        }
    }

    /// Starts a new tick: the visits recorded so far are no longer this tick's.
    pub fn next_tick(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Four billion ticks later: forget every stamp rather than misread old ones.
            self.last.iter_mut().for_each(|e| e.0 = 0);
            self.stamp = 1;
        }
    }

    /// Resizes for another tree (a hot reload) and forgets every visit.
    pub fn reset(&mut self, nodes: usize) {
        *self = LastVisits::new(nodes);
    }

    /// The node's visit in the current tick, if it was visited.
    pub fn get(&self, node: NodeId) -> Option<Visit> {
        match self.last.get(node.index()) {
            Some(&(stamp, visit)) if stamp == self.stamp => Some(visit),
            _ => None,
        }
    }

    /// Records a visit by hand (an observer wrapping this one may know more, such as a
    /// failed condition before the node entered).
    #[inline(always)]
    pub fn record(&mut self, node: NodeId, visit: Visit) {
        if let Some(entry) = self.last.get_mut(node.index()) {
            *entry = (self.stamp, visit);
        }
    }

    /// The nodes visited in the current tick, in node (pre-)order.
    pub fn visited(&self) -> impl Iterator<Item = (NodeId, Visit)> + '_ {
        self.last
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.0 == self.stamp)
            .map(|(i, e)| (NodeId::from_index(i), e.1))
    }
}

impl Observer for LastVisits {
    // Inlined into the engine's call sites, where the event kind is known: most of the
    // match then folds away (docs/performance.md, "Tracing overhead").
    #[inline(always)]
    fn event(&mut self, event: TraceEvent<'_>) {
        match event {
            TraceEvent::Enter(n) => self.record(n, Visit::Running),
            TraceEvent::Tick(n, s) | TraceEvent::Exit(n, Some(s)) => {
                self.record(n, Visit::from_status(s))
            }
            TraceEvent::Exit(n, None) | TraceEvent::Abort(n) => self.record(n, Visit::Aborted),
            TraceEvent::Check { .. } | TraceEvent::Log { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_each_nodes_latest_visit_of_the_current_tick_only() {
        let mut v = LastVisits::new(3);
        let (a, b) = (NodeId::from_index(0), NodeId::from_index(1));
        v.event(TraceEvent::Enter(a));
        v.event(TraceEvent::Tick(a, Status::Running));
        v.event(TraceEvent::Enter(b));
        v.event(TraceEvent::Exit(b, Some(Status::Failure)));
        v.event(TraceEvent::Abort(a));
        v.event(TraceEvent::Exit(a, None));
        assert_eq!(v.get(a), Some(Visit::Aborted));
        assert_eq!(v.get(b), Some(Visit::Failure));
        assert_eq!(v.get(NodeId::from_index(2)), None);
        assert_eq!(v.visited().count(), 2);
        v.next_tick();
        assert_eq!(v.get(a), None, "last tick's visits are not this tick's");
        v.event(TraceEvent::Tick(b, Status::Success));
        assert_eq!(v.visited().collect::<Vec<_>>(), [(b, Visit::Success)]);
        // A node id beyond the tree (a stale id) is ignored, not a panic.
        v.event(TraceEvent::Enter(NodeId::from_index(99)));
    }

    #[test]
    fn the_stamp_wrapping_around_forgets_old_visits() {
        let mut v = LastVisits::new(1);
        let a = NodeId::from_index(0);
        v.stamp = u32::MAX;
        v.record(a, Visit::Success);
        v.next_tick();
        assert_eq!(v.get(a), None);
        assert_eq!(v.stamp, 1);
    }
}
