//! Rule 18: Retry. A child failure counts an attempt and restarts the child in the same
//! tick until `attempts` failures, then fails; success succeeds; running returns running;
//! `-1` retries forever. The count resets on completion and on abort. BT.CPP
//! `RetryTest.RetryTestA`. Rule 36: `attempts: 0` (and below -1) is a load error, and an
//! unbounded Retry is capped at `MAX_LOOPS_PER_TICK` child executions per tick.

use crate::common;

use arbor_runtime::{Status, MAX_LOOPS_PER_TICK};
use common::{agent, run_n, scripted, step, step_lifecycle, strs, ticked, try_compile};
use serde_json::{json, Value};

fn retry(attempts: i64, child: Value) -> Value {
    json!({"type": "Retry", "name": "R", "params": {"attempts": attempts}, "children": [child]})
}

fn count_ticks(events: &[String], name: &str) -> usize {
    ticked(events).iter().filter(|n| *n == name).count()
}

#[test]
fn rule18_retry_test_a_fails_after_attempts_in_one_tick() {
    // BT.CPP RetryTestA: a child that always fails is tried `attempts` times, then the
    // Retry fails, all in one tick.
    let mut a = agent(retry(3, scripted("A", &["failure"])), json!([]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    let mut expected = vec!["enter R".to_owned()];
    for _ in 0..3 {
        expected.extend(strs(&["enter A", "tick A failure", "exit A failure"]));
    }
    expected.extend(strs(&["tick R failure", "exit R failure"]));
    assert_eq!(events, expected);
}

#[test]
fn rule18_retry_test_a_success_after_failures() {
    let mut a = agent(
        retry(3, scripted("A", &["failure", "failure", "success"])),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count_ticks(&events, "A"), 3);
}

#[test]
fn rule18_success_at_first_attempt() {
    let mut a = agent(retry(3, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "R"]));
}

#[test]
fn rule18_running_returns_running_and_keeps_count() {
    // failure (1), running | failure (2) → fail with attempts 2.
    let mut a = agent(
        retry(
            2,
            scripted("A", &["failure", "running", "failure", "success"]),
        ),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count_ticks(&events, "A"), 2);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(count_ticks(&events, "A"), 1);
}

#[test]
fn rule18_count_resets_on_completion() {
    let mut a = agent(
        retry(
            2,
            scripted(
                "A",
                &["failure", "success", "failure", "failure", "success"],
            ),
        ),
        json!([]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
    // Fresh execution: two more attempts allowed (a kept count would fail after one).
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(count_ticks(&events, "A"), 2);
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule18_count_resets_on_abort() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        retry(2, scripted("A", &["failure", "running", "failure", "success"]))
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // A kept count of 1 would fail at A's next failure; a reset one retries and succeeds.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count_ticks(&events, "A"), 2);
}

#[test]
fn rule18_minus_one_retries_forever() {
    let mut a = agent(
        retry(
            -1,
            scripted("A", &["failure", "running", "failure", "running"]),
        ),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 5), vec![Status::Running; 5]);
}

#[test]
fn rule36_unbounded_synchronous_retry_is_capped_per_tick() {
    let mut a = agent(retry(-1, scripted("A", &["failure"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count_ticks(&events, "A"), MAX_LOOPS_PER_TICK as usize);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert!(!events.contains(&"enter R".to_owned()));
}

#[test]
fn rule36_bounded_retry_above_cap_continues_next_tick() {
    let cap = i64::from(MAX_LOOPS_PER_TICK);
    let mut a = agent(retry(cap + 3, scripted("A", &["failure"])), json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(count_ticks(&events, "A"), 3);
}

#[test]
fn rule36_retry_attempts_zero_is_a_load_error() {
    assert!(try_compile(retry(0, scripted("A", &["failure"])), json!([])).is_err());
    assert!(try_compile(retry(-2, scripted("A", &["failure"])), json!([])).is_err());
    assert!(try_compile(retry(1, scripted("A", &["failure"])), json!([])).is_ok());
    let err = try_compile(retry(0, scripted("A", &["failure"])), json!([])).unwrap_err();
    assert!(err.to_string().contains("attempts"), "{err}");
}

#[test]
fn rule18_attempts_is_required() {
    assert!(try_compile(
        json!({"type": "Retry", "children": [scripted("A", &["failure"])]}),
        json!([])
    )
    .is_err());
}

#[test]
fn rule49_yielding_retry_makes_one_instant_attempt_per_tick() {
    // Observed in BT.CPP 4.8 (behaviortreepy 0.1.4, tickExactlyOnce):
    // `RetryUntilSuccessful num_attempts="3"` over failure, failure, success returns
    // RUNNING, RUNNING, SUCCESS with one call per tick; with `num_attempts="2"` and a child
    // that always fails: RUNNING, FAILURE.
    let yielding = |attempts: i64, script: &[&str]| {
        json!({"type": "Retry", "name": "R", "params": {"attempts": attempts, "yield": true},
               "children": [scripted("A", script)]})
    };
    let mut a = agent(yielding(3, &["failure", "failure", "success"]), json!([]));
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (status, events) = step(&mut a);
        let calls = ticked(&events).iter().filter(|n| *n == "A").count();
        seen.push((status, calls));
    }
    assert_eq!(
        seen,
        [
            (Status::Running, 1),
            (Status::Running, 1),
            (Status::Success, 1)
        ]
    );
    let mut a = agent(yielding(2, &["failure"]), json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    assert_eq!(step(&mut a).0, Status::Failure);
}
