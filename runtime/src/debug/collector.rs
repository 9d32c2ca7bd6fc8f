//! TickCollector: the observer a watched tick runs with. It keeps each visited node's last
//! status in the tick, in visiting order, and notes the first breakpoint node entered.
//! Its buffers are reused, so a watched tick allocates only the frame it sends.

use super::protocol::NodeStatus;
use crate::trace::{Observer, TraceEvent};

/// "Visited, no status yet" (entered, body not run).
const SEEN: u8 = 1;

#[derive(Default)]
pub(crate) struct TickCollector {
    /// Per node: 0 unvisited, `SEEN`, or `2 + NodeStatus as u8`.
    marks: Vec<u8>,
    visited: Vec<u32>,
    /// Per node: has a breakpoint.
    breakpoints: Vec<bool>,
    pub hit: Option<u32>,
}

fn encode(status: NodeStatus) -> u8 {
    2 + match status {
        NodeStatus::Success => 0,
        NodeStatus::Failure => 1,
        NodeStatus::Running => 2,
        NodeStatus::Aborted => 3,
    }
}

fn decode(mark: u8) -> Option<NodeStatus> {
    match mark {
        2 => Some(NodeStatus::Success),
        3 => Some(NodeStatus::Failure),
        4 => Some(NodeStatus::Running),
        5 => Some(NodeStatus::Aborted),
        _ => None,
    }
}

impl TickCollector {
    /// Sizes the buffers for a tree of `nodes` nodes and clears the breakpoints.
    pub fn resize(&mut self, nodes: usize) {
        self.marks = vec![0; nodes];
        self.visited.clear();
        self.breakpoints = vec![false; nodes];
        self.hit = None;
    }

    pub fn set_breakpoints(&mut self, nodes: impl IntoIterator<Item = u32>) {
        self.breakpoints.iter_mut().for_each(|b| *b = false);
        for node in nodes {
            if let Some(b) = self.breakpoints.get_mut(node as usize) {
                *b = true;
            }
        }
    }

    /// Takes the tick's nodes in visiting order and gets ready for the next tick (`hit` is
    /// left for the caller to take).
    pub fn take_nodes(&mut self) -> Vec<(u32, NodeStatus)> {
        let mut nodes = Vec::with_capacity(self.visited.len());
        for &node in &self.visited {
            if let Some(mark) = self.marks.get_mut(node as usize) {
                if let Some(status) = decode(*mark) {
                    nodes.push((node, status));
                }
                *mark = 0;
            }
        }
        self.visited.clear();
        nodes
    }

    fn mark(&mut self, node: u32, mark: u8) {
        // A node index beyond the registered tree (the host reloaded the agent onto a
        // bigger tree) is ignored rather than trusted.
        if let Some(slot) = self.marks.get_mut(node as usize) {
            if *slot == 0 {
                self.visited.push(node);
            }
            if mark != SEEN || *slot == 0 {
                *slot = mark;
            }
        }
    }
}

impl Observer for TickCollector {
    fn event(&mut self, event: TraceEvent<'_>) {
        match event {
            TraceEvent::Enter(n) => {
                let node = n.index() as u32;
                if self.hit.is_none() && self.breakpoints.get(n.index()) == Some(&true) {
                    self.hit = Some(node);
                }
                self.mark(node, SEEN);
            }
            TraceEvent::Tick(n, status) => self.mark(n.index() as u32, encode(status.into())),
            // Exit carries what the parent receives, after post-decorators.
            TraceEvent::Exit(n, Some(status)) => self.mark(n.index() as u32, encode(status.into())),
            TraceEvent::Exit(n, None) | TraceEvent::Abort(n) => {
                self.mark(n.index() as u32, encode(NodeStatus::Aborted))
            }
            TraceEvent::Check { .. } | TraceEvent::Log { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;
    use crate::trace::NodeId;

    #[test]
    fn keeps_the_last_status_in_visiting_order() {
        let mut c = TickCollector::default();
        c.resize(4);
        c.set_breakpoints([2]);
        let n = NodeId::from_index;
        c.event(TraceEvent::Enter(n(0)));
        c.event(TraceEvent::Enter(n(2)));
        c.event(TraceEvent::Tick(n(2), Status::Running));
        c.event(TraceEvent::Abort(n(1)));
        c.event(TraceEvent::Exit(n(1), None));
        c.event(TraceEvent::Tick(n(0), Status::Running));
        c.event(TraceEvent::Enter(n(9)));
        assert_eq!(c.hit.take(), Some(2));
        assert_eq!(
            c.take_nodes(),
            [
                (0, NodeStatus::Running),
                (2, NodeStatus::Running),
                (1, NodeStatus::Aborted)
            ]
        );
        assert!(c.take_nodes().is_empty());
    }
}
