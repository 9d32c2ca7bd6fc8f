//! Rules 23–28: conditional aborts and the abort procedure. AbortType Self re-checks a
//! running node's own conditions; LowerPriority re-ticks earlier Selector children as fresh
//! executions (rule 24) or re-checks only the LowerPriority conditions of earlier Sequence
//! children (rule 25); Both is Self plus LowerPriority; dynamic composites re-tick every
//! earlier child (BT.CPP ReactiveFallback / ReactiveSequence). Aborts emit abort events
//! parent first and exit events child first, clear per-execution state, and keep the
//! Scripted cursor, Limiter counter, blackboard and triggers.

use crate::common;

use arbor_runtime::{Recorder, Status};
use common::{
    agent, bb, bb_set, checks, run_n, scripted, scripted_with, sel, seq, step, step_lifecycle,
    strs, ticked,
};
use serde_json::{json, Value};

fn flags() -> Value {
    json!([
        {"key": "a", "type": "bool", "default": true},
        {"key": "b", "type": "bool", "default": true},
        {"key": "c", "type": "bool", "default": true}
    ])
}

fn cond_abort(key: &str, abort: &str) -> Value {
    json!({"type": "Condition", "params": {"key": key, "equals": true, "abort": abort}})
}

fn condition_leaf(name: &str, key: &str) -> Value {
    json!({"type": "Condition", "name": name, "params": {"key": key, "equals": true}})
}

fn dynamic(kind: &str, name: &str, children: Vec<Value>) -> Value {
    json!({"type": kind, "name": name, "params": {"dynamic": true}, "children": children})
}

// ---- Rule 23: Self ----

#[test]
fn rule23_self_condition_rechecked_each_tick_and_false_aborts_node() {
    let root = sel(
        "Sel",
        vec![
            scripted_with("A", &["running"], json!([cond_abort("a", "Self")])),
            scripted("B", &["success"]),
        ],
    );
    let mut a = agent(root, flags());
    assert_eq!(
        step(&mut a).1,
        strs(&[
            "enter Sel",
            "check A#0 true",
            "enter A",
            "tick A running",
            "tick Sel running"
        ])
    );
    assert_eq!(
        step(&mut a).1,
        strs(&["check A#0 true", "tick A running", "tick Sel running"])
    );
    bb_set(&mut a, "a", json!(false));
    // A is aborted and returns failure; the Selector goes on to B in the same tick.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "check A#0 false",
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
fn rule23_only_self_conditions_are_rechecked_while_running() {
    let node = scripted_with(
        "A",
        &["running"],
        json!([
            cond_abort("a", "None"),
            cond_abort("b", "LowerPriority"),
            cond_abort("c", "Self")
        ]),
    );
    let mut a = agent(node, flags());
    assert_eq!(
        checks(&step(&mut a).1),
        strs(&["check A#0 true", "check A#1 true", "check A#2 true"])
    );
    bb_set(&mut a, "a", json!(false));
    bb_set(&mut a, "b", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["check A#2 true", "tick A running"]));
}

#[test]
fn rule23_self_abort_of_a_composite_aborts_its_running_child() {
    let root = json!({"type": "Sequence", "name": "S", "decorators": [cond_abort("a", "Self")],
                      "children": [scripted("A", &["success"]), scripted("B", &["running"])]});
    let mut a = agent(root, flags());
    step(&mut a);
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "check S#0 false",
            "abort S",
            "abort B",
            "exit B aborted",
            "exit S aborted"
        ])
    );
}

#[test]
fn rule23_self_conditions_in_order_stop_at_first_false() {
    let node = scripted_with(
        "A",
        &["running"],
        json!([cond_abort("a", "Self"), cond_abort("b", "Both")]),
    );
    let mut a = agent(node, flags());
    step(&mut a);
    bb_set(&mut a, "a", json!(false));
    let (_, events) = step(&mut a);
    assert_eq!(checks(&events), strs(&["check A#0 false"]));
}

// ---- Rule 24: LowerPriority under a Selector ----

fn lp_selector(a_returns: &[&str]) -> Value {
    sel(
        "Sel",
        vec![
            scripted_with("A", a_returns, json!([cond_abort("a", "LowerPriority")])),
            scripted("B", &["failure"]),
            scripted("C", &["running"]),
        ],
    )
}

#[test]
fn rule24_lower_priority_child_reticked_each_tick_and_preempts_on_success() {
    let mut a = agent(lp_selector(&["success"]), flags());
    bb_set(&mut a, "a", json!(false));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "C", "Sel"]));
    // A is re-evaluated as a fresh execution (its conditions first); B, without such a
    // decorator, is skipped; C resumes.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&["check A#0 false", "tick C running", "tick Sel running"])
    );
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "check A#0 true",
            "enter A",
            "tick A success",
            "exit A success",
            "abort C",
            "exit C aborted",
            "tick Sel success",
            "exit Sel success",
        ])
    );
}

#[test]
fn rule24_lower_priority_child_running_becomes_current() {
    let mut a = agent(lp_selector(&["running", "running", "success"]), flags());
    bb_set(&mut a, "a", json!(false));
    step(&mut a);
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter A",
            "tick A running",
            "abort C",
            "exit C aborted",
            "tick Sel running"
        ])
    );
    // A is now the current child: it resumes; B and C are not ticked.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["tick A running", "tick Sel running"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "Sel"]));
}

#[test]
fn rule24_lower_priority_child_body_failure_moves_on() {
    // The condition passes, the body fails: the Selector moves on and C keeps running.
    let mut a = agent(lp_selector(&["failure"]), flags());
    let (_, events) = step(&mut a);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "Sel"]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter A",
            "tick A failure",
            "exit A failure",
            "tick C running",
            "tick Sel running"
        ])
    );
}

#[test]
fn rule24_lower_priority_children_tried_in_order_first_winner_stops() {
    let root = sel(
        "Sel",
        vec![
            scripted_with("A", &["failure"], json!([cond_abort("a", "LowerPriority")])),
            scripted_with(
                "B",
                &["failure", "success"],
                json!([cond_abort("b", "LowerPriority")]),
            ),
            scripted_with("X", &["success"], json!([cond_abort("c", "LowerPriority")])),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    bb_set(&mut a, "c", json!(false));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "C", "Sel"]));
    bb_set(&mut a, "c", json!(true));
    // A fails again, B now succeeds: C is aborted and X is not evaluated.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "Sel"]));
    assert!(!checks(&events).iter().any(|e| e.starts_with("check X")));
    assert!(events.contains(&"abort C".to_owned()));
}

#[test]
fn rule24_lower_priority_on_the_running_child_itself_is_not_rechecked() {
    let root = sel(
        "Sel",
        vec![
            scripted("A", &["failure"]),
            scripted_with("C", &["running"], json!([cond_abort("c", "LowerPriority")])),
        ],
    );
    let mut a = agent(root, flags());
    step(&mut a);
    bb_set(&mut a, "c", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["tick C running", "tick Sel running"]));
}

#[test]
fn rule24_only_direct_children_with_the_flag_are_reticked() {
    // A LowerPriority condition deeper down (on a grandchild) does not make the Selector
    // re-tick the child that contains it.
    let root = sel(
        "Sel",
        vec![
            seq(
                "Inner",
                vec![scripted_with(
                    "G",
                    &["success"],
                    json!([cond_abort("a", "LowerPriority")]),
                )],
            ),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    bb_set(&mut a, "a", json!(false));
    step(&mut a);
    bb_set(&mut a, "a", json!(true));
    let (_, events) = step(&mut a);
    assert_eq!(events, strs(&["tick C running", "tick Sel running"]));
}

// ---- Rule 25: LowerPriority under a Sequence ----

#[test]
fn rule25_only_lower_priority_conditions_rechecked_body_not_reticked() {
    let root = seq(
        "Seq",
        vec![
            scripted_with(
                "A",
                &["success"],
                json!([cond_abort("a", "LowerPriority"), cond_abort("b", "None")]),
            ),
            scripted("N", &["success"]),
            scripted("B", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    assert_eq!(
        checks(&step(&mut a).1),
        strs(&["check A#0 true", "check A#1 true"])
    );
    // A's other condition no longer holds: it is not looked at.
    bb_set(&mut a, "b", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&["check A#0 true", "tick B running", "tick Seq running"])
    );
    // The LowerPriority condition turns false: B is aborted and the Sequence fails.
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "check A#0 false",
            "abort B",
            "exit B aborted",
            "tick Seq failure",
            "exit Seq failure",
        ])
    );
}

#[test]
fn rule25_scripted_body_of_skipped_child_consumes_nothing() {
    let root = seq(
        "Seq",
        vec![
            scripted_with(
                "A",
                &["success", "failure"],
                json!([cond_abort("a", "LowerPriority")]),
            ),
            scripted("B", &["running", "running", "success"]),
        ],
    );
    let mut a = agent(root, flags());
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Running, Status::Running, Status::Success]
    );
    // A's body ran once so far: its second value (failure) comes next.
    assert_eq!(step(&mut a).0, Status::Failure);
}

// ---- Rule 26: Both ----

#[test]
fn rule26_both_acts_as_self_on_the_running_node() {
    let mut a = agent(
        scripted_with("A", &["running"], json!([cond_abort("a", "Both")])),
        flags(),
    );
    step(&mut a);
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["check A#0 false", "abort A", "exit A aborted"])
    );
}

#[test]
fn rule26_both_acts_as_lower_priority_under_a_selector() {
    let root = sel(
        "Sel",
        vec![
            scripted_with("A", &["success"], json!([cond_abort("a", "Both")])),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    bb_set(&mut a, "a", json!(false));
    step(&mut a);
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(events.contains(&"abort C".to_owned()));
}

#[test]
fn rule26_both_acts_as_lower_priority_under_a_sequence() {
    let root = seq(
        "Seq",
        vec![
            scripted_with("A", &["success"], json!([cond_abort("a", "Both")])),
            scripted("B", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    step(&mut a);
    assert_eq!(
        step(&mut a).1,
        strs(&["check A#0 true", "tick B running", "tick Seq running"])
    );
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "abort B",
            "exit B aborted",
            "tick Seq failure",
            "exit Seq failure"
        ])
    );
}

// ---- Rule 27: dynamic composites ----

#[test]
fn rule27_reactive_fallback_condition1_to_true() {
    // BT.CPP ReactiveFallbackTest.Condition1ToTrue.
    let root = dynamic(
        "Selector",
        "Root",
        vec![
            condition_leaf("Cond1", "a"),
            condition_leaf("Cond2", "b"),
            scripted("Action", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    bb_set(&mut a, "a", json!(false));
    bb_set(&mut a, "b", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["Cond1", "Cond2", "Action", "Root"]));
    // Every earlier child is re-ticked as a fresh execution each tick.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter Cond1",
            "tick Cond1 failure",
            "exit Cond1 failure",
            "enter Cond2",
            "tick Cond2 failure",
            "exit Cond2 failure",
            "tick Action running",
            "tick Root running",
        ])
    );
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter Cond1",
            "tick Cond1 success",
            "exit Cond1 success",
            "abort Action",
            "exit Action aborted",
            "tick Root success",
            "exit Root success",
        ])
    );
}

#[test]
fn rule27_reactive_fallback_earlier_running_child_becomes_current() {
    let root = dynamic(
        "Selector",
        "Root",
        vec![
            scripted("A", &["failure", "running", "success"]),
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
            "enter A",
            "tick A running",
            "abort B",
            "exit B aborted",
            "tick Root running"
        ])
    );
    // A is current now: resumed (no re-entry), B not ticked.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "tick A success",
            "exit A success",
            "tick Root success",
            "exit Root success"
        ])
    );
}

fn complex_sequence() -> Value {
    // BT.CPP ComplexSequenceTest: ReactiveSequence[Sequence[Cond1, Cond2], Action].
    dynamic(
        "Sequence",
        "Root",
        vec![
            seq(
                "Conds",
                vec![condition_leaf("Cond1", "a"), condition_leaf("Cond2", "b")],
            ),
            scripted("Action", &["running"]),
        ],
    )
}

#[test]
fn rule27_complex_sequence_conditions1_to_false() {
    let mut a = agent(complex_sequence(), flags());
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["Cond1", "Cond2", "Conds", "Action", "Root"])
    );
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["Cond1", "Cond2", "Conds", "Action", "Root"])
    );
    bb_set(&mut a, "a", json!(false));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter Conds",
            "enter Cond1",
            "tick Cond1 failure",
            "exit Cond1 failure",
            "tick Conds failure",
            "exit Conds failure",
            "abort Action",
            "exit Action aborted",
            "tick Root failure",
            "exit Root failure",
        ])
    );
}

#[test]
fn rule27_complex_sequence_conditions2_to_false() {
    let mut a = agent(complex_sequence(), flags());
    step(&mut a);
    bb_set(&mut a, "b", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["Cond1", "Cond2", "Conds", "Root"]));
    assert!(events.contains(&"abort Action".to_owned()));
}

#[test]
fn rule27_reactive_sequence_earlier_action_running_preempts_later_child() {
    // Rule 27's consequence: completed actions before the running child run again every tick,
    // and one that now returns running pre-empts the later child.
    let root = dynamic(
        "Sequence",
        "Root",
        vec![
            scripted("A", &["success", "running", "success"]),
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
            "enter A",
            "tick A running",
            "abort B",
            "exit B aborted",
            "tick Root running"
        ])
    );
    // A is current: it resumes and, succeeding, B enters afresh in the same tick.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "tick A success",
            "exit A success",
            "enter B",
            "tick B running",
            "tick Root running"
        ])
    );
}

#[test]
fn rule27_dynamic_ignores_decorator_abort_types() {
    // An earlier child with an abort-None condition is still re-ticked (conditions and
    // body) by a dynamic Selector.
    let root = dynamic(
        "Selector",
        "Root",
        vec![
            scripted_with("A", &["success"], json!([cond_abort("a", "None")])),
            scripted("B", &["running"]),
        ],
    );
    let mut a = agent(root, flags());
    bb_set(&mut a, "a", json!(false));
    step(&mut a);
    bb_set(&mut a, "a", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "Root"]));
}

#[test]
fn rule27_plain_composites_do_not_retick_earlier_children() {
    let root = seq(
        "Root",
        vec![
            scripted("A", &["success", "failure"]),
            scripted("B", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    step(&mut a);
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "Root"]));
}

// ---- Rule 28: abort procedure ----

#[test]
fn rule28_abort_events_parent_first_exit_events_child_first() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        seq("Seq", vec![
            scripted("X", &["success"]),
            json!({"type": "Parallel", "name": "Par", "params": {"need": 2}, "children": [
                json!({"type": "Repeat", "name": "Rep", "params": {"count": 0}, "children": [
                    scripted("A", &["running"])
                ]}),
                scripted("B", &["running"])
            ]})
        ])
    ]});
    let mut a = agent(root, json!([]));
    step(&mut a);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "abort Seq",
            "abort Par",
            "abort Rep",
            "abort A",
            "exit A aborted",
            "exit Rep aborted",
            "abort B",
            "exit B aborted",
            "exit Par aborted",
            "exit Seq aborted",
            "tick T failure",
            "exit T failure",
        ])
    );
}

#[test]
fn rule28_aborted_node_does_not_run_its_body() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        scripted("A", &["running"])
    ]});
    let mut a = agent(root, json!([]));
    step(&mut a);
    let (_, events) = step(&mut a);
    assert!(
        !events.iter().any(|e| e.starts_with("tick A")),
        "{events:?}"
    );
}

#[test]
fn rule28_abort_clears_sequence_and_selector_index() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        sel("Sel", vec![
            scripted("F", &["failure"]),
            seq("Seq", vec![scripted("A", &["success"]), scripted("B", &["running"])])
        ])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // Fresh execution from the first child of each composite.
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["F", "A", "B", "Seq", "Sel", "T"])
    );
}

#[test]
fn rule28_abort_keeps_scripted_cursor_limiter_blackboard_and_triggers() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        seq("Seq", vec![
            json!({"type": "Increment", "params": {"key": "n", "by": 1}}),
            json!({"type": "SetTrigger", "params": {"trigger": "t"}}),
            json!({"type": "Limiter", "name": "L", "params": {"max": 2}, "children": [
                scripted("A", &["running", "success"])
            ]})
        ])
    ]});
    let mut a = agent(root, json!([{"key": "n", "type": "int", "default": 0}]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    assert_eq!(bb(&a, "n"), json!(1));
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["t"]);
    // A's cursor moved on (its second value) and the Limiter's second start is used.
    assert_eq!(step(&mut a).0, Status::Success);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events).contains(&"A".to_owned()));
    assert_eq!(bb(&a, "n"), json!(3));
}

#[test]
fn rule28_leave_node_trigger_is_the_exception() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        scripted_with("A", &["running"], json!([
            {"type": "CheckTrigger", "params": {"trigger": "leave", "reset": "LeaveNode"}}
        ]))
    ]});
    let mut a = agent(root, json!([]));
    common::step_with(&mut a, 1.0, |a| {
        a.set_trigger("leave");
    });
    assert_eq!(a.triggers_set().collect::<Vec<_>>(), vec!["leave"]);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()));
    assert_eq!(a.triggers_set().count(), 0);
}

#[test]
fn rule28_aborting_an_idle_node_does_nothing() {
    let mut a = agent(seq("S", vec![scripted("A", &["success"])]), json!([]));
    let mut rec = Recorder::default();
    a.halt(&mut (), &mut rec);
    assert!(rec.events.is_empty());
    step(&mut a);
    a.halt(&mut (), &mut rec);
    assert!(rec.events.is_empty(), "the completed tree is idle");
}

#[test]
fn rule28_halt_aborts_the_running_tree() {
    let mut a = agent(
        seq(
            "S",
            vec![
                scripted("A", &["success"]),
                scripted("B", &["running", "success"]),
            ],
        ),
        json!([]),
    );
    step(&mut a);
    let mut rec = Recorder::default();
    a.halt(&mut (), &mut rec);
    assert_eq!(
        common::render(a.tree(), &rec),
        strs(&["abort S", "abort B", "exit B aborted", "exit S aborted"])
    );
    // Next tick starts afresh; B's cursor was kept.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "S"]));
}
