//! [`Replay`]: a BT.CPP log (`.btlog`) played back, UI-free: the tree embedded in the log,
//! imported, and each node's status after any transition, read by the canvas through
//! [`LiveSource`] as a live program is. Scrubbing folds the transitions from the nearest
//! snapshot (one every [`SNAPSHOT_EVERY`]), so a jump anywhere in a long log is cheap.

use std::collections::HashMap;

use arbor_runtime::btcpp::{BtLog, ImportError, LogTransition, MonitoredTree, NodeState};

use crate::live::{LiveSource, NodeLive};

/// Transitions between two kept snapshots of every node's state.
const SNAPSHOT_EVERY: usize = 1024;

/// Each node's state and the transition that set it.
type States = HashMap<u16, (NodeState, usize)>;

/// See the module documentation.
pub struct Replay {
    pub tree: MonitoredTree,
    pub log: BtLog,
    uids: HashMap<String, u16>,
    /// The states after transition `k * SNAPSHOT_EVERY - 1` (the first: before any).
    snapshots: Vec<States>,
    position: usize,
    states: States,
}

impl Replay {
    /// Imports the log's tree and positions the replay at its first transition.
    pub fn new(log: BtLog) -> Result<Replay, ImportError> {
        let tree = MonitoredTree::import(&log.xml, "log", "the log's tree")?;
        let uids = tree.nodes.iter().map(|(u, g)| (g.clone(), *u)).collect();
        let mut snapshots = vec![States::new()];
        let mut states = States::new();
        for (i, t) in log.transitions.iter().enumerate() {
            apply(&mut states, t, i);
            if (i + 1) % SNAPSHOT_EVERY == 0 {
                snapshots.push(states.clone());
            }
        }
        let mut replay = Replay {
            tree,
            log,
            uids,
            snapshots,
            position: 0,
            states: States::new(),
        };
        replay.seek(0);
        Ok(replay)
    }

    /// How many transitions the log holds.
    pub fn len(&self) -> usize {
        self.log.transitions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.log.transitions.is_empty()
    }

    /// The transition shown: the states are those after it.
    pub fn position(&self) -> usize {
        self.position
    }

    pub fn transition(&self, i: usize) -> Option<LogTransition> {
        self.log.transitions.get(i).copied()
    }

    /// Shows the states after transition `i` (clamped to the log).
    pub fn seek(&mut self, i: usize) {
        let i = i.min(self.len().saturating_sub(1));
        let base = (i + 1) / SNAPSHOT_EVERY;
        let mut states = self.snapshots.get(base).cloned().unwrap_or_default();
        for k in base * SNAPSHOT_EVERY..(i + 1).min(self.len()) {
            apply(&mut states, &self.log.transitions[k], k);
        }
        self.states = states;
        self.position = i;
    }

    /// Moves `delta` transitions forward (or back).
    pub fn step(&mut self, delta: i64) {
        let to = (self.position as i64).saturating_add(delta).max(0);
        self.seek(usize::try_from(to).unwrap_or(0));
    }

    /// Seconds since the log started, at transition `i`.
    pub fn seconds_at(&self, i: usize) -> f64 {
        self.transition(i).map_or(0.0, |t| t.micros as f64 / 1e6)
    }

    /// The state of a node at the position shown.
    pub fn state(&self, uid: u16) -> Option<NodeState> {
        self.states.get(&uid).map(|(s, _)| *s)
    }
}

/// One transition folded in. A node reset to idle keeps the status it ended with, as
/// Groot2's status buffer does, so a finished branch still shows how it ended.
fn apply(states: &mut States, t: &LogTransition, index: usize) {
    let state = match (t.state, states.get(&t.uid)) {
        (NodeState::Idle, Some((before, _))) => match before.status() {
            Some(s) => NodeState::IdleAfter(s),
            None => NodeState::Idle,
        },
        (state, _) => state,
    };
    states.insert(t.uid, (state, index));
}

impl LiveSource for Replay {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let (state, at) = self.states.get(self.uids.get(guid)?)?;
        Some(NodeLive {
            status: Some(state.status()?),
            age: (self.seconds_at(self.position) - self.seconds_at(*at)) as f32,
            ticks_ago: u64::from(!state.is_current()),
            ..NodeLive::default()
        })
    }

    fn has_breakpoint(&self, _guid: &str) -> bool {
        false
    }
}
