//! Delay (BT.CPP `decorators/delay_node.cpp`): running for `seconds` after entering, then
//! the child is ticked and its status returned; each execution waits again.

use crate::common;

use arbor_runtime::Status;
use common::{agent, scripted, step, step_dt, strs, ticked, try_compile};
use serde_json::json;

fn delay(seconds: f64, returns: &[&str]) -> serde_json::Value {
    json!({"type": "Delay", "name": "D", "params": {"seconds": seconds},
           "children": [scripted("A", returns)]})
}

#[test]
fn rule41_the_child_waits_for_the_delay() {
    let mut a = agent(delay(2.0, &["success"]), json!([]));
    // Entered at t=1; ticked at t=2 (1 s passed), then t=3 (2 s passed).
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["D"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["D"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "D"]));
}

#[test]
fn rule41_zero_delay_ticks_the_child_at_once_and_each_execution_waits_again() {
    let mut a = agent(delay(0.0, &["failure"]), json!([]));
    assert_eq!(step(&mut a).0, Status::Failure);
    let mut a = agent(delay(0.5, &["running", "success"]), json!([]));
    // Entered at t=0.25; 0.25 s later the delay still runs.
    assert_eq!(step_dt(&mut a, 0.25).0, Status::Running);
    let (status, events) = step_dt(&mut a, 0.25);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["D"]));
    let (status, events) = step_dt(&mut a, 0.25);
    assert_eq!(status, Status::Running, "after 0.5 s the child runs");
    assert_eq!(ticked(&events), strs(&["A", "D"]));
    assert_eq!(step_dt(&mut a, 0.25).0, Status::Success);
    // A new execution: the wait starts over.
    let (status, events) = step_dt(&mut a, 0.25);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["D"]));
}

#[test]
fn rule41_an_abort_during_the_wait_ends_it_and_the_next_execution_waits_again() {
    // The Timeout aborts D one second into its two-second wait; had the wait survived the
    // abort, A would be ticked at t=3, two seconds after the first enter.
    let root = json!({"type": "Timeout", "name": "TO", "params": {"seconds": 1},
        "children": [delay(2.0, &["success"])]});
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort D".to_owned()), "{events:?}");
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["D", "TO"]));
}

#[test]
fn rule41_negative_delays_are_refused() {
    let err = try_compile(delay(-1.0, &["success"]), json!([])).unwrap_err();
    assert!(err.to_string().contains("seconds"), "{err}");
}
