//! `Agent::reload` (hot reload): nodes keep their state where their place and shape are
//! unchanged (rules 94 to 96), and the clock, the RNG, triggers by name and every
//! blackboard value whose key has the same name and a type that takes it in the new tree
//! are kept, with their expiry (rules 33 and 97). Keys that are missing or retyped are
//! dropped and reported.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb, bb_set, bb_set_ttl, compile, scripted, seq, step, step_lifecycle, step_with, strs,
};
use serde_json::{json, Value};

fn tree_a() -> (Value, Value) {
    (
        seq(
            "S",
            vec![scripted("A", &["success"]), scripted("B", &["running"])],
        ),
        json!([
            {"key": "hp", "type": "int", "default": 10},
            {"key": "name", "type": "string", "default": "ann"},
            {"key": "gone", "type": "bool", "default": true},
            {"key": "retyped", "type": "int", "default": 1},
            {"key": "brief", "type": "int"}
        ]),
    )
}

fn tree_b() -> (Value, Value) {
    (
        json!({"type": "Sequence", "name": "S2", "guid": "b0000000-0000-4000-8000-000000000001",
               "children": [
            json!({"type": "Increment", "name": "Inc", "guid": "b0000000-0000-4000-8000-000000000002",
                   "params": {"key": "hp", "by": 1}}),
            json!({"type": "Scripted", "name": "C", "guid": "b0000000-0000-4000-8000-000000000003",
                   "params": {"returns": ["running"]},
                   "decorators": [{"type": "CheckTrigger", "params": {"trigger": "t"}}]}),
        ]}),
        json!([
            {"key": "hp", "type": "int", "default": 0},
            {"key": "name", "type": "string"},
            {"key": "retyped", "type": "string", "default": "x"},
            {"key": "brief", "type": "int"},
            {"key": "fresh", "type": "float", "default": 0.5}
        ]),
    )
}

#[test]
fn reload_keeps_compatible_blackboard_values_and_reports_dropped_keys() {
    let (root, decls) = tree_a();
    let mut a = agent(root, decls);
    step_with(&mut a, 1.0, |a| {
        bb_set(a, "hp", json!(42));
        bb_set(a, "name", json!("bob"));
    });
    let (root, decls) = tree_b();
    let dropped = a.reload(&mut (), compile(root, decls)).dropped_keys;
    assert_eq!(dropped, vec!["gone".to_owned(), "retyped".to_owned()]);
    assert_eq!(
        bb(&a, "hp"),
        json!(42),
        "same name and type: kept, not the new default"
    );
    assert_eq!(bb(&a, "name"), json!("bob"));
    assert_eq!(
        bb(&a, "retyped"),
        json!("x"),
        "retyped: the new tree's default"
    );
    assert_eq!(bb(&a, "fresh"), json!(0.5), "new key: its default");
    // The kept value is used by the new tree.
    step(&mut a);
    assert_eq!(bb(&a, "hp"), json!(43));
}

#[test]
fn reload_keeps_expiry_and_clock() {
    let (root, decls) = tree_a();
    let mut a = agent(root, decls);
    step(&mut a);
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "brief", json!(5), 1.0));
    let (root, decls) = tree_b();
    a.reload(&mut (), compile(root, decls));
    assert_eq!(a.now(), 2.0);
    assert_eq!(bb(&a, "brief"), json!(5));
    step(&mut a);
    assert_eq!(bb(&a, "brief"), json!(5), "now 3 <= 2 + 1");
    step(&mut a);
    assert_eq!(bb(&a, "brief"), json!(null), "now 4: expired on schedule");
}

#[test]
fn rule94_reload_into_the_same_tree_keeps_running_nodes_and_triggers_by_name() {
    let (root, decls) = tree_b();
    let mut a = agent(root.clone(), decls.clone());
    assert!(a.set_trigger("t"));
    assert_eq!(step(&mut a).0, Status::Running, "C consumed t and runs");
    assert!(a.set_trigger("t"));
    a.reload(&mut (), compile(root, decls));
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["t"]);
    // C was running before the reload, at the same place with the same shape: it goes on.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["tick C running", "tick S2 running"]));
}

#[test]
fn reload_continues_the_rng_sequence() {
    let root = json!({"type": "Random", "params": {"probability": 0.5}});
    let mut a = common::agent_seeded(root.clone(), json!([]), 5);
    let mut b = a.clone();
    common::run_n(&mut a, 3);
    common::run_n(&mut b, 3);
    b.reload(&mut (), compile(root, json!([])));
    assert_eq!(common::run_n(&mut a, 32), common::run_n(&mut b, 32));
}

#[test]
fn rule94_reload_keeps_the_persistent_counters_of_unchanged_nodes() {
    // The Scripted cursor and the Limiter counter live for the lifetime of the agent's
    // tree instance (rules 6 and 19); a reload into a tree where they are unchanged keeps
    // that instance's counts.
    let root = json!({"type": "Limiter", "name": "L", "params": {"max": 1}, "children": [
        scripted("A", &["success", "failure"])
    ]});
    let mut a = agent(root.clone(), json!([]));
    assert_eq!(
        common::run_n(&mut a, 2),
        vec![Status::Success, Status::Failure]
    );
    let report = a.reload(&mut (), compile(root, json!([])));
    assert_eq!(report.kept.len(), 2, "{report:?}");
    assert_eq!(
        step(&mut a).0,
        Status::Failure,
        "L already let its one execution through"
    );
}
