//! `Agent::reload` (hot reload): node states start afresh, while the clock, the RNG,
//! triggers by name and every blackboard value whose key has the same name and type in the
//! new tree are kept, with their expiry (rule 33). Keys that are missing or retyped are
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
        seq(
            "S2",
            vec![
                json!({"type": "Increment", "name": "Inc", "params": {"key": "hp", "by": 1}}),
                json!({"type": "Scripted", "name": "C", "params": {"returns": ["running"]},
                       "decorators": [{"type": "CheckTrigger", "params": {"trigger": "t"}}]}),
            ],
        ),
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
    let mut dropped = a.reload(&mut (), compile(root, decls));
    dropped.sort();
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
fn reload_restarts_node_states_and_keeps_triggers_by_name() {
    let (root, decls) = tree_b();
    let mut a = agent(root.clone(), decls.clone());
    assert!(a.set_trigger("t"));
    assert_eq!(step(&mut a).0, Status::Running, "C consumed t and runs");
    assert!(a.set_trigger("t"));
    a.reload(&mut (), compile(root, decls));
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["t"]);
    // C was running before the reload; in the new instance it enters afresh.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter S2",
            "enter Inc",
            "tick Inc success",
            "exit Inc success",
            "enter C",
            "tick C running",
            "tick S2 running",
        ])
    );
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
fn reload_is_a_new_tree_instance_for_persistent_node_counters() {
    // The Scripted cursor and the Limiter counter live "for the lifetime of the tree
    // instance" (rules 6 and 19); a reload starts a new instance, so they start over.
    let root = json!({"type": "Limiter", "name": "L", "params": {"max": 1}, "children": [
        scripted("A", &["success", "failure"])
    ]});
    let mut a = agent(root.clone(), json!([]));
    assert_eq!(
        common::run_n(&mut a, 2),
        vec![Status::Success, Status::Failure]
    );
    a.reload(&mut (), compile(root, json!([])));
    assert_eq!(
        step(&mut a).0,
        Status::Success,
        "A's first value, a fresh start count"
    );
}
