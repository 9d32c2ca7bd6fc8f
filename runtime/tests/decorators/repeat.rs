//! Rule 17: Repeat. Each child success counts an iteration and restarts the child in the
//! same tick (a fresh execution); running returns running and keeps the count; failure
//! fails at once; `count <= 0` repeats forever. The count resets on completion and on
//! abort. BT.CPP `RepeatTest.RepeatTestA`. Rule 36: Arbor caps a Repeat at
//! `MAX_LOOPS_PER_TICK` child executions per tick, then returns running and goes on in the
//! next tick.

use crate::common;

use arbor_runtime::{Status, MAX_LOOPS_PER_TICK};
use common::{agent, run_n, scripted, step, step_lifecycle, strs, ticked};
use serde_json::{json, Value};

fn repeat(count: i64, child: Value) -> Value {
    json!({"type": "Repeat", "name": "R", "params": {"count": count}, "children": [child]})
}

fn count_ticks(events: &[String], name: &str) -> usize {
    ticked(events).iter().filter(|n| *n == name).count()
}

#[test]
fn rule17_repeat_test_a_three_cycles_in_one_tick() {
    // BT.CPP RepeatTestA: a synchronous child, three cycles in a single tick.
    let mut a = agent(repeat(3, scripted("A", &["success"])), json!([]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    let mut expected = vec!["enter R".to_owned()];
    for _ in 0..3 {
        expected.extend(strs(&["enter A", "tick A success", "exit A success"]));
    }
    expected.extend(strs(&["tick R success", "exit R success"]));
    assert_eq!(events, expected);
}

#[test]
fn rule17_repeat_test_a_failure_stops_after_one() {
    let mut a = agent(repeat(3, scripted("A", &["failure"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "R"]));
}

#[test]
fn rule17_failure_in_a_later_iteration_fails_at_once() {
    let mut a = agent(
        repeat(
            5,
            scripted("A", &["success", "success", "failure", "success"]),
        ),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(count_ticks(&events, "A"), 3);
}

#[test]
fn rule17_running_keeps_count_and_resumes_the_child() {
    // Iterations: success, running → success, success: done on tick 2 after 3 successes.
    let mut a = agent(
        repeat(3, scripted("A", &["success", "running", "success"])),
        json!([]),
    );
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count_ticks(&events, "A"), 2);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "tick A success",
            "exit A success",
            "enter A",
            "tick A success",
            "exit A success",
            "tick R success",
            "exit R success",
        ])
    );
}

#[test]
fn rule17_count_resets_on_completion() {
    let mut a = agent(repeat(2, scripted("A", &["running", "success"])), json!([]));
    // Tick 1 running; tick 2: 1st success, 2nd success at once → success.
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    // A fresh execution needs two more successes (not one).
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count_ticks(&events, "A"), 2);
}

#[test]
fn rule17_count_resets_on_abort() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        repeat(2, scripted("A", &["success", "running", "success"]))
    ]});
    let mut a = agent(root, json!([]));
    // Tick 1: one success, then running. Tick 2: timed out, R aborted with count 1.
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // Count reset: success (1) and success (2) → success; with a kept count of 1, the
    // first success would already end it.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count_ticks(&events, "A"), 2);
}

#[test]
fn rule17_count_zero_and_negative_repeat_forever() {
    for count in [0, -1, -7] {
        let mut a = agent(
            repeat(count, scripted("A", &["running", "success", "running"])),
            json!([]),
        );
        // running; success then restart (running); running …: never completes.
        assert_eq!(run_n(&mut a, 6), vec![Status::Running; 6], "count {count}");
    }
}

#[test]
fn rule17_unbounded_repeat_stops_on_failure() {
    let mut a = agent(
        repeat(0, scripted("A", &["success", "success", "failure"])),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(count_ticks(&events, "A"), 3);
}

#[test]
fn rule36_unbounded_synchronous_repeat_is_capped_per_tick() {
    let cap = MAX_LOOPS_PER_TICK as usize;
    assert_eq!(cap, 1000);
    let mut a = agent(repeat(0, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running, "the tick always ends");
    assert_eq!(count_ticks(&events, "A"), cap);
    assert_eq!(events.last().map(String::as_str), Some("tick R running"));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count_ticks(&events, "A"), cap);
    assert!(!events.contains(&"enter R".to_owned()), "R keeps running");
}

#[test]
fn rule36_bounded_repeat_above_cap_continues_next_tick_keeping_count() {
    let cap = MAX_LOOPS_PER_TICK as i64;
    let mut a = agent(repeat(cap + 5, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count_ticks(&events, "A"), cap as usize);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count_ticks(&events, "A"), 5);
    // Exactly at the cap it completes within the tick.
    let mut a = agent(repeat(cap, scripted("A", &["success"])), json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule17_count_one_runs_child_once() {
    let mut a = agent(repeat(1, scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "R"]));
}

fn yielding_repeat(count: i64, child: Value) -> Value {
    json!({"type": "Repeat", "name": "R", "params": {"count": count, "yield": true},
           "children": [child]})
}

#[test]
fn rule49_yielding_repeat_runs_one_instant_cycle_per_tick() {
    // Observed in BT.CPP 4.8 (behaviortreepy 0.1.4, tickExactlyOnce): `Repeat
    // num_cycles="3"` over an action that succeeds at once returns RUNNING, RUNNING, SUCCESS
    // with one call per tick.
    let mut a = agent(yielding_repeat(3, scripted("A", &["success"])), json!([]));
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (status, events) = step(&mut a);
        seen.push((status, count_ticks(&events, "A")));
    }
    assert_eq!(
        seen,
        [
            (Status::Running, 1),
            (Status::Running, 1),
            (Status::Success, 1)
        ]
    );
}

#[test]
fn rule49_a_resumed_run_that_completes_goes_on_in_the_same_tick() {
    // Observed in BT.CPP 4.8: `Repeat num_cycles="2"` over running, success, success…:
    // tick 1 RUNNING [A]; tick 2 SUCCESS [A, A] (the resumed run completes, the next one
    // starts and completes in the same tick, and it is the last).
    let mut a = agent(
        yielding_repeat(2, scripted("A", &["running", "success"])),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!((status, count_ticks(&events, "A")), (Status::Running, 1));
    let (status, events) = step(&mut a);
    assert_eq!((status, count_ticks(&events, "A")), (Status::Success, 2));
}
