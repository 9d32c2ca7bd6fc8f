//! Rules 13 and 14: the threshold Parallel. `need' = clamp(need, 1, n)`; each tick
//! unfinished children are ticked in order, a success is flagged and never re-ticked in
//! this execution, a failure counts for this tick only (the child is ticked again, fresh,
//! next tick); success as soon as `need'` children finished, failure as soon as this
//! tick's failures exceed `n - need'`, later children then not ticked. On completion and
//! on its own abort, running children are aborted in child order, before its exit; the
//! finished flags are cleared.

use crate::common;

use arbor_runtime::Status;
use common::{agent, run_n, scripted, step, step_lifecycle, strs, ticked};
use serde_json::{json, Value};

fn parallel(need: i64, children: Vec<Value>) -> Value {
    json!({"type": "Parallel", "name": "P", "params": {"need": need}, "children": children})
}

#[test]
fn rule13_succeeds_when_need_children_succeeded() {
    let root = parallel(
        2,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "success"]),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "P"]));
    // A is flagged finished: counted without being ticked. B makes two: success at once,
    // C is not ticked this tick but aborted, before P's exit.
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "tick B success",
            "exit B success",
            "abort C",
            "exit C aborted",
            "tick P success",
            "exit P success",
        ])
    );
}

#[test]
fn rule13_finished_children_are_not_reticked() {
    let root = parallel(
        2,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "running", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "P"]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "P"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["B", "P"]));
}

#[test]
fn rule13_failed_child_is_reticked_next_tick_as_fresh_execution() {
    let root = parallel(
        1,
        vec![
            scripted("A", &["failure", "failure", "success"]),
            scripted("B", &["running"]),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        events,
        strs(&[
            "enter A",
            "tick A failure",
            "exit A failure",
            "tick B running",
            "tick C running",
            "tick P running",
        ])
    );
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter A",
            "tick A success",
            "exit A success",
            "abort B",
            "exit B aborted",
            "abort C",
            "exit C aborted",
            "tick P success",
            "exit P success",
        ])
    );
}

#[test]
fn rule13_failures_count_for_this_tick_only() {
    // n = 3, need 2: fails when this tick's failures exceed 1. A and B fail on different
    // ticks, never together, so the Parallel keeps running.
    let root = parallel(
        2,
        vec![
            scripted("A", &["failure", "running"]),
            scripted("B", &["running", "failure", "running"]),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(run_n(&mut a, 4), vec![Status::Running; 4]);
}

#[test]
fn rule13_fails_when_failures_exceed_n_minus_need() {
    let root = parallel(
        2,
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running"]),
            scripted("C", &["failure"]),
            scripted("D", &["success"]),
        ],
    );
    // n = 4, need 2: failures must exceed 2, and only two fail.
    let mut a = agent(root.clone(), json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "D", "P"]));

    let root = parallel(
        3,
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running"]),
            scripted("C", &["failure"]),
            scripted("D", &["success"]),
        ],
    );
    // n = 4, need 3: the second failure exceeds 1; D is not ticked, B is aborted.
    let mut a = agent(root, json!([]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "C", "P"]));
    assert_eq!(
        events[events.len() - 4..],
        strs(&[
            "abort B",
            "exit B aborted",
            "tick P failure",
            "exit P failure"
        ])
    );
}

#[test]
fn rule13_threshold_reached_mid_loop_stops_ticking_later_children() {
    let root = parallel(
        2,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
}

#[test]
fn rule13_need_is_clamped_to_at_least_one() {
    // Unclamped, need 0 would succeed before ticking anything; clamped to 1 it ticks A
    // (failure, 1 is not more than 2 - 1) and succeeds with B.
    for need in [0, -3] {
        let root = parallel(
            need,
            vec![scripted("A", &["failure"]), scripted("B", &["success"])],
        );
        let mut a = agent(root, json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "need {need}");
        assert_eq!(ticked(&events), strs(&["A", "B", "P"]), "need {need}");
    }
}

#[test]
fn rule13_need_is_clamped_to_at_most_n() {
    let all_succeed = parallel(
        5,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["success"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(all_succeed, json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
    // need' = 3 = n: any failure exceeds n - need' = 0.
    let one_fails = parallel(
        5,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["failure"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(one_fails, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
}

#[test]
fn rule13_need_defaults_to_one() {
    let root = json!({"type": "Parallel", "name": "P", "children": [
        scripted("A", &["running"]), scripted("B", &["success"])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule14_running_children_aborted_in_child_order_before_parallel_exit() {
    let root = parallel(
        1,
        vec![
            scripted("A", &["running"]),
            scripted("B", &["running"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "enter P",
            "enter A",
            "tick A running",
            "enter B",
            "tick B running",
            "enter C",
            "tick C success",
            "exit C success",
            "abort A",
            "exit A aborted",
            "abort B",
            "exit B aborted",
            "tick P success",
            "exit P success",
        ])
    );
}

#[test]
fn rule14_aborted_parallel_aborts_running_children_in_order() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        parallel(3, vec![
            scripted("A", &["running"]),
            scripted("B", &["success"]),
            json!({"type": "Sequence", "name": "S", "children": [scripted("C", &["running"])]}),
        ])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    // Abort events parent first, exits child first (rule 28); B finished and is idle.
    assert_eq!(
        events,
        strs(&[
            "abort P",
            "abort A",
            "exit A aborted",
            "abort S",
            "abort C",
            "exit C aborted",
            "exit S aborted",
            "exit P aborted",
            "tick T failure",
            "exit T failure",
        ])
    );
}

#[test]
fn rule14_finished_flags_cleared_on_completion() {
    let root = parallel(
        2,
        vec![
            scripted("A", &["success"]),
            scripted("B", &["running", "failure", "running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["B", "P"]));
    // Next execution: A is no longer flagged and is ticked again.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
}

#[test]
fn rule14_finished_flags_cleared_on_abort() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 2}, "children": [
        parallel(2, vec![scripted("A", &["success"]), scripted("B", &["running"])])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "P", "T"]));
    assert_eq!(ticked(&step(&mut a).1), strs(&["B", "P", "T"]));
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(ticked(&step(&mut a).1), strs(&["A", "B", "P", "T"]));
}

#[test]
fn rule13_repeat_over_parallel_of_the_needs_example() {
    // The needs-driven character of rule 35, Repeat(Parallel(need 1)[Selector[...], Alive]),
    // scaled down: the Parallel finishes when the work Sequence finishes, aborting the
    // still-running Alive, and the Repeat starts it again in the same tick.
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 2}, "children": [
        parallel(1, vec![
            json!({"type": "Selector", "name": "Work", "children": [
                {"type": "Sequence", "name": "Need", "children": [
                    scripted("Feel", &["success"]),
                    scripted("Walk", &["running", "success"]),
                    scripted("Act", &["success"])
                ]}
            ]}),
            scripted("Alive", &["running"]),
        ])
    ]});
    let mut a = agent(root, json!([]));
    assert_eq!(
        ticked(&step(&mut a).1),
        strs(&["Feel", "Walk", "Need", "Work", "Alive", "P", "R"])
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        ticked(&events),
        strs(&[
            "Walk", "Act", "Need", "Work", "P", "Feel", "Walk", "Act", "Need", "Work", "P", "R"
        ])
    );
    assert!(events.contains(&"abort Alive".to_owned()));
}

fn counting(need: i64, failures: i64, children: Vec<Value>) -> Value {
    json!({"type": "Parallel", "name": "P", "params": {"need": need, "failures": failures},
           "children": children})
}

#[test]
fn rule62_a_failed_child_is_not_ticked_again() {
    // BT.CPP 4.8 `Parallel success_count="1" failure_count="2"` (differential test,
    // parallel_one.xml): the failed child stays failed; the other's success wins.
    let root = counting(
        1,
        2,
        vec![
            scripted("A", &["failure", "success"]),
            scripted("B", &["running", "success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["B", "P"]), "A is not ticked again");
}

#[test]
fn rule62_failures_count_over_the_execution() {
    // Two failures in different ticks reach `failures: 2`; rule 13 would keep going.
    let root = counting(
        1,
        2,
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["running", "failure"]),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Failure);
    // B's failure is the second: C is not ticked, it is aborted before P's exit.
    assert_eq!(
        events,
        strs(&[
            "tick B failure",
            "exit B failure",
            "abort C",
            "exit C aborted",
            "tick P failure",
            "exit P failure",
        ])
    );
}

#[test]
fn rule62_success_is_checked_first_and_counts_earlier_ticks() {
    // need 2 of 3: C succeeded at tick 1, so A's success at tick 2 is the second one and
    // B is not ticked (rule 13 would tick B before counting C).
    let root = counting(
        2,
        3,
        vec![
            scripted("A", &["running", "success"]),
            scripted("B", &["running"]),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["A", "P"]));
}

#[test]
fn rule62_fails_once_need_successes_are_out_of_reach() {
    // need 2 of 3 with `failures: 3`: after two failures only one child can succeed.
    let root = counting(
        2,
        3,
        vec![
            scripted("A", &["failure"]),
            scripted("B", &["failure"]),
            scripted("C", &["running"]),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
    // Flags and counts are cleared: the next execution starts from scratch.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["A", "B", "P"]));
}
