//! What the editor knows of one attached instance: its last statuses per node, its
//! blackboard, whether it is paused and why, and the breakpoints the user set on it. It is
//! folded from the server's messages and read by the canvas like the local preview.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use arbor_runtime::debug::{InstanceEntry, NodeStatus, PauseReason, Tick, TreeRef};
use arbor_runtime::Status;
use serde_json::Value;

use crate::live::{NodeLive, Outcome};

/// Why an instance is paused, as the server said.
#[derive(Clone, Debug, PartialEq)]
pub struct Pause {
    pub reason: PauseReason,
    /// The breakpoint node, for `breakpoint`.
    pub node: Option<String>,
}

/// See the module documentation. Keyed by the instance's name in [`super::Remote`], so it
/// survives the program restarting (the server then gives it a new id).
#[derive(Clone, Debug, Default)]
pub struct InstanceView {
    /// The server's id for it on the current connection; `None` while it is not listed
    /// (the program is not running, or has not registered it yet).
    pub id: Option<u64>,
    pub tree: Option<TreeRef>,
    /// The tree file the server sent, once asked for.
    pub file: Option<Value>,
    pub tick: u64,
    /// The instance's clock, in seconds.
    pub time: f64,
    pub root: Option<Status>,
    pub paused: Option<Pause>,
    /// Tick frames the server dropped because the editor read too slowly.
    pub dropped: u64,
    pub blackboard: BTreeMap<String, Value>,
    /// Kept across reconnections, and set again on the server when the instance returns.
    pub breakpoints: BTreeSet<String>,
    visits: HashMap<String, Visit>,
}

#[derive(Clone, Copy, Debug)]
struct Visit {
    outcome: Outcome,
    tick: u64,
    time: f64,
}

impl InstanceView {
    /// Takes the listing's facts; a different id means a new run of the program, whose
    /// statuses and blackboard start afresh.
    pub fn listed(&mut self, info: &InstanceEntry) {
        if self.id != Some(info.instance) {
            self.visits.clear();
            self.blackboard.clear();
            self.file = None;
            self.dropped = 0;
            self.tick = info.ticks;
            self.root = None;
        }
        if self.tree.as_ref().map(|t| &t.guid) != Some(&info.tree.guid) {
            self.file = None;
        }
        self.id = Some(info.instance);
        self.tree = Some(info.tree.clone());
        self.paused = match (info.paused, self.paused.take()) {
            (true, Some(p)) => Some(p),
            (true, None) => Some(Pause {
                reason: PauseReason::Request,
                node: None,
            }),
            (false, _) => None,
        };
    }

    /// The program no longer lists it.
    pub fn unlisted(&mut self) {
        self.id = None;
        self.paused = None;
    }

    pub fn tick(&mut self, frame: &Tick<'_>) {
        self.tick = frame.tick;
        self.time = frame.time;
        self.root = Some(frame.status);
        for (guid, status) in &frame.nodes {
            self.visits.insert(
                guid.to_string(),
                Visit {
                    outcome: outcome(*status),
                    tick: frame.tick,
                    time: frame.time,
                },
            );
        }
        for (key, value) in &frame.blackboard {
            self.blackboard.insert(key.clone(), value.clone());
        }
    }

    /// What the canvas shows of a node: its last visit, aged by the instance's own clock
    /// (which stands still while it is paused, so the statuses stay visible).
    pub fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let visit = self.visits.get(guid)?;
        Some(NodeLive {
            status: Some(visit.outcome.status()),
            age: (self.time - visit.time).max(0.0) as f32,
            decorators: Vec::new(),
            aborted: visit.outcome == Outcome::Aborted,
            ticks_ago: self.tick.saturating_sub(visit.tick),
        })
    }

    pub fn is_running(&self) -> bool {
        self.id.is_some()
    }
}

fn outcome(status: NodeStatus) -> Outcome {
    match status {
        NodeStatus::Success => Outcome::Success,
        NodeStatus::Failure => Outcome::Failure,
        NodeStatus::Running => Outcome::Running,
        NodeStatus::Aborted => Outcome::Aborted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info(id: u64) -> InstanceEntry {
        InstanceEntry {
            instance: id,
            name: "villager #1".into(),
            tree: TreeRef {
                guid: "t".into(),
                name: "Villager".into(),
            },
            paused: false,
            ticks: 0,
        }
    }

    fn frame(tick: u64, nodes: &[(&str, NodeStatus)], bb: Value) -> Tick<'static> {
        Tick {
            instance: 1,
            tick,
            time: tick as f64 * 0.1,
            status: Status::Running,
            nodes: nodes
                .iter()
                .map(|(g, s)| (g.to_string().into(), *s))
                .collect(),
            blackboard: serde_json::from_value(bb).expect("an object"),
        }
    }

    #[test]
    fn frames_fold_into_last_visits_and_a_merged_blackboard() {
        let mut view = InstanceView::default();
        view.listed(&info(1));
        view.tick(&frame(
            1,
            &[("a", NodeStatus::Running), ("b", NodeStatus::Failure)],
            json!({"x": 1, "y": 2}),
        ));
        view.tick(&frame(2, &[("a", NodeStatus::Aborted)], json!({"x": 5})));
        let a = view.node_live("a").expect("visited");
        assert_eq!(
            (a.status, a.aborted, a.ticks_ago),
            (Some(Status::Failure), true, 0)
        );
        let b = view.node_live("b").expect("visited");
        assert_eq!((b.status, b.ticks_ago), (Some(Status::Failure), 1));
        assert!((b.age - 0.1).abs() < 1e-6);
        assert_eq!(view.blackboard["x"], json!(5));
        assert_eq!(view.blackboard["y"], json!(2));
        assert_eq!(view.root, Some(Status::Running));
    }

    #[test]
    fn a_new_id_is_a_new_run_and_starts_afresh_but_keeps_breakpoints() {
        let mut view = InstanceView::default();
        view.listed(&info(1));
        view.breakpoints.insert("a".into());
        view.tick(&frame(7, &[("a", NodeStatus::Success)], json!({"x": 1})));
        view.unlisted();
        assert!(!view.is_running());
        view.listed(&info(9));
        assert!(view.node_live("a").is_none());
        assert!(view.blackboard.is_empty());
        assert!(view.breakpoints.contains("a"));
        assert_eq!(view.id, Some(9));
    }
}
