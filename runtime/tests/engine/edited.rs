//! `Agent::restore_edited`: a snapshot restored into a later version of its tree, state
//! matched by place and shape (rules 94 to 97), with a report of what was kept and dropped.

use crate::common;

use std::sync::Arc;

use arbor_runtime::snapshot::DropReason;
use arbor_runtime::{
    ActionCtx, Agent, CompiledTree, NodeType, ParamKind, ParamSpec, Registry, RestoreReport,
    Snapshot, SnapshotError, StatefulAction, Status,
};
use common::tree_json;
use serde_json::{json, Value};

/// Walks for `ticks` of its own ticks, then succeeds; its count is saved in snapshots.
struct Walk {
    ticks: i64,
    label: String,
}

#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
struct Steps {
    done: i64,
}

impl StatefulAction<Vec<String>> for Walk {
    type State = Steps;
    fn tick(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Steps) -> Status {
        state.done += 1;
        cx.agent.push(format!("{} {}", self.label, state.done));
        if state.done >= self.ticks {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn enter(&self, _: &mut ActionCtx<'_, Vec<String>>, state: &mut Steps) {
        state.done = 0;
    }
    fn exit(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Steps, status: Status) {
        cx.agent
            .push(format!("{} exit {status} after {}", self.label, state.done));
    }
    fn abort(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Steps) {
        cx.agent
            .push(format!("{} abort after {}", self.label, state.done));
    }
}

fn registry() -> Registry<Vec<String>> {
    let mut registry = Registry::new();
    registry.register_stateful_saved(
        NodeType::action("Walk", "Runs for `ticks` ticks, then succeeds.")
            .param(ParamSpec::new("ticks", ParamKind::Int, "How many."))
            .param(ParamSpec::new("label", ParamKind::String, "For the log.")),
        |args| {
            Ok(Walk {
                ticks: args.i64("ticks")?,
                label: args.str("label")?.to_owned(),
            })
        },
    );
    registry
}

fn g(name: &str) -> String {
    let n: u64 = name.bytes().map(u64::from).sum();
    format!("e0000000-0000-4000-8000-{n:012}")
}

fn walk(name: &str, ticks: i64) -> Value {
    json!({"type": "Walk", "name": name, "guid": g(name), "params": {"ticks": ticks, "label": name}})
}

fn node(kind: &str, name: &str, children: Vec<Value>) -> Value {
    json!({"type": kind, "name": name, "guid": g(name), "children": children})
}

fn load_with(root: Value, keys: Value) -> Arc<CompiledTree<Vec<String>>> {
    let text = tree_json(root, keys).to_string();
    match registry().loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

fn load(root: Value) -> Arc<CompiledTree<Vec<String>>> {
    load_with(root, json!([]))
}

/// An agent of `v1` ticked `ticks` times, its log cleared.
fn ticked(v1: Value, ticks: usize) -> (Agent<Vec<String>>, Vec<String>) {
    let mut agent = Agent::new(load(v1), 1);
    let mut log = Vec::new();
    for _ in 0..ticks {
        agent.tick(&mut log, 1.0);
    }
    log.clear();
    (agent, log)
}

/// `agent`'s snapshot through JSON text, restored into `v2`.
fn restored(
    agent: &Agent<Vec<String>>,
    v2: Arc<CompiledTree<Vec<String>>>,
    log: &mut Vec<String>,
) -> (Agent<Vec<String>>, RestoreReport) {
    let snapshot = Snapshot::from_json(&agent.snapshot().to_json()).expect("reads back");
    match Agent::restore_edited(v2, &snapshot, log) {
        Ok(restored) => restored,
        Err(e) => panic!("restore refused: {e}"),
    }
}

fn names(nodes: &[arbor_runtime::snapshot::NodeRef]) -> Vec<&str> {
    nodes.iter().map(|n| n.name.as_str()).collect()
}

fn dropped(report: &RestoreReport) -> Vec<(&str, DropReason, bool)> {
    report
        .dropped
        .iter()
        .map(|d| (d.node.name.as_str(), d.reason, d.was_running))
        .collect()
}

#[test]
fn rule94_a_node_at_its_place_with_its_shape_keeps_its_state_when_values_change() {
    let v1 = node("Sequence", "S", vec![walk("W", 5), walk("Far", 3)]);
    let (agent, mut log) = ticked(v1, 2);
    // Another count for W, another for Far: value parameters, not shape (rule 95).
    let v2 = node("Sequence", "S", vec![walk("W", 4), walk("Far", 9)]);
    let (mut b, report) = restored(&agent, load(v2), &mut log);
    assert_eq!(names(&report.kept), ["S", "W"]);
    assert!(
        report.dropped.is_empty() && report.restarted.is_empty(),
        "{report:?}"
    );
    assert!(log.is_empty(), "nothing restarts: {log:?}");
    b.tick(&mut log, 1.0);
    b.tick(&mut log, 1.0);
    assert_eq!(
        log,
        ["W 3", "W 4", "W exit success after 4", "Far 1"],
        "W goes on from its saved count to its new goal"
    );
}

#[test]
fn rule95_a_running_wait_keeps_its_deadline_when_its_seconds_change() {
    let wait =
        |s: f64| json!({"type": "Wait", "name": "T", "guid": g("T"), "params": {"seconds": s}});
    let (agent, mut log) = ticked(wait(5.0), 1); // entered at t = 1: deadline 6
    let (mut b, report) = restored(&agent, load(wait(1.0)), &mut log);
    assert_eq!(names(&report.kept), ["T"]);
    let statuses: Vec<Status> = (0..5).map(|_| b.tick(&mut log, 1.0)).collect();
    assert_eq!(
        statuses,
        [
            Status::Running,
            Status::Running,
            Status::Running,
            Status::Running,
            Status::Success
        ]
    );
}

#[test]
fn rule94_a_removed_node_is_dropped_and_reported_by_guid_and_name() {
    let v1 = node("Sequence", "S", vec![walk("A", 5), walk("B", 2)]);
    let (agent, mut log) = ticked(v1, 2);
    let v2 = node("Sequence", "S", vec![walk("B", 2)]);
    let (mut b, report) = restored(&agent, load(v2), &mut log);
    assert_eq!(
        dropped(&report),
        [
            ("S", DropReason::Changed, true),
            ("A", DropReason::Removed, true)
        ],
        "S lost a child (rule 95), A is gone"
    );
    assert_eq!(report.dropped[1].node.guid, g("A"));
    assert!(report.kept.is_empty() && report.restarted.is_empty());
    assert!(log.is_empty(), "A's code is not in the new tree: {log:?}");
    b.tick(&mut log, 1.0);
    assert_eq!(log, ["B 1"], "S restarts from its first child");
}

#[test]
fn rule95_type_mode_children_and_decorators_are_shape() {
    let v1 = node("Sequence", "S", vec![walk("W", 5)]);
    let edits = [
        ("type", node("Selector", "S", vec![walk("W", 5)])),
        (
            "mode",
            json!({"type": "Sequence", "name": "S", "guid": g("S"), "params": {"memory": true},
                   "children": [walk("W", 5)]}),
        ),
        (
            "children",
            node("Sequence", "S", vec![walk("W", 5), walk("X", 1)]),
        ),
        (
            "decorators",
            json!({"type": "Sequence", "name": "S", "guid": g("S"), "children": [walk("W", 5)],
                   "decorators": [{"type": "Inverter"}]}),
        ),
    ];
    for (what, v2) in edits {
        let (agent, mut log) = ticked(v1.clone(), 2);
        let (_, report) = restored(&agent, load(v2), &mut log);
        assert_eq!(
            dropped(&report),
            [("S", DropReason::Changed, true)],
            "{what}: {report:?}"
        );
    }
}

#[test]
fn rule96_a_running_node_under_a_changed_parent_restarts_through_abort_and_exit() {
    let v1 = node(
        "Sequence",
        "R",
        vec![node("Sequence", "P", vec![walk("W", 5)])],
    );
    let (agent, mut log) = ticked(v1, 2);
    let v2 = node(
        "Sequence",
        "R",
        vec![node("Sequence", "P", vec![walk("W", 5), walk("X", 1)])],
    );
    let (mut b, report) = restored(&agent, load(v2), &mut log);
    assert_eq!(names(&report.kept), ["R", "W"]);
    assert_eq!(dropped(&report), [("P", DropReason::Changed, true)]);
    assert_eq!(names(&report.restarted), ["W"]);
    assert_eq!(report.running_restarted(), 2);
    assert_eq!(
        log,
        ["W abort after 2", "W exit failure after 2"],
        "W's run ends with its saved state"
    );
    log.clear();
    b.tick(&mut log, 1.0);
    assert_eq!(log, ["W 1"], "R goes on into P, which enters W afresh");
}

#[test]
fn rule96_an_old_root_under_a_new_root_restarts() {
    let v1 = node("Sequence", "R", vec![walk("W", 5)]);
    let (agent, mut log) = ticked(v1.clone(), 2);
    let v2 = node("Sequence", "Top", vec![v1]);
    let (_, report) = restored(&agent, load(v2), &mut log);
    assert_eq!(names(&report.restarted), ["R", "W"]);
    assert_eq!(log, ["W abort after 2", "W exit failure after 2"]);
}

#[test]
fn rule97_keys_triggers_and_events_are_kept_by_name() {
    let v1 = json!({"type": "Sequence", "name": "S", "guid": g("S"), "children": [
        {"type": "SetTrigger", "name": "T", "guid": g("T"), "params": {"trigger": "go"}},
        walk("W", 5)]});
    let keys1 = json!([
        {"key": "hp", "type": "int", "default": 1},
        {"key": "gone", "type": "bool", "default": true},
        {"key": "retyped", "type": "int", "default": 1}
    ]);
    let mut a = Agent::new(load_with(v1.clone(), keys1), 1);
    let mut log = Vec::new();
    a.tick(&mut log, 1.0);
    let hp = a.blackboard().key("hp").expect("declared");
    a.blackboard_mut().set(hp, 7_i64).expect("an int key");
    let keys2 = json!([
        {"key": "hp", "type": "int", "default": 1},
        {"key": "retyped", "type": "string", "default": "x"},
        {"key": "new", "type": "float", "default": 0.5}
    ]);
    let snapshot = a.snapshot();
    let (b, report) =
        Agent::restore_edited(load_with(v1, keys2), &snapshot, &mut log).expect("restores");
    assert_eq!(report.dropped_keys, ["gone", "retyped"]);
    assert_eq!(b.blackboard().to_json()["hp"], json!(7));
    assert_eq!(b.blackboard().to_json()["retyped"], json!("x"));
    assert_eq!(b.blackboard().to_json()["new"], json!(0.5));
    assert_eq!(b.triggers_set().collect::<Vec<_>>(), ["go"]);
    assert_eq!((b.now(), b.ticks()), (a.now(), a.ticks()));
}

#[test]
fn rule93_restore_edited_refuses_another_tree_and_a_snapshot_that_does_not_fit() {
    let v1 = node("Sequence", "S", vec![walk("W", 5)]);
    let (agent, mut log) = ticked(v1.clone(), 1);
    let snapshot = agent.snapshot();
    let mut other = tree_json(v1.clone(), json!([]));
    other["guid"] = json!("f0000000-0000-4000-8000-000000000000");
    let other = Arc::new(
        registry()
            .loader()
            .load_str(&other.to_string(), None)
            .expect("loads"),
    );
    let err = Agent::restore_edited(other, &snapshot, &mut log).err();
    assert!(
        matches!(err, Some(SnapshotError::OtherTree { .. })),
        "{err:?}"
    );

    let mut twice = snapshot.clone();
    twice.nodes.push(twice.nodes[0].clone());
    let err = Agent::restore_edited(load(v1.clone()), &twice, &mut log).err();
    assert!(
        matches!(&err, Some(SnapshotError::Invalid { problem, .. }) if problem.contains("second entry")),
        "{err:?}"
    );

    let mut no_deadline = snapshot.clone();
    no_deadline.now = f64::NAN;
    let err = Agent::restore_edited(load(v1), &no_deadline, &mut log).err();
    assert!(
        matches!(err, Some(SnapshotError::Invalid { .. })),
        "{err:?}"
    );
    assert!(log.is_empty());
}

#[test]
fn rule94_reload_keeps_a_running_walk_when_only_a_wait_elsewhere_changed() {
    let tree = |s: f64| {
        node(
            "Parallel",
            "P",
            vec![
                walk("Move", 10),
                json!({"type": "Wait", "name": "T", "guid": g("T"), "params": {"seconds": s}}),
            ],
        )
    };
    let (mut agent, mut log) = ticked(tree(30.0), 3);
    let report = agent.reload(&mut log, load(tree(20.0)));
    assert_eq!(report.running_restarted(), 0, "{report:?}");
    assert!(log.is_empty(), "{log:?}");
    agent.tick(&mut log, 1.0);
    assert_eq!(log, ["Move 4"]);
}

#[test]
fn rule96_reload_ends_a_removed_running_node_in_the_old_tree() {
    let v1 = node("Sequence", "S", vec![walk("A", 5), walk("B", 2)]);
    let (mut agent, mut log) = ticked(v1, 2);
    let report = agent.reload(&mut log, load(node("Sequence", "S2", vec![walk("B", 2)])));
    assert_eq!(
        log,
        ["A abort after 2", "A exit failure after 2"],
        "the old tree's code ends A's run"
    );
    assert_eq!(report.running_restarted(), 2, "{report:?}");
}
