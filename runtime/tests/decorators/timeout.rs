//! Rule 20: Timeout. On enter it records `start = now`; each tick, before ticking the
//! child, if `now - start >= seconds` the running child is aborted and the Timeout fails
//! without ticking it (the check comes first), otherwise the child's status is returned.
//! So the child is ticked on at most N consecutive ticks. BT.CPP `DeadlineTest.DeadlineTriggeredTest` /
//! `DeadlineNotTriggeredTest`.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, step_dt, step_lifecycle, strs, ticked, try_compile};
use serde_json::{json, Value};

fn timeout(seconds: f64, child: Value) -> Value {
    json!({"type": "Timeout", "name": "T", "params": {"seconds": seconds}, "children": [child]})
}

#[test]
fn rule20_deadline_triggered_aborts_running_child_without_ticking_it() {
    // BT.CPP DeadlineTriggeredTest: the child would need longer than the deadline.
    let mut a = agent(timeout(2.0, scripted("A", &["running"])), json!([]));
    assert_eq!(
        step(&mut a),
        (
            Status::Running,
            strs(&["enter T", "enter A", "tick A running", "tick T running"])
        )
    );
    assert_eq!(
        step(&mut a),
        (Status::Running, strs(&["tick A running", "tick T running"]))
    );
    assert_eq!(
        step(&mut a),
        (
            Status::Failure,
            strs(&[
                "abort A",
                "exit A aborted",
                "tick T failure",
                "exit T failure"
            ])
        )
    );
}

#[test]
fn rule20_deadline_not_triggered_returns_child_status() {
    // BT.CPP DeadlineNotTriggeredTest: the child finishes before the deadline.
    let mut a = agent(
        timeout(3.0, scripted("A", &["running", "running", "success"])),
        json!([]),
    );
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Running, Status::Running, Status::Success]
    );
    let mut a = agent(
        timeout(3.0, scripted("A", &["running", "failure"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
}

#[test]
fn rule20_child_ticked_on_at_most_n_consecutive_ticks() {
    for n in 1..5 {
        let mut a = agent(timeout(n as f64, scripted("A", &["running"])), json!([]));
        let mut ticks_of_a = 0;
        for _ in 0..n {
            let (status, events) = step(&mut a);
            assert_eq!(status, Status::Running);
            ticks_of_a += ticked(&events).iter().filter(|x| *x == "A").count();
        }
        assert_eq!(ticks_of_a, n);
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Failure, "n = {n}");
        assert!(!ticked(&events).contains(&"A".to_owned()));
    }
}

#[test]
fn rule20_fractional_seconds_allow_ceil_ticks() {
    // 2.5 s with dt = 1: the child is ticked at 0, 1 and 2 s after entering; at 3 s the
    // deadline has passed.
    let mut a = agent(timeout(2.5, scripted("A", &["running"])), json!([]));
    assert_eq!(
        run_n(&mut a, 4),
        vec![
            Status::Running,
            Status::Running,
            Status::Running,
            Status::Failure
        ]
    );
}

#[test]
fn rule20_deadline_is_checked_before_the_child_even_if_it_would_succeed() {
    // At the deadline the child is not given its chance to succeed: the clock is checked first.
    let mut a = agent(
        timeout(1.0, scripted("A", &["running", "success"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // Its cursor was not consumed by the abort: next execution it succeeds at once.
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule20_timeout_zero_fails_without_ticking_child() {
    let mut a = agent(timeout(0.0, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["enter T", "tick T failure", "exit T failure"])
    );
}

#[test]
fn rule20_start_is_recorded_on_enter_and_reset_each_execution() {
    let root = json!({"type": "Sequence", "name": "S", "children": [
        scripted("W", &["running", "running", "success"]),
        timeout(2.0, scripted("A", &["running", "success", "running"]))
    ]});
    let mut a = agent(root, json!([]));
    run_n(&mut a, 2);
    // T enters at now 3 and A succeeds at now 4 (1 < 2).
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    // Next execution of the root: T enters again at now 5 (not timed out by its old start).
    let (_, events) = step_lifecycle(&mut a);
    assert!(events.contains(&"enter T".to_owned()));
    assert!(events.contains(&"tick A running".to_owned()), "{events:?}");
}

#[test]
fn rule20_uses_host_clock_seconds() {
    let mut a = agent(timeout(0.5, scripted("A", &["running"])), json!([]));
    for _ in 0..5 {
        assert_eq!(step_dt(&mut a, 0.1).0, Status::Running);
    }
    assert_eq!(
        step_dt(&mut a, 0.1).0,
        Status::Failure,
        "0.5 s after entering"
    );
}

#[test]
fn rule20_abort_reaches_nested_running_nodes_parent_first() {
    let mut a = agent(
        timeout(
            1.0,
            json!({"type": "Sequence", "name": "S", "children": [
                scripted("A", &["success"]),
                scripted("B", &["running"])
            ]}),
        ),
        json!([]),
    );
    step(&mut a);
    assert_eq!(
        step(&mut a).1,
        strs(&[
            "abort S",
            "abort B",
            "exit B aborted",
            "exit S aborted",
            "tick T failure",
            "exit T failure"
        ])
    );
}

#[test]
fn rule20_negative_seconds_is_a_load_error() {
    assert!(try_compile(timeout(-1.0, scripted("A", &["running"])), json!([])).is_err());
}
