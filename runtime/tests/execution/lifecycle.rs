//! Part A, rules 1–5: status values, the host tick and its clock, the node lifecycle
//! (condition phase → enter → body → exit, with its trace events), completion making a node
//! idle and the root restarting every host tick, and same-tick transitions.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb, bb_set, scripted, scripted_with, sel, seq, step, step_dt, step_lifecycle,
    step_lifecycle_with, strs, ticked,
};
use serde_json::json;

#[test]
fn rule1_every_tick_returns_exactly_one_of_three_statuses() {
    let mut a = agent(scripted("A", &["running", "success", "failure"]), json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    assert_eq!(step(&mut a).0, Status::Success);
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule2_clock_starts_at_zero_and_first_tick_happens_at_dt() {
    let mut a = agent(scripted("A", &["success"]), json!([]));
    assert_eq!(a.now(), 0.0);
    step_dt(&mut a, 0.25);
    assert_eq!(a.now(), 0.25);
    step_dt(&mut a, 0.5);
    assert_eq!(a.now(), 0.75);
    assert_eq!(a.ticks(), 2);
}

#[test]
fn rule2_host_inputs_are_applied_at_the_new_now_before_the_root_ticks() {
    // A write with ttl 0 made between advance and run is valid during that very tick
    // (written at the new `now`), and the root sees it.
    let root = json!({"type": "Condition", "name": "C", "params": {"key": "k", "equals": 1}});
    let mut a = agent(root, json!([{"key": "k", "type": "int"}]));
    let (status, _) = common::step_with(&mut a, 1.0, |a| {
        assert_eq!(a.now(), 1.0, "inputs are applied after the clock advanced");
        common::bb_set_ttl(a, "k", json!(1), 0.0);
    });
    assert_eq!(status, Status::Success);
    assert_eq!(step(&mut a).0, Status::Failure, "expired one tick later");
}

#[test]
fn rule2_tick_is_advance_then_run() {
    let mut a = agent(scripted("A", &["running"]), json!([]));
    a.advance(2.0);
    assert_eq!(a.now(), 2.0);
    assert_eq!(a.ticks(), 0, "advancing does not tick the root");
    assert_eq!(a.run(&mut ()), Status::Running);
    assert_eq!(a.ticks(), 1);
    assert_eq!(a.tick(&mut (), 1.0), Status::Running);
    assert_eq!(a.now(), 3.0);
}

#[test]
fn rule3_lifecycle_events_enter_tick_exit_in_order() {
    let root = seq(
        "Seq",
        vec![scripted("A", &["success"]), scripted("B", &["success"])],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter Seq",
            "enter A",
            "tick A success",
            "exit A success",
            "enter B",
            "tick B success",
            "exit B success",
            "tick Seq success",
            "exit Seq success",
        ])
    );
}

#[test]
fn rule3_running_node_does_not_enter_again_and_does_not_exit() {
    let mut a = agent(scripted("A", &["running", "running", "success"]), json!([]));
    assert_eq!(
        step(&mut a),
        (Status::Running, strs(&["enter A", "tick A running"]))
    );
    assert_eq!(step(&mut a), (Status::Running, strs(&["tick A running"])));
    assert_eq!(
        step(&mut a),
        (Status::Success, strs(&["tick A success", "exit A success"]))
    );
}

#[test]
fn rule3_failed_condition_on_idle_node_emits_no_lifecycle_event() {
    let root = seq(
        "Seq",
        vec![scripted_with(
            "A",
            &["success"],
            json!([{"type": "Condition", "params": {"key": "go", "equals": true}},
                   {"type": "Inverter"}]),
        )],
    );
    let mut a = agent(
        root,
        json!([{"key": "go", "type": "bool", "default": false}]),
    );
    let (status, events) = step(&mut a);
    // The Inverter post-decorator does not run either: the node returns plain failure.
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter Seq",
            "check A#0 false",
            "tick Seq failure",
            "exit Seq failure",
        ])
    );
}

#[test]
fn rule3_conditions_are_checked_only_while_idle_unless_abort_self() {
    let root = scripted_with(
        "A",
        &["running", "running", "success"],
        json!([{"type": "Condition", "params": {"key": "go", "equals": true}}]),
    );
    let mut a = agent(
        root,
        json!([{"key": "go", "type": "bool", "default": true}]),
    );
    let (_, events) = step(&mut a);
    assert_eq!(
        events,
        strs(&["check A#0 true", "enter A", "tick A running"])
    );
    bb_set(&mut a, "go", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(
        status,
        Status::Running,
        "abort None: not re-checked while running"
    );
    assert_eq!(events, strs(&["tick A running"]));
}

#[test]
fn rule3_post_decorator_changes_status_parent_sees() {
    let root = sel(
        "Sel",
        vec![
            scripted_with("A", &["success"], json!([{"type": "Inverter"}])),
            scripted("B", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    // A's body returned success; after its exit the Inverter turned it into failure, so
    // the Selector went on to B. The exit event carries the status the parent receives.
    assert_eq!(
        events,
        strs(&[
            "enter Sel",
            "enter A",
            "tick A success",
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
fn rule3_every_node_kind_follows_the_lifecycle() {
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 1}, "children": [
        {"type": "Inverter", "name": "I", "children": [
            {"type": "Wait", "name": "W", "params": {"seconds": 0}}
        ]}
    ]});
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter R",
            "enter I",
            "enter W",
            "tick W success",
            "exit W success",
            "tick I failure",
            "exit I failure",
            "tick R failure",
            "exit R failure",
        ])
    );
}

#[test]
fn rule4_completed_composite_starts_again_from_child_zero() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["failure", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "Seq"]));
    // Not resumed at the failed child B (rule 4): a fresh execution.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(events[0], "enter Seq");
    assert_eq!(ticked(&events), strs(&["A", "B", "Seq"]));
}

#[test]
fn rule4_root_restarts_every_host_tick_after_completing() {
    // BT.CPP Decorator.RunOnce ticks a completed tree again: here, five times.
    let root = seq("Seq", vec![scripted("A", &["success"])]);
    let mut a = agent(root, json!([]));
    for _ in 0..5 {
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success);
        assert_eq!(
            events,
            strs(&[
                "enter Seq",
                "enter A",
                "tick A success",
                "exit A success",
                "tick Seq success",
                "exit Seq success",
            ])
        );
    }
}

#[test]
fn rule4_scripted_cursor_limiter_blackboard_and_triggers_persist_across_executions() {
    let root = seq(
        "Seq",
        vec![
            json!({"type": "Increment", "name": "Inc", "params": {"key": "n", "by": 1}}),
            json!({"type": "Limiter", "name": "L", "params": {"max": 2}, "children": [
                scripted("A", &["success", "failure"])
            ]}),
            json!({"type": "SetTrigger", "name": "T", "params": {"trigger": "t"}}),
        ],
    );
    let mut a = agent(root, json!([{"key": "n", "type": "int", "default": 0}]));
    assert_eq!(step(&mut a).0, Status::Success);
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["t"]);
    // Second execution: the cursor moved on (failure), the count is 1 of 2.
    assert_eq!(step(&mut a).0, Status::Failure);
    // Third: the Limiter has used up its two starts; A is not ticked.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events).contains(&"A".to_owned()), "{events:?}");
    assert_eq!(bb(&a, "n"), json!(3));
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["t"]);
}

#[test]
fn rule5_sequence_runs_all_synchronous_children_in_one_tick() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "Seq"]));
}

#[test]
fn rule5_next_child_starts_in_the_tick_the_previous_completes() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["running", "success"]),
            scripted("B", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    step(&mut a);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "tick A success",
            "exit A success",
            "enter B",
            "tick B running",
            "tick Seq running",
        ])
    );
}

#[test]
fn rule5_repeat_restart_enters_child_again_in_same_tick() {
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 2}, "children": [
        scripted("A", &["success"])
    ]});
    let mut a = agent(root, json!([]));
    let (status, events) = step_lifecycle_with(&mut a, |_| {});
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter R",
            "enter A",
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
