//! ParallelAll (rule 64; BT.CPP 4.8 `controls/parallel_all_node.cpp`): every child runs to
//! completion, each once per execution, then the failures decide.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, strs, ticked, try_compile};
use serde_json::{json, Value};

fn all(max_failures: i64, children: Vec<Value>) -> Value {
    json!({"type": "ParallelAll", "name": "P", "params": {"max_failures": max_failures},
        "children": children})
}

#[test]
fn runs_until_every_child_completed_and_a_completed_child_is_not_ticked_again() {
    let mut a = agent(
        all(
            1,
            vec![
                scripted("A", &["success"]),
                scripted("B", &["running", "running", "success"]),
            ],
        ),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        ticked(&events),
        strs(&["B", "P"]),
        "A completed: not ticked again"
    );
    let (status, _) = step(&mut a);
    assert_eq!(status, Status::Success);
    // A new execution ticks every child again.
    let (_, events) = step(&mut a);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
}

#[test]
fn a_failure_does_not_stop_it_early() {
    // BT.CPP's ParallelAll keeps ticking the other children after a failure (the
    // Parallel with `failures` stops at the threshold, rule 62).
    let mut a = agent(
        all(
            1,
            vec![
                scripted("A", &["failure"]),
                scripted("B", &["running", "success"]),
            ],
        ),
        json!([]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
}

#[test]
fn max_failures_counts_failures_over_the_execution() {
    let two_fail = || {
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running", "failure"]),
            scripted("C", &["success"]),
        ]
    };
    let mut a = agent(all(2, two_fail()), json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    let mut a = agent(all(3, two_fail()), json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    // -1: all three must fail.
    let mut a = agent(all(-1, two_fail()), json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Success]);
    // 0: BT.CPP fails whatever the children did (no failure is >= 0).
    let mut a = agent(all(0, vec![scripted("A", &["success"])]), json!([]));
    assert_eq!(run_n(&mut a, 1), vec![Status::Failure]);
}

#[test]
fn an_abort_resets_the_count_and_the_completed_children() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 0.5},
        "children": [all(1, vec![scripted("A", &["failure", "success"]),
                                 scripted("B", &["running"])])]});
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    // Timed out: the next execution ticks A again and has counted nothing.
    let (_, events) = step(&mut a);
    assert_eq!(ticked(&events)[..2], strs(&["A", "B"]));
}

#[test]
fn max_failures_must_be_a_literal_integer() {
    let err = try_compile(
        json!({"type": "ParallelAll", "params": {"max_failures": "x"},
            "children": [scripted("A", &["success"])]}),
        json!([]),
    )
    .expect_err("refused");
    assert!(err.to_string().contains("max_failures"), "{err}");
}
