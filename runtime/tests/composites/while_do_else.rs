//! WhileDoElse (BT.CPP `controls/while_do_else_node.cpp`): the condition is ticked every
//! tick; a change of its result aborts the running branch and starts the other one.

use crate::common;

use arbor_runtime::Status;
use common::{agent, scripted, step, step_lifecycle, strs, ticked, try_compile};
use serde_json::{json, Value};

fn wde(children: Vec<Value>) -> Value {
    json!({"type": "WhileDoElse", "name": "W", "children": children})
}

#[test]
fn rule38_condition_is_re_ticked_every_tick_while_do_runs() {
    let mut a = agent(
        wde(vec![
            scripted("C", &["success"]),
            scripted("D", &["running", "running", "success"]),
            scripted("E", &["success"]),
        ]),
        json!([]),
    );
    for _ in 0..2 {
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Running);
        assert_eq!(ticked(&events), strs(&["C", "D", "W"]));
    }
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "D", "W"]));
}

#[test]
fn rule38_a_change_of_condition_aborts_do_and_runs_else() {
    let mut a = agent(
        wde(vec![
            scripted("C", &["success", "failure"]),
            scripted("D", &["running"]),
            scripted("E", &["running", "success"]),
        ]),
        json!([]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter C",
            "tick C failure",
            "exit C failure",
            "abort D",
            "exit D aborted",
            "enter E",
            "tick E running",
            "tick W running",
        ])
    );
    let (status, _) = step(&mut a);
    assert_eq!(status, Status::Success);
}

#[test]
fn rule38_two_children_fail_when_the_condition_fails_and_abort_do() {
    let mut a = agent(
        wde(vec![
            scripted("C", &["success", "failure"]),
            scripted("D", &["running"]),
        ]),
        json!([]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort D".to_owned()), "{events:?}");
    assert_eq!(events.last().map(String::as_str), Some("exit W failure"));
}

#[test]
fn rule38_a_condition_back_to_success_aborts_else_and_runs_do() {
    let mut a = agent(
        wde(vec![
            scripted("C", &["failure", "success"]),
            scripted("D", &["success"]),
            scripted("E", &["running"]),
        ]),
        json!([]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter C",
            "tick C success",
            "exit C success",
            "abort E",
            "exit E aborted",
            "enter D",
            "tick D success",
            "exit D success",
            "tick W success",
            "exit W success",
        ])
    );
}

#[test]
fn rule38_a_running_condition_leaves_the_branch_untouched() {
    let mut a = agent(
        wde(vec![
            scripted("C", &["success", "running", "success"]),
            scripted("D", &["running", "success"]),
            scripted("E", &["success"]),
        ]),
        json!([]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["C", "W"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "D", "W"]));
}

#[test]
fn rule38_the_loader_takes_two_or_three_children() {
    for count in [0usize, 1, 4] {
        let children = (0..count)
            .map(|k| scripted(&format!("C{k}"), &["success"]))
            .collect();
        let err = match try_compile(wde(children), json!([])) {
            Ok(_) => panic!("WhileDoElse with {count} children loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains(&format!("WhileDoElse takes 2 or 3 children; found {count}")),
            "{err}"
        );
    }
}
