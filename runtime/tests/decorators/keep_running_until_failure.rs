//! KeepRunningUntilFailure (BT.CPP `decorators/keep_running_until_failure_node.h`): a
//! succeeding child is restarted on the next tick (running meanwhile); failure ends it.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, step_lifecycle, strs};
use serde_json::json;

#[test]
fn rule40_success_keeps_running_and_failure_fails() {
    let tree = json!({"type": "KeepRunningUntilFailure", "name": "K",
        "children": [scripted("A", &["success", "running", "success", "failure"])]});
    let mut a = agent(tree, json!([]));
    assert_eq!(
        run_n(&mut a, 4),
        vec![
            Status::Running,
            Status::Running,
            Status::Running,
            Status::Failure
        ]
    );
}

#[test]
fn rule40_the_child_restarts_once_per_tick() {
    let tree = json!({"type": "KeepRunningUntilFailure", "name": "K",
        "children": [scripted("A", &["success"])]});
    let mut a = agent(tree, json!([]));
    step(&mut a);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter A",
            "tick A success",
            "exit A success",
            "tick K running"
        ])
    );
}
