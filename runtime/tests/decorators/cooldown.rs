//! Rule 76: Cooldown. After its child completes, it fails for `seconds` of the agent's
//! clock without ticking the child; the end of the cooldown is per agent and persistent;
//! an aborted run starts none; a bound duration without a valid value fails the node.

use crate::common;

use arbor_runtime::Status;
use common::{agent, agent_v2, bb_set, run_n, scripted, step, step_dt, strs, ticked, try_compile};
use serde_json::{json, Value};

fn cooldown(seconds: Value, child: Value) -> Value {
    json!({"type": "Cooldown", "name": "CD", "params": {"seconds": seconds}, "children": [child]})
}

#[test]
fn rule76_fails_without_ticking_the_child_until_the_cooldown_is_over() {
    let mut a = agent(cooldown(json!(2), scripted("A", &["success"])), json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
    // Tick 2, now = 2: one second of two has passed.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["enter CD", "tick CD failure", "exit CD failure"])
    );
    // Tick 3, now = 3 = 1 + 2: over.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "CD"]));
}

#[test]
fn rule76_starts_after_either_outcome_and_returns_the_child_status() {
    let mut a = agent(
        cooldown(json!(2), scripted("A", &["failure", "success"])),
        json!([]),
    );
    let mut statuses = Vec::new();
    let mut ticked_a = Vec::new();
    for _ in 0..4 {
        let (status, events) = step(&mut a);
        statuses.push(status);
        ticked_a.push(ticked(&events).contains(&"A".to_owned()));
    }
    assert_eq!(
        statuses,
        [
            Status::Failure,
            Status::Failure,
            Status::Success,
            Status::Failure
        ]
    );
    assert_eq!(ticked_a, [true, false, true, false]);
}

#[test]
fn rule76_a_running_child_is_ticked_and_the_cooldown_starts_when_it_completes() {
    let mut a = agent(
        cooldown(json!(2), scripted("A", &["running", "running", "success"])),
        json!([]),
    );
    assert_eq!(
        run_n(&mut a, 5),
        vec![
            Status::Running,
            Status::Running,
            Status::Success,
            Status::Failure,
            Status::Success
        ]
    );
}

#[test]
fn rule76_uses_the_time_tolerance_of_rule_2() {
    let mut a = agent(cooldown(json!(1), scripted("A", &["success"])), json!([]));
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Success);
    let statuses: Vec<Status> = (0..10).map(|_| step_dt(&mut a, 0.1).0).collect();
    // Nine steps of 0.1 are still cooling; the tenth reaches one second.
    assert_eq!(statuses[..9], [Status::Failure; 9]);
    assert_eq!(statuses[9], Status::Success);
}

#[test]
fn rule76_persists_across_root_restarts_and_its_own_executions() {
    // The Sequence restarts every tick; the Cooldown's end outlives its executions.
    let root = json!({"type": "Sequence", "name": "S", "children": [
        cooldown(json!(3), scripted("A", &["success"])),
        scripted("B", &["success"]),
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(
        run_n(&mut a, 5),
        vec![
            Status::Success,
            Status::Failure,
            Status::Failure,
            Status::Success,
            Status::Failure
        ]
    );
}

#[test]
fn rule76_an_aborted_run_starts_no_cooldown() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        cooldown(json!(5), scripted("A", &["running", "running", "success"]))
    ]});
    let mut a = agent(root, json!([]));
    // Tick 1: A runs; tick 2: the Timeout aborts the Cooldown and A.
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // Tick 3: no cooldown: A is ticked again (its script goes on: running).
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert!(ticked(&events).contains(&"A".to_owned()));
}

#[test]
fn rule76_a_bound_duration_without_a_value_fails_the_node() {
    let mut a = agent_v2(
        cooldown(json!({"$key": "cd"}), scripted("A", &["success"])),
        json!([{"key": "cd", "type": "float"}]),
        1,
    );
    assert_eq!(step(&mut a).0, Status::Failure, "no value: failure");
    bb_set(&mut a, "cd", json!(2));
    assert_eq!(step(&mut a).0, Status::Success);
    assert_eq!(step(&mut a).0, Status::Failure, "cooling");
}

#[test]
fn rule76_a_negative_literal_is_refused_at_load() {
    let err = try_compile(cooldown(json!(-1), scripted("A", &["success"])), json!([]))
        .expect_err("a negative duration");
    let text = err.to_string();
    assert!(text.contains("seconds"), "{text}");
}

#[test]
fn rule76_needs_exactly_one_child() {
    let root = json!({"type": "Cooldown", "params": {"seconds": 1}, "children": [
        scripted("A", &["success"]), scripted("B", &["success"])
    ]});
    let err = try_compile(root, json!([])).expect_err("two children");
    assert!(err.to_string().contains("exactly one child"), "{err}");
}
