//! Rules 21, 22, 29 and 30: attached decorators. Condition decorators are evaluated top to
//! bottom and stop at the first false one; a blocked idle node runs none of its pre, post
//! or abort decorators; post decorators (the Inverter decorator, LeaveNode CheckTrigger)
//! run after exit, abort decorators after an abort, never both; `invert` negates; results
//! are never cached. The Inverter decorator is not applied when the node was blocked or
//! aborted. Precondition behaves exactly as a Condition with abort Self.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb_set, checks, run_n, scripted, scripted_with, sel, seq, step, step_lifecycle,
    step_with, strs, ticked, try_compile,
};
use serde_json::{json, Value};

fn cond(key: &str, equals: Value) -> Value {
    json!({"type": "Condition", "params": {"key": key, "equals": equals}})
}

fn flags() -> Value {
    json!([
        {"key": "a", "type": "bool", "default": true},
        {"key": "b", "type": "bool", "default": true},
        {"key": "c", "type": "bool", "default": true}
    ])
}

#[test]
fn rule21_conditions_evaluated_top_to_bottom_stopping_at_first_false() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([
            cond("a", json!(true)),
            cond("b", json!(true)),
            cond("c", json!(true))
        ]),
    );
    let mut a = agent(node, flags());
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        checks(&events),
        strs(&["check A#0 true", "check A#1 true", "check A#2 true"])
    );
    // All checks come before the enter event.
    assert_eq!(events[3], "enter A");

    bb_set(&mut a, "b", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, strs(&["check A#0 true", "check A#1 false"]));
}

#[test]
fn rule21_decorator_index_counts_non_condition_decorators() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Inverter"}, cond("a", json!(true))]),
    );
    let mut a = agent(node, flags());
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure, "inverted success");
    assert_eq!(checks(&events), strs(&["check A#1 true"]));
}

#[test]
fn rule21_blocked_node_runs_no_pre_post_or_abort_decorator() {
    // A blocked node: its EnterNode and LeaveNode triggers stay set (no pre or post/abort
    // decorator ran) and its Inverter is not applied.
    let node = scripted_with(
        "A",
        &["success"],
        json!([
            {"type": "CheckTrigger", "params": {"trigger": "enter_t", "reset": "EnterNode"}},
            {"type": "CheckTrigger", "params": {"trigger": "leave_t", "reset": "LeaveNode"}},
            cond("a", json!(true)),
            {"type": "Inverter"}
        ]),
    );
    let mut a = agent(seq("S", vec![node]), flags());
    let (status, events) = step_with(&mut a, 1.0, |a| {
        a.set_trigger("enter_t");
        a.set_trigger("leave_t");
        bb_set(a, "a", json!(false));
    });
    assert_eq!(status, Status::Failure, "not inverted");
    assert!(!ticked(&events).contains(&"A".to_owned()));
    let mut set: Vec<_> = a.triggers_set().collect();
    set.sort();
    assert_eq!(set, vec!["enter_t", "leave_t"]);
}

#[test]
fn rule21_post_decorators_run_on_exit_abort_decorators_on_abort() {
    let leave = json!([{"type": "CheckTrigger", "params": {"trigger": "t", "reset": "LeaveNode"}}]);
    // Completion: the post phase clears the trigger.
    let mut a = agent(
        scripted_with("A", &["running", "success"], leave.clone()),
        json!([]),
    );
    step_with(&mut a, 1.0, |a| {
        a.set_trigger("t");
    });
    assert_eq!(a.triggers_set().count(), 1, "still set while A runs");
    step(&mut a);
    assert_eq!(a.triggers_set().count(), 0, "cleared when A exits");
    // Abort: the abort phase clears it.
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        scripted_with("A", &["running"], leave)
    ]});
    let mut a = agent(root, json!([]));
    step_with(&mut a, 1.0, |a| {
        a.set_trigger("t");
    });
    assert_eq!(a.triggers_set().count(), 1);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()));
    assert_eq!(a.triggers_set().count(), 0, "cleared when A is aborted");
}

#[test]
fn rule21_post_and_abort_decorators_never_both_run() {
    // The Inverter (post) is not applied to an aborted execution: the aborted A reports
    // plain failure, not success.
    let root = sel(
        "Sel",
        vec![
            scripted_with(
                "A",
                &["running", "success"],
                json!([
                    {"type": "Condition", "params": {"key": "a", "equals": true, "abort": "Self"}},
                    {"type": "Inverter"}
                ]),
            ),
            scripted("B", &["success"]),
        ],
    );
    let mut a = agent(root, flags());
    step(&mut a);
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step_lifecycle(&mut a);
    // Aborted: A reports failure (not inverted to success), so the Selector tries B.
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "abort A",
            "exit A aborted",
            "enter B",
            "tick B success",
            "exit B success",
            "tick Sel success",
            "exit Sel success",
        ])
    );
}

#[test]
fn rule22_invert_negates_the_result() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Condition", "params": {"key": "a", "equals": true, "invert": true}}]),
    );
    let mut a = agent(node, flags());
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, strs(&["check A#0 false"]));
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(events[0], "check A#0 true");
}

#[test]
fn rule22_invert_of_a_missing_value_passes() {
    // No valid value: the test is false, inverted true.
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Condition", "params": {"key": "k", "equals": 1, "invert": true}}]),
    );
    let mut a = agent(node, json!([{"key": "k", "type": "int"}]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule22_results_are_recomputed_each_evaluation() {
    let node = scripted_with("A", &["success"], json!([cond("a", json!(true))]));
    let mut a = agent(node, flags());
    let mut seen = Vec::new();
    for v in [true, false, true, false] {
        bb_set(&mut a, "a", json!(v));
        seen.push(step(&mut a).0);
    }
    assert_eq!(
        seen,
        vec![
            Status::Success,
            Status::Failure,
            Status::Success,
            Status::Failure
        ]
    );
}

#[test]
fn rule22_unknown_abort_type_is_a_load_error() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Condition", "params": {"key": "a", "equals": true, "abort": "Sideways"}}]),
    );
    assert!(try_compile(node, flags()).is_err());
}

#[test]
fn rule29_inverter_decorator_swaps_success_and_failure_after_exit() {
    for (body, parent_sees) in [("success", "failure"), ("failure", "success")] {
        let node = scripted_with("A", &[body], json!([{"type": "Inverter"}]));
        let mut a = agent(node, json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status.as_str(), parent_sees);
        assert_eq!(
            events,
            strs(&[
                "enter A",
                &format!("tick A {body}"),
                &format!("exit A {parent_sees}")
            ])
        );
    }
}

#[test]
fn rule29_inverter_decorator_passes_running_through() {
    let node = scripted_with("A", &["running", "success"], json!([{"type": "Inverter"}]));
    let mut a = agent(node, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
}

#[test]
fn rule29_two_inverter_decorators_cancel() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Inverter"}, {"type": "Inverter"}]),
    );
    let mut a = agent(node, json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule29_inverter_decorator_not_applied_when_blocked() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([cond("a", json!(true)), {"type": "Inverter"}]),
    );
    let mut a = agent(node, flags());
    bb_set(&mut a, "a", json!(false));
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule29_inverter_decorator_on_a_composite() {
    let root = json!({"type": "Sequence", "name": "S", "decorators": [{"type": "Inverter"}],
                      "children": [scripted("A", &["success"])]});
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(events.last().map(String::as_str), Some("exit S failure"));
}

#[test]
fn rule30_precondition_false_on_idle_node_fails_without_entering() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Precondition", "params": {"key": "a", "equals": true}}]),
    );
    let mut a = agent(node, flags());
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, strs(&["check A#0 false"]));
}

#[test]
fn rule30_precondition_is_checked_every_tick_while_running() {
    let node = scripted_with(
        "A",
        &["running"],
        json!([{"type": "Precondition", "params": {"key": "a", "equals": true}}]),
    );
    let mut a = agent(node, flags());
    assert_eq!(
        step(&mut a).1,
        strs(&["check A#0 true", "enter A", "tick A running"])
    );
    assert_eq!(step(&mut a).1, strs(&["check A#0 true", "tick A running"]));
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["check A#0 false", "abort A", "exit A aborted"])
    );
}

#[test]
fn rule30_precondition_equals_condition_with_abort_self() {
    let run = |decorator: Value| {
        let root = sel(
            "Sel",
            vec![
                scripted_with("A", &["running", "running", "success"], json!([decorator])),
                scripted("B", &["running"]),
            ],
        );
        let mut a = agent(root, flags());
        let mut trace = Vec::new();
        for v in [true, true, false, true] {
            bb_set(&mut a, "a", json!(v));
            trace.push(step(&mut a));
        }
        trace
    };
    let pre = run(json!({"type": "Precondition", "params": {"key": "a", "equals": true}}));
    let cond =
        run(json!({"type": "Condition", "params": {"key": "a", "equals": true, "abort": "Self"}}));
    assert_eq!(pre, cond);
    assert_eq!(
        pre.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![Status::Running; 4]
    );
    assert!(pre[2].1.contains(&"abort A".to_owned()));
}

#[test]
fn rule30_precondition_invert() {
    let node = scripted_with(
        "A",
        &["running"],
        json!([{"type": "Precondition", "params": {"key": "a", "equals": true, "invert": true}}]),
    );
    let mut a = agent(node, flags());
    assert_eq!(step(&mut a).0, Status::Failure);
    bb_set(&mut a, "a", json!(false));
    assert_eq!(step(&mut a).0, Status::Running);
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()));
}

#[test]
fn rule30_precondition_takes_no_abort_parameter() {
    // Its abort is always Self; an explicit one is refused rather than silently ignored.
    let node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "Precondition", "params": {"key": "a", "equals": true, "abort": "None"}}]),
    );
    assert!(try_compile(node, flags()).is_err());
}
