//! IfThenElse (BT.CPP `controls/if_then_else_node.cpp`): the condition child decides the
//! branch once per execution; the branch then runs to completion without the condition
//! being re-ticked; with two children a failed condition fails the node. Child counts
//! outside 2..=3 have Arbor-defined results (see the node's docs).

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, step_lifecycle, strs, ticked, try_compile};
use serde_json::{json, Value};

fn ite(children: Vec<Value>) -> Value {
    json!({"type": "IfThenElse", "name": "I", "children": children})
}

#[test]
fn rule37_condition_success_runs_then_in_the_same_tick() {
    let mut a = agent(
        ite(vec![
            scripted("C", &["success"]),
            scripted("T", &["success"]),
            scripted("E", &["success"]),
        ]),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "T", "I"]));
}

#[test]
fn rule37_condition_failure_runs_else_and_returns_its_status() {
    let mut a = agent(
        ite(vec![
            scripted("C", &["failure"]),
            scripted("T", &["success"]),
            scripted("E", &["failure"]),
        ]),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["C", "E", "I"]));
}

#[test]
fn rule37_two_children_and_a_failed_condition_fail() {
    let mut a = agent(
        ite(vec![
            scripted("C", &["failure"]),
            scripted("T", &["success"]),
        ]),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["C", "I"]));
}

#[test]
fn rule37_a_running_branch_resumes_without_re_ticking_the_condition() {
    // Not reactive: C would now fail, but it is not asked again until T completes.
    let mut a = agent(
        ite(vec![
            scripted("C", &["success", "failure"]),
            scripted("T", &["running", "running", "success"]),
            scripted("E", &["success"]),
        ]),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["C", "T", "I"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["T", "I"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["T", "I"]));
    // A fresh execution asks the condition again, which now fails: else runs.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "E", "I"]));
}

#[test]
fn rule37_a_running_condition_is_ticked_again() {
    let mut a = agent(
        ite(vec![
            scripted("C", &["running", "success"]),
            scripted("T", &["success"]),
        ]),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
}

#[test]
fn rule37_abort_clears_the_chosen_branch() {
    // The Timeout aborts I while T runs; the next execution starts at the condition again.
    let root = json!({"type": "Timeout", "name": "TO", "params": {"seconds": 1},
    "children": [ite(vec![
        scripted("C", &["success", "failure"]),
        scripted("T", &["running"]),
        scripted("E", &["success"]),
    ])]});
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort I".to_owned()), "{events:?}");
    assert!(events.contains(&"abort T".to_owned()), "{events:?}");
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "E", "I", "TO"]));
}

#[test]
fn rule37_the_loader_takes_two_or_three_children() {
    for count in [0usize, 1, 4] {
        let children = (0..count)
            .map(|k| scripted(&format!("C{k}"), &["success"]))
            .collect();
        let err = match try_compile(ite(children), json!([])) {
            Ok(_) => panic!("IfThenElse with {count} children loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains(&format!("IfThenElse takes 2 or 3 children; found {count}")),
            "{err}"
        );
    }
}
