//! Rule 16: Succeeder (BT.CPP ForceSuccess) and ForceFailure. Running passes through; once
//! the child completes, with either status, a Succeeder succeeds and a ForceFailure fails.
//! BT.CPP `ForceSuccess_*` / `ForceFailure_*`.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, strs};
use serde_json::{json, Value};

fn wrap(kind: &str, child: Value) -> Value {
    json!({"type": kind, "name": "D", "children": [child]})
}

#[test]
fn rule16_succeeder_turns_both_outcomes_into_success() {
    for child in ["success", "failure"] {
        let mut a = agent(wrap("Succeeder", scripted("A", &[child])), json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "child {child}");
        assert_eq!(
            events,
            strs(&[
                "enter D",
                "enter A",
                &format!("tick A {child}"),
                &format!("exit A {child}"),
                "tick D success",
                "exit D success"
            ])
        );
    }
}

#[test]
fn rule16_force_failure_turns_both_outcomes_into_failure() {
    for child in ["success", "failure"] {
        let mut a = agent(wrap("ForceFailure", scripted("A", &[child])), json!([]));
        assert_eq!(step(&mut a).0, Status::Failure, "child {child}");
    }
}

#[test]
fn rule16_running_passes_through() {
    let mut a = agent(
        wrap("Succeeder", scripted("A", &["running", "failure"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    let mut a = agent(
        wrap("ForceFailure", scripted("A", &["running", "success"])),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
}

#[test]
fn rule16_succeeder_makes_a_sequence_continue() {
    let root = json!({"type": "Sequence", "name": "S", "children": [
        wrap("Succeeder", scripted("A", &["failure"])),
        scripted("B", &["success"])
    ]});
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(common::ticked(&events), strs(&["A", "D", "B", "S"]));
}
