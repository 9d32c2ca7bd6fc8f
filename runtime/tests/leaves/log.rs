//! The Log leaf: hands its message to the observer during its body and succeeds (rule 3's
//! lifecycle applies as to any leaf).

use crate::common;

use arbor_runtime::Status;
use common::{agent, scripted_with, seq, step, step_lifecycle, strs};
use serde_json::json;

#[test]
fn rule45_log_reports_message_in_its_body_and_succeeds() {
    let root = json!({"type": "Log", "name": "L", "params": {"message": "reached the door"}});
    let mut a = agent(root, json!([]));
    assert_eq!(
        step(&mut a),
        (
            Status::Success,
            strs(&[
                "enter L",
                "log L reached the door",
                "tick L success",
                "exit L success"
            ])
        )
    );
}

#[test]
fn rule45_log_runs_in_tree_order_and_only_when_ticked() {
    let root = seq(
        "Seq",
        vec![
            json!({"type": "Log", "name": "L1", "params": {"message": "one"}}),
            scripted_with(
                "A",
                &["success"],
                json!([{"type": "Condition", "params": {"key": "go", "equals": true}}]),
            ),
            json!({"type": "Log", "name": "L2", "params": {"message": "two"}}),
        ],
    );
    let mut a = agent(
        root,
        json!([{"key": "go", "type": "bool", "default": false}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    let logs: Vec<_> = events.iter().filter(|e| e.starts_with("log")).collect();
    assert_eq!(logs, vec!["log L1 one"]);
    let (_, lifecycle) = step_lifecycle(&mut a);
    assert!(!lifecycle.iter().any(|e| e.starts_with("log")));
}

#[test]
fn rule45_log_without_an_observer_only_succeeds() {
    let root = json!({"type": "Log", "name": "L", "params": {"message": "reached the door"}});
    let mut a = agent(root, json!([]));
    for _ in 0..3 {
        assert_eq!(a.tick(&mut (), 1.0), Status::Success);
    }
}
