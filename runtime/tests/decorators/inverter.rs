//! Rule 15: the Inverter node swaps its child's success and failure; running passes
//! through. BT.CPP `Inverter_ChildSuccess` / `Inverter_ChildFailure`. (The attached
//! Inverter decorator, rule 29, is tested in attached_decorators.rs.)

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, step_lifecycle, strs, try_compile};
use serde_json::{json, Value};

fn inverter(child: Value) -> Value {
    json!({"type": "Inverter", "name": "I", "children": [child]})
}

#[test]
fn rule15_inverter_child_success_becomes_failure() {
    let mut a = agent(inverter(scripted("A", &["success"])), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter I",
            "enter A",
            "tick A success",
            "exit A success",
            "tick I failure",
            "exit I failure"
        ])
    );
}

#[test]
fn rule15_inverter_child_failure_becomes_success() {
    let mut a = agent(inverter(scripted("A", &["failure"])), json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule15_inverter_running_passes_through() {
    let mut a = agent(
        inverter(scripted("A", &["running", "running", "success"])),
        json!([]),
    );
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Running, Status::Running, Status::Failure]
    );
}

#[test]
fn rule15_inverter_resumes_running_child_without_reentering() {
    let mut a = agent(inverter(scripted("A", &["running", "failure"])), json!([]));
    step(&mut a);
    assert_eq!(
        step_lifecycle(&mut a),
        (
            Status::Success,
            strs(&[
                "tick A failure",
                "exit A failure",
                "tick I success",
                "exit I success"
            ])
        )
    );
}

#[test]
fn rule15_double_inverter_is_identity() {
    let mut a = agent(
        inverter(inverter(scripted("A", &["success", "failure"]))),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Success, Status::Failure]);
}

#[test]
fn rule15_inverter_needs_exactly_one_child() {
    assert!(try_compile(json!({"type": "Inverter"}), json!([])).is_err());
    assert!(try_compile(
        json!({"type": "Inverter", "children": [scripted("A", &["success"]), scripted("B", &["success"])]}),
        json!([])
    )
    .is_err());
}
