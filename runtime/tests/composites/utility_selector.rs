//! Rule 78: UtilitySelector. Ticks the best-scoring candidate (the first of equal scores),
//! returns its status; without `dynamic` a running child keeps running; with `dynamic` a
//! strictly better child aborts it.

use crate::common;

use arbor_runtime::Status;
use common::{agent, agent_v2, bb_set, scripted, step, step_lifecycle, strs, ticked};
use serde_json::{json, Value};

fn utility(scores: Value, dynamic: bool, children: Vec<Value>) -> Value {
    json!({"type": "UtilitySelector", "name": "U",
           "params": {"scores": scores, "dynamic": dynamic}, "children": children})
}

fn keyed(dynamic: bool, children: Vec<Value>) -> (Value, Value) {
    (
        utility(json!({"$key": "u"}), dynamic, children),
        json!([{"key": "u", "type": "list<float>"}]),
    )
}

#[test]
fn rule78_ticks_the_highest_score_and_returns_its_status() {
    let children = vec![
        scripted("A", &["success"]),
        scripted("B", &["failure"]),
        scripted("C", &["success"]),
    ];
    let mut a = agent(utility(json!([1, 5, 2]), false, children), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(
        status,
        Status::Failure,
        "B fails and no other child is tried"
    );
    assert_eq!(ticked(&events), strs(&["B", "U"]));
}

#[test]
fn rule78_equal_scores_choose_the_first() {
    let children = vec![scripted("A", &["success"]), scripted("B", &["success"])];
    let mut a = agent(utility(json!([3, 3]), false, children), json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "U"]));
}

#[test]
fn rule78_children_without_a_score_are_not_candidates() {
    let children = vec![scripted("A", &["success"]), scripted("B", &["success"])];
    let (root, bb) = keyed(false, children.clone());
    let mut a = agent_v2(root, bb, 1);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure, "no value: no candidate");
    assert_eq!(ticked(&events), strs(&["U"]));
    // A list shorter than the children: B has no score.
    let mut a = agent(utility(json!([-4]), false, children), json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "U"]));
}

#[test]
fn rule78_without_dynamic_a_running_child_keeps_running() {
    let children = vec![
        scripted("A", &["running"]),
        scripted("B", &["running", "success"]),
    ];
    let (root, bb) = keyed(false, children);
    let mut a = agent_v2(root, bb, 1);
    bb_set(&mut a, "u", json!([0, 1]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "U"]));
    bb_set(&mut a, "u", json!([9, 1]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        ticked(&events),
        strs(&["B", "U"]),
        "scores not read while B runs"
    );
    // The next execution reads them again.
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "U"]));
}

#[test]
fn rule78_with_dynamic_a_strictly_better_child_aborts_the_running_one() {
    let children = vec![scripted("A", &["running"]), scripted("B", &["running"])];
    let (root, bb) = keyed(true, children);
    let mut a = agent_v2(root, bb, 1);
    bb_set(&mut a, "u", json!([0, 1]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "U"]));
    bb_set(&mut a, "u", json!([1, 1]));
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["B", "U"]),
        "equal keeps the running child"
    );
    bb_set(&mut a, "u", json!([2, 1]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "abort B",
            "exit B aborted",
            "enter A",
            "tick A running",
            "tick U running"
        ])
    );
}

#[test]
fn rule78_with_dynamic_a_running_child_that_loses_its_score_is_aborted() {
    let children = vec![scripted("A", &["running"]), scripted("B", &["running"])];
    let (root, bb) = keyed(true, children);
    let mut a = agent_v2(root, bb, 1);
    bb_set(&mut a, "u", json!([0, 1]));
    step(&mut a);
    bb_set(&mut a, "u", json!([0]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "U"]));
    let u = a.blackboard().key("u").expect("declared");
    a.blackboard_mut().unset(u);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()), "{events:?}");
}
