//! Replaying what a tree did, from a file: a log written by BT.CPP's file logger
//! (`.btlog`, FileLogger2) or a trace Arbor recorded (`arbor run --trace`, one JSON line
//! per tick). Scrub and step through it, transition by transition, with each node's status
//! drawn on the canvas through [`LiveSource`] as a running program's is.
//!
//! # Brief overview
//! - [`Replay`] (this file): the steps (one node changing state), the position shown and
//!   the states after it; UI-free. Scrubbing folds the steps from the nearest snapshot
//!   (one every [`SNAPSHOT_EVERY`] steps), so a jump anywhere in a long log is cheap.
//! - trace.rs: Arbor's trace lines read into steps, bounded, with located errors.
//! - panel.rs: the Replay panel (slider, step buttons, the step shown).
//!
//! A `.btlog` carries its tree: it is imported (`arbor_runtime::btcpp::MonitoredTree`,
//! UIDs mapped to GUIDs) and shown read-only. An Arbor trace names nodes by GUID and
//! carries no tree: it replays on the open document whose nodes it names.

mod panel;
mod trace;

use std::collections::HashMap;

use arbor_runtime::btcpp::{BtLog, ImportError, MonitoredTree, NodeState};

use crate::live::{LiveSource, NodeLive};

pub use panel::{ReplayAction, ReplayPanel};
pub use trace::{read_trace, TraceError, MAX_TRACE_BYTES};

/// Steps between two kept snapshots of every node's state.
pub const SNAPSHOT_EVERY: usize = 1024;

/// One node changing state.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Seconds since the recording started (BT.CPP), or the tick number (Arbor: its
    /// trace has no clock).
    pub at: f64,
    /// The node's GUID.
    pub node: String,
    pub state: NodeState,
}

/// Each node's state and the step that set it.
type States = HashMap<String, (NodeState, usize)>;

/// See the module documentation.
pub struct Replay {
    /// What is replayed, for titles and messages.
    pub title: String,
    /// The tree a `.btlog` embeds, imported; `None` for an Arbor trace.
    pub tree: Option<MonitoredTree>,
    steps: Vec<Step>,
    /// Steps whose node the tree does not have (BT.CPP UIDs not in the embedded XML).
    pub unknown: usize,
    /// Whether `at` counts ticks (an Arbor trace) rather than seconds.
    pub in_ticks: bool,
    snapshots: Vec<States>,
    position: usize,
    states: States,
}

impl Replay {
    /// A BT.CPP log: its embedded tree is imported and its UIDs mapped to the GUIDs.
    pub fn from_btlog(title: &str, log: BtLog) -> Result<Replay, ImportError> {
        let tree = MonitoredTree::import(&log.xml, "log", &format!("the tree in {title}"))?;
        let mut unknown = 0;
        let steps = log
            .transitions
            .iter()
            .filter_map(|t| match tree.guid(t.uid) {
                Some(guid) => Some(Step {
                    at: t.micros as f64 / 1e6,
                    node: guid.to_owned(),
                    state: t.state,
                }),
                None => {
                    unknown += 1;
                    None
                }
            })
            .collect();
        let mut replay = Replay::new(title, steps, false);
        replay.tree = Some(tree);
        replay.unknown = unknown;
        Ok(replay)
    }

    /// Steps already read (an Arbor trace: [`read_trace`]).
    pub fn new(title: &str, steps: Vec<Step>, in_ticks: bool) -> Replay {
        let mut snapshots = vec![States::new()];
        let mut states = States::new();
        for (i, step) in steps.iter().enumerate() {
            apply(&mut states, step, i);
            if (i + 1) % SNAPSHOT_EVERY == 0 {
                snapshots.push(states.clone());
            }
        }
        let mut replay = Replay {
            title: title.to_owned(),
            tree: None,
            steps,
            unknown: 0,
            in_ticks,
            snapshots,
            position: 0,
            states: States::new(),
        };
        replay.seek(0);
        replay
    }

    /// How many steps there are.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The step shown: the states are those after it.
    pub fn position(&self) -> usize {
        self.position
    }

    pub fn step_at(&self, i: usize) -> Option<&Step> {
        self.steps.get(i)
    }

    /// Every node the replay names.
    pub fn nodes(&self) -> impl Iterator<Item = &str> {
        self.steps.iter().map(|s| s.node.as_str())
    }

    /// Shows the states after step `i` (clamped to the replay).
    pub fn seek(&mut self, i: usize) {
        let i = i.min(self.len().saturating_sub(1));
        let base = (i + 1) / SNAPSHOT_EVERY;
        let mut states = self.snapshots.get(base).cloned().unwrap_or_default();
        for k in base * SNAPSHOT_EVERY..(i + 1).min(self.len()) {
            apply(&mut states, &self.steps[k], k);
        }
        self.states = states;
        self.position = i;
    }

    /// Moves `delta` steps forward (or back).
    pub fn step(&mut self, delta: i64) {
        let to = (self.position as i64).saturating_add(delta).max(0);
        self.seek(usize::try_from(to).unwrap_or(0));
    }

    /// The node's state at the position shown.
    pub fn state(&self, guid: &str) -> Option<NodeState> {
        self.states.get(guid).map(|(s, _)| *s)
    }

    /// A node's name from the log's own tree (any of its trees), for nodes of subtree
    /// instances that the document shown does not hold.
    pub fn node_name(&self, guid: &str) -> Option<String> {
        self.tree
            .as_ref()?
            .imported
            .files
            .iter()
            .flat_map(|f| f.tree.nodes.iter())
            .find(|n| n.guid == guid)
            .map(|n| n.name.clone())
    }

    fn at(&self, i: usize) -> f64 {
        self.steps.get(i).map_or(0.0, |s| s.at)
    }
}

/// One step folded in. A node reset to idle keeps the status it ended with, as Groot2's
/// status buffer does, so a finished branch still shows how it ended.
fn apply(states: &mut States, step: &Step, index: usize) {
    let state = match (step.state, states.get(&step.node)) {
        (NodeState::Idle, Some((before, _))) => match before.status() {
            Some(s) => NodeState::IdleAfter(s),
            None => NodeState::Idle,
        },
        (state, _) => state,
    };
    states.insert(step.node.clone(), (state, index));
}

impl LiveSource for Replay {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let (state, set_at) = self.states.get(guid)?;
        let since = self.at(self.position) - self.at(*set_at);
        Some(NodeLive {
            status: Some(state.status()?),
            // Ticks are not seconds: a trace's fade is by steps instead.
            age: if self.in_ticks { 0.0 } else { since as f32 },
            ticks_ago: if self.in_ticks {
                since.max(0.0) as u64
            } else {
                u64::from(!state.is_current())
            },
            ..NodeLive::default()
        })
    }

    fn has_breakpoint(&self, _guid: &str) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_runtime::Status;

    fn step(at: f64, node: &str, state: NodeState) -> Step {
        Step {
            at,
            node: node.into(),
            state,
        }
    }

    #[test]
    fn seeking_anywhere_gives_the_states_folded_up_to_there() {
        let mut steps = Vec::new();
        for i in 0..3000 {
            let state = if i % 2 == 0 {
                NodeState::Running
            } else {
                NodeState::Success
            };
            steps.push(step(i as f64, &format!("n{}", i % 7), state));
        }
        steps.push(step(2999.5, "n0", NodeState::Success));
        steps.push(step(3000.0, "n0", NodeState::Idle));
        let mut r = Replay::new("t", steps.clone(), true);
        for i in [0, 1, 1023, 1024, 1025, 2047, 2999, 3001] {
            r.seek(i);
            let mut naive = States::new();
            for (k, s) in steps[..=i].iter().enumerate() {
                apply(&mut naive, s, k);
            }
            assert_eq!(r.states, naive, "at {i}");
        }
        // Idle after success reads as success, remembered.
        assert_eq!(r.state("n0"), Some(NodeState::IdleAfter(Status::Success)));
        r.step(-10_000);
        assert_eq!(r.position(), 0);
        r.step(10_000);
        assert_eq!(r.position(), 3001);
    }

    #[test]
    fn an_empty_replay_is_safe() {
        let mut r = Replay::new("empty", Vec::new(), false);
        r.seek(5);
        r.step(1);
        assert_eq!((r.position(), r.len()), (0, 0));
        assert_eq!(r.node_live("x"), None);
    }
}
