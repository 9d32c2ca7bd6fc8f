//! Rule 11: the Selector (an OR with memory), the mirror of rule 10. Failure moves on in
//! the same tick, running suspends and resumes at that child without re-ticking earlier
//! ones, success succeeds; all failing fails. BT.CPP
//! `SimpleFallbackTest.ConditionChangeWhileRunning`.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb_set, run_n, scripted, sel, step, step_lifecycle, strs, ticked};
use serde_json::json;

#[test]
fn rule11_first_success_wins_and_later_children_are_not_ticked() {
    let root = sel(
        "Sel",
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "Sel"]));
}

#[test]
fn rule11_all_children_fail_in_one_tick() {
    let root = sel(
        "Sel",
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["failure"]),
            scripted("C", &["failure"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "Sel"]));
}

#[test]
fn rule11_running_child_resumes_without_reticking_failed_ones() {
    let root = sel(
        "Sel",
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running", "running", "failure"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "Sel"]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["tick B running", "tick Sel running"]));
    // B fails: the next child is ticked in the same tick.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["B", "C", "Sel"]));
}

#[test]
fn rule11_condition_change_while_running_is_not_seen() {
    // BT.CPP SimpleFallbackTest.ConditionChangeWhileRunning: the condition (failed before)
    // turns true while the action runs; a plain Selector does not re-tick it.
    let root = sel(
        "Sel",
        vec![
            json!({"type": "Condition", "name": "Cond", "params": {"key": "ok", "equals": true}}),
            scripted("Act", &["running", "running", "success"]),
        ],
    );
    let mut a = agent(
        root,
        json!([{"key": "ok", "type": "bool", "default": false}]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    bb_set(&mut a, "ok", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["Act", "Sel"]));
}

#[test]
fn rule11_after_completion_restarts_at_child_zero() {
    let root = sel(
        "Sel",
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    let (_, events) = step_lifecycle(&mut a);
    assert_eq!(
        events,
        strs(&[
            "enter Sel",
            "enter A",
            "tick A failure",
            "exit A failure",
            "enter B",
            "tick B success",
            "exit B success",
            "tick Sel success",
            "exit Sel success",
        ])
    );
}

#[test]
fn rule11_selector_over_sequences() {
    let root = sel(
        "Sel",
        vec![
            common::seq(
                "S1",
                vec![scripted("A", &["success"]), scripted("B", &["failure"])],
            ),
            common::seq("S2", vec![scripted("C", &["running", "success"])]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["A", "B", "S1", "C", "S2", "Sel"])
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "S2", "Sel"]));
}
