//! Rule 10: the Sequence (an AND with memory). Children run left to right; success moves
//! on in the same tick (rule 5), running suspends and the next tick resumes at that child
//! without re-ticking earlier ones, failure fails the Sequence; after completing it starts
//! again at child 0 (rule 4). BT.CPP `SequenceTripleActionTest`,
//! `SimpleSequenceWithMemoryTest.ConditionTurnToFalse`.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb_set, run_n, scripted, seq, step, step_lifecycle, strs, ticked, try_compile,
};
use serde_json::{json, Value};

#[test]
fn rule10_all_children_succeed_in_one_tick() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "Seq"]));
}

#[test]
fn rule10_sequence_triple_action_each_child_ticked_once() {
    // BT.CPP SequenceTripleActionTest.TripleAction: A succeeds at once, B runs for a few
    // ticks, C follows; every child's body runs exactly once per transition.
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "running", "success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let t1 = ticked(&step(&mut a).1);
    let t2 = ticked(&step(&mut a).1);
    let (status, e3) = step(&mut a);
    assert_eq!(t1, strs(&["A", "B", "Seq"]));
    assert_eq!(t2, strs(&["B", "Seq"]));
    assert_eq!(ticked(&e3), strs(&["B", "C", "Seq"]));
    assert_eq!(status, Status::Success);
}

#[test]
fn rule10_running_child_resumes_without_reticking_earlier() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "running", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(events, strs(&["tick B running", "tick Seq running"]));
}

#[test]
fn rule10_completed_condition_not_reticked_while_later_child_runs() {
    // BT.CPP SimpleSequenceWithMemoryTest.ConditionTurnToFalse: the condition turns false
    // while the action runs; the Sequence does not look at it again.
    let root = seq(
        "Seq",
        vec![
            json!({"type": "Condition", "name": "Cond", "params": {"key": "ok", "equals": true}}),
            scripted("Act", &["running", "running", "success"]),
        ],
    );
    let mut a = agent(
        root,
        json!([{"key": "ok", "type": "bool", "default": true}]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    bb_set(&mut a, "ok", json!(false));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["Act", "Seq"]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule10_failure_fails_sequence_and_later_children_are_not_ticked() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["failure"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "Seq"]));
}

#[test]
fn rule10_running_then_failure_fails_in_that_tick() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["running", "failure"]),
            scripted("B", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
}

#[test]
fn rule10_after_completion_restarts_at_child_zero() {
    let root = seq(
        "Seq",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "failure", "running", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    assert_eq!(step(&mut a).0, Status::Failure);
    // Fresh execution: A is entered and ticked again before B.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter Seq",
            "enter A",
            "tick A success",
            "exit A success",
            "enter B",
            "tick B running",
            "tick Seq running",
        ])
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["B", "Seq"]));
}

#[test]
fn rule10_nested_sequences_resume_at_the_deepest_running_child() {
    let root = seq(
        "Outer",
        vec![
            scripted("A", &["success"]),
            seq(
                "Inner",
                vec![
                    scripted("B", &["success"]),
                    scripted("C", &["running", "success"]),
                ],
            ),
            scripted("D", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["A", "B", "C", "Inner", "Outer"])
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["C", "Inner", "D", "Outer"]));
}

fn memory_seq(children: Vec<serde_json::Value>) -> serde_json::Value {
    json!({"type": "Sequence", "name": "S", "params": {"memory": true}, "children": children})
}

#[test]
fn rule50_memory_sequence_runs_one_instant_child_per_tick() {
    // Observed in BT.CPP 4.8 (behaviortreepy 0.1.4, tickExactlyOnce): SequenceWithMemory
    // over three actions that succeed at once returns RUNNING [A], RUNNING [B],
    // SUCCESS [C], then starts again at A.
    let mut a = agent(
        memory_seq(vec![
            scripted("A", &["success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ]),
        json!([]),
    );
    let mut seen = Vec::new();
    for _ in 0..4 {
        let (status, events) = step(&mut a);
        let leaves: Vec<String> = ticked(&events).into_iter().filter(|n| n != "S").collect();
        seen.push((status, leaves));
    }
    assert_eq!(
        seen,
        [
            (Status::Running, strs(&["A"])),
            (Status::Running, strs(&["B"])),
            (Status::Success, strs(&["C"])),
            (Status::Running, strs(&["A"])),
        ]
    );
}

#[test]
fn rule50_memory_sequence_resumes_at_the_failed_child() {
    // Observed in BT.CPP 4.8: with B failing once, RUNNING [A], FAILURE [B], then the next
    // tick resumes at B (A is not run again): RUNNING [B], SUCCESS [C].
    let mut a = agent(
        memory_seq(vec![
            scripted("A", &["success"]),
            scripted("B", &["failure", "success"]),
            scripted("C", &["success"]),
        ]),
        json!([]),
    );
    let mut seen = Vec::new();
    for _ in 0..4 {
        let (status, events) = step(&mut a);
        let leaves: Vec<String> = ticked(&events).into_iter().filter(|n| n != "S").collect();
        seen.push((status, leaves));
    }
    assert_eq!(
        seen,
        [
            (Status::Running, strs(&["A"])),
            (Status::Failure, strs(&["B"])),
            (Status::Running, strs(&["B"])),
            (Status::Success, strs(&["C"])),
        ]
    );
}

fn yielding(kind: &str, children: Vec<Value>) -> Value {
    json!({"type": kind, "name": "S", "params": {"yield": true}, "children": children})
}

/// `n` ticks: each one's root status and the nodes whose body ran.
fn run_ticks(a: &mut arbor_runtime::Agent<()>, n: usize) -> Vec<(Status, Vec<String>)> {
    (0..n)
        .map(|_| {
            let (s, e) = step(a);
            (s, ticked(&e))
        })
        .collect()
}

#[test]
fn rule63_yielding_sequence_and_selector_end_the_tick_after_an_instant_completion() {
    // BT.CPP 4.8: AsyncSequence over A, B, C succeeding at once, and AsyncFallback over
    // A, B failing and C succeeding: RUNNING [A], RUNNING [B], SUCCESS [C].
    for (kind, first) in [("Sequence", "success"), ("Selector", "failure")] {
        let root = yielding(
            kind,
            vec![
                scripted("A", &[first]),
                scripted("B", &[first]),
                scripted("C", &["success"]),
            ],
        );
        let mut a = agent(root, json!([]));
        assert_eq!(
            run_ticks(&mut a, 3),
            [
                (Status::Running, strs(&["A", "S"])),
                (Status::Running, strs(&["B", "S"])),
                (Status::Success, strs(&["C", "S"])),
            ],
            "{kind}"
        );
    }
}

#[test]
fn rule63_a_yielding_sequence_forgets_a_failure_and_moves_on_after_a_resumed_child() {
    // BT.CPP 4.8 AsyncSequence with B failing once: RUNNING [A], FAILURE [B], RUNNING [A]
    // (no memory, unlike SequenceWithMemory); with A running once: RUNNING [A],
    // RUNNING [A, B].
    let root = yielding(
        "Sequence",
        vec![
            scripted("A", &["success"]),
            scripted("B", &["failure", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "S"]));
    let (status, events) = step(&mut a);
    assert_eq!(
        (status, ticked(&events)),
        (Status::Failure, strs(&["B", "S"]))
    );
    let (status, events) = step(&mut a);
    assert_eq!(
        (status, ticked(&events)),
        (Status::Running, strs(&["A", "S"]))
    );

    let root = yielding(
        "Sequence",
        vec![
            scripted("A", &["running", "success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(
        (status, ticked(&events)),
        (Status::Running, strs(&["A", "B", "S"]))
    );
}

#[test]
fn rule63_yield_and_dynamic_are_exclusive() {
    for kind in ["Sequence", "Selector"] {
        let root = json!({"type": kind, "params": {"yield": true, "dynamic": true},
                          "children": [scripted("A", &["success"])]});
        let err = try_compile(root, json!([]))
            .map(|_| ())
            .expect_err("refused");
        assert!(err.to_string().contains("`dynamic` and `yield`"), "{err}");
    }
}
