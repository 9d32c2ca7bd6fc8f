//! IfUpdated, WasUpdated and UnsetBlackboard (rules 66 to 69; BT.CPP 4.8
//! `decorators/updated_decorator.cpp`, `actions/updated_action.cpp`,
//! `actions/unset_blackboard_node.h`): nodes that look at a key's writes, and the node
//! that removes a key's value.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, bb_set, run_n, scripted, seq, step, strs, ticked};
use serde_json::{json, Value};

fn if_updated(otherwise: &str, child: Value) -> Value {
    json!({"type": "IfUpdated", "name": "U", "params": {"key": "n", "otherwise": otherwise},
        "children": [child]})
}

fn keys() -> Value {
    json!([{"key": "n", "type": "int", "default": 3}])
}

#[test]
fn rule67_runs_the_child_once_per_write() {
    let mut a = agent(if_updated("failure", scripted("A", &["success"])), keys());
    // A default is not a write (BT.CPP: a fresh entry has sequence number 0).
    assert_eq!(step(&mut a).0, Status::Failure);
    bb_set(&mut a, "n", json!(4));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "U"]));
    let (status, events) = step(&mut a);
    assert_eq!((status, ticked(&events)), (Status::Failure, strs(&["U"])));
    // Writing the same value again is a write.
    bb_set(&mut a, "n", json!(4));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule67_a_running_child_is_resumed_without_looking_at_the_key() {
    let mut a = agent(
        if_updated("success", scripted("A", &["running", "running", "failure"])),
        keys(),
    );
    bb_set(&mut a, "n", json!(1));
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Running, Status::Running, Status::Failure]
    );
    let (status, events) = step(&mut a);
    assert_eq!((status, ticked(&events)), (Status::Success, strs(&["U"])));
}

#[test]
fn rule67_otherwise_running_waits_for_a_write() {
    // BT.CPP's WaitValueUpdate.
    let root = seq(
        "S",
        vec![
            if_updated("running", scripted("A", &["success"])),
            scripted("B", &["success"]),
        ],
    );
    let mut a = agent(root, keys());
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Running]);
    bb_set(&mut a, "n", json!(9));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "U", "B", "S"]));
}

#[test]
fn rule68_was_updated_succeeds_on_the_first_look_after_a_write() {
    let root = json!({"type": "WasUpdated", "name": "W", "params": {"key": "n"}});
    let mut a = agent(root, keys());
    assert_eq!(step(&mut a).0, Status::Failure);
    bb_set(&mut a, "n", json!(1));
    assert_eq!(run_n(&mut a, 2), vec![Status::Success, Status::Failure]);
}

#[test]
fn rule68_two_nodes_watching_one_key_each_see_the_write() {
    let w = |name: &str| json!({"type": "WasUpdated", "name": name, "params": {"key": "n"}});
    let root = json!({"type": "Parallel", "name": "P", "params": {"need": 2},
        "children": [w("W1"), w("W2")]});
    let mut a = agent(root, keys());
    bb_set(&mut a, "n", json!(1));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule69_unset_removes_the_value_and_counts_as_a_write() {
    let unset = json!({"type": "UnsetBlackboard", "name": "X", "params": {"key": "n"}});
    let watch = json!({"type": "WasUpdated", "name": "W", "params": {"key": "n"}});
    let cond = json!({"type": "Condition", "name": "C", "params": {"key": "n", "equals": 3}});
    let mut a = agent(seq("S", vec![cond.clone(), unset]), keys());
    assert_eq!(step(&mut a).0, Status::Success);
    assert_eq!(
        bb(&a, "n"),
        Value::Null,
        "rule 69: no value left, not even the default"
    );
    // The key now reads as never written: the Condition fails (rule 7).
    assert_eq!(step(&mut a).0, Status::Failure);
    // A key without a value is never "updated" (BT.CPP: the entry is gone).
    let mut b = agent(
        seq(
            "S",
            vec![
                json!({"type": "UnsetBlackboard", "name": "X",
        "params": {"key": "n"}}),
                watch,
            ],
        ),
        keys(),
    );
    assert_eq!(step(&mut b).0, Status::Failure);
    // Written again after the unset: the watcher sees a change.
    bb_set(&mut b, "n", json!(5));
    let w = json!({"type": "WasUpdated", "name": "W", "params": {"key": "n"}});
    let mut c = agent(w, keys());
    bb_set(&mut c, "n", json!(5));
    assert_eq!(step(&mut c).0, Status::Success);
}
