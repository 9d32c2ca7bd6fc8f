//! Rule 19: Limiter. A persistent counter of started executions: ticked while its child is
//! idle, it fails without ticking the child once `max` starts are used up, otherwise it
//! counts a start and ticks the child; a running child is ticked without counting. The
//! counter survives completion, aborts and root restarts. Rule 36: a start whose child is
//! then blocked by its own conditions still counts.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb_set, run_n, scripted, scripted_with, step, step_lifecycle, strs, ticked};
use serde_json::{json, Value};

fn limiter(max: i64, child: Value) -> Value {
    json!({"type": "Limiter", "name": "L", "params": {"max": max}, "children": [child]})
}

#[test]
fn rule19_allows_max_starts_then_fails_without_ticking_child() {
    let mut a = agent(
        limiter(2, scripted("A", &["success", "failure", "success"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Success, Status::Failure]);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["enter L", "tick L failure", "exit L failure"])
    );
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule19_running_child_is_ticked_without_counting() {
    let mut a = agent(
        limiter(1, scripted("A", &["running", "running", "success"])),
        json!([]),
    );
    assert_eq!(
        run_n(&mut a, 4),
        vec![
            Status::Running,
            Status::Running,
            Status::Success,
            Status::Failure
        ]
    );
}

#[test]
fn rule19_returns_child_status() {
    for s in ["success", "failure", "running"] {
        let mut a = agent(limiter(1, scripted("A", &[s])), json!([]));
        assert_eq!(step(&mut a).0.as_str(), s);
    }
}

#[test]
fn rule19_max_zero_never_ticks_child() {
    let mut a = agent(limiter(0, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events).contains(&"A".to_owned()));
}

#[test]
fn rule19_counter_persists_across_abort() {
    // The running child is aborted by the Timeout; the start was counted anyway and the
    // counter is not reset by the abort.
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        limiter(2, scripted("A", &["running"]))
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter T",
            "enter L",
            "tick L failure",
            "exit L failure",
            "tick T failure",
            "exit T failure"
        ])
    );
}

#[test]
fn rule19_counter_persists_across_root_restarts_and_parent_completion() {
    let root = json!({"type": "Sequence", "name": "S", "children": [
        limiter(3, scripted("A", &["success"])),
        scripted("B", &["success"])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(
        run_n(&mut a, 4),
        vec![
            Status::Success,
            Status::Success,
            Status::Success,
            Status::Failure
        ]
    );
}

#[test]
fn rule19_counter_survives_repeat_restarts_in_one_tick() {
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 5}, "children": [
        limiter(2, scripted("A", &["success"]))
    ]});
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "L", "A", "L", "L", "R"]));
}

#[test]
fn rule36_limiter_counts_a_start_blocked_by_the_childs_conditions() {
    let child = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Condition", "params": {"key": "go", "equals": true}}]),
    );
    let mut a = agent(
        limiter(1, child),
        json!([{"key": "go", "type": "bool", "default": false}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"check A#0 false".to_owned()));
    bb_set(&mut a, "go", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(
        status,
        Status::Failure,
        "the only start was used by the blocked attempt"
    );
    assert!(
        common::checks(&events).is_empty(),
        "child not even checked: {events:?}"
    );
}

#[test]
fn rule19_each_limiter_has_its_own_counter() {
    let root = json!({"type": "Sequence", "name": "S", "children": [
        limiter(1, scripted("A", &["success"])),
        json!({"type": "Limiter", "name": "L2", "params": {"max": 2}, "children": [scripted("B", &["success"])]})
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Success, Status::Failure]);
}
