//! RunOnce (BT.CPP `decorators/run_once_node.h`): the child runs to completion once per
//! agent; afterwards `then_skip: true` succeeds (BT.CPP's SKIPPED, as a Sequence sees it)
//! and `then_skip: false` repeats the first result. An aborted run does not count.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, strs, ticked};
use serde_json::{json, Value};

fn run_once(then_skip: Option<bool>, child: Value) -> Value {
    let mut node = json!({"type": "RunOnce", "name": "O", "children": [child]});
    if let Some(skip) = then_skip {
        node["params"] = json!({"then_skip": skip});
    }
    node
}

#[test]
fn rule42_the_child_runs_once_then_the_node_succeeds_without_it() {
    let mut a = agent(
        run_once(None, scripted("A", &["running", "failure"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    for _ in 0..3 {
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success);
        assert_eq!(ticked(&events), strs(&["O"]));
    }
}

#[test]
fn rule42_then_skip_false_repeats_the_first_result() {
    let mut a = agent(
        run_once(Some(false), scripted("A", &["failure", "success"])),
        json!([]),
    );
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Failure, Status::Failure, Status::Failure]
    );
}

#[test]
fn rule42_an_aborted_run_does_not_count() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1},
        "children": [run_once(Some(false), scripted("A", &["running", "success"]))]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // A runs again (its script is now at "success"), and that result sticks.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(ticked(&events).contains(&"A".to_owned()));
    let (_, events) = step(&mut a);
    assert!(!ticked(&events).contains(&"A".to_owned()));
}

#[test]
fn rule42_a_one_time_set_up_step_in_a_sequence() {
    let tree = json!({"type": "Sequence", "name": "Q", "children": [
        run_once(None, scripted("Init", &["success"])),
        scripted("Work", &["success"]),
    ]});
    let mut a = agent(tree, json!([]));
    let (_, first) = step(&mut a);
    let (_, second) = step(&mut a);
    assert_eq!(ticked(&first), strs(&["Init", "O", "Work", "Q"]));
    assert_eq!(ticked(&second), strs(&["O", "Work", "Q"]));
}
