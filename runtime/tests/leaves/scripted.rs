//! Rule 6: the Scripted leaf. The k-th body execution over the agent's lifetime returns
//! `returns[min(k, len-1)]`; the cursor survives re-entries, aborts and root restarts; a
//! leaf that is blocked by its conditions, aborted or skipped consumes no value.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb_set, checks, run_n, scripted, scripted_with, sel, seq, step, step_lifecycle, strs,
    ticked, try_compile,
};
use serde_json::json;

#[test]
fn rule6_returns_listed_statuses_in_turn_then_repeats_the_last() {
    let mut a = agent(scripted("A", &["failure", "running", "success"]), json!([]));
    assert_eq!(
        run_n(&mut a, 5),
        vec![
            Status::Failure,
            Status::Running,
            Status::Success,
            Status::Success,
            Status::Success
        ]
    );
}

#[test]
fn rule6_each_body_execution_is_one_tick_event() {
    let mut a = agent(scripted("A", &["running", "success"]), json!([]));
    let (_, e1) = step(&mut a);
    let (_, e2) = step(&mut a);
    assert_eq!(e1, strs(&["enter A", "tick A running"]));
    assert_eq!(e2, strs(&["tick A success", "exit A success"]));
}

#[test]
fn rule6_cursor_persists_across_re_entries() {
    // A completes each tick and enters again; the cursor is not reset by re-entry.
    let root = seq(
        "Seq",
        vec![scripted("A", &["success", "failure", "success"])],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(
        run_n(&mut a, 4),
        vec![
            Status::Success,
            Status::Failure,
            Status::Success,
            Status::Success
        ]
    );
}

#[test]
fn rule6_blocked_leaf_consumes_no_value() {
    let root = scripted_with(
        "A",
        &["failure", "success"],
        json!([{"type": "Condition", "params": {"key": "go", "equals": true}}]),
    );
    let mut a = agent(
        root,
        json!([{"key": "go", "type": "bool", "default": false}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(ticked(&events).is_empty(), "{events:?}");
    step(&mut a);
    bb_set(&mut a, "go", json!(true));
    // The first value is still the next one.
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule6_aborted_leaf_consumes_no_value() {
    // Timeout 1 ticks A once (running), then aborts it on the next tick without ticking.
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        scripted("A", &["running", "success"])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "abort A",
            "exit A aborted",
            "tick T failure",
            "exit T failure"
        ])
    );
    // The abort consumed nothing and reset nothing: A's second value comes next.
    let (_, events) = step(&mut a);
    assert_eq!(
        events,
        strs(&[
            "enter T",
            "enter A",
            "tick A success",
            "exit A success",
            "tick T success",
            "exit T success"
        ])
    );
}

#[test]
fn rule6_skipped_leaf_consumes_no_value() {
    // A is skipped while B runs (rule 10) and C is not reached while the Sequence
    // succeeds: neither consumes a value.
    let root = sel(
        "Sel",
        vec![
            seq(
                "Seq",
                vec![
                    scripted("A", &["success", "failure"]),
                    scripted("B", &["running", "success"]),
                ],
            ),
            scripted("C", &["success", "failure"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "Seq", "Sel"]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "Seq", "Sel"]));
    // A's second value (failure) is used now: one value per body execution only.
    let (status, events) = step(&mut a);
    assert_eq!(ticked(&events), strs(&["A", "Seq", "C", "Sel"]));
    assert_eq!(status, Status::Success, "C's first value");
}

#[test]
fn rule6_self_abort_consumes_no_value() {
    let root = scripted_with(
        "A",
        &["running", "failure", "success"],
        json!([{"type": "Condition", "params": {"key": "go", "equals": true, "abort": "Self"}}]),
    );
    let mut a = agent(
        root,
        json!([{"key": "go", "type": "bool", "default": true}]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    bb_set(&mut a, "go", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["check A#0 false", "abort A", "exit A aborted"])
    );
    bb_set(&mut a, "go", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(checks(&events), strs(&["check A#0 true"]));
    assert_eq!(status, Status::Failure, "the second value, not the third");
}

#[test]
fn rule6_returns_must_be_a_non_empty_list_of_statuses() {
    assert!(try_compile(
        json!({"type": "Scripted", "params": {"returns": []}}),
        json!([])
    )
    .is_err());
    assert!(try_compile(
        json!({"type": "Scripted", "params": {"returns": ["done"]}}),
        json!([])
    )
    .is_err());
}
