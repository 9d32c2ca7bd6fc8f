//! Rule 85: `TickMode::RetickAfterYield`, BehaviorTree.CPP 4.8's `tickOnce`. After a root
//! tick that returned `running` because a yielding node ended a run, the root is ticked
//! again at the same time, up to `MAX_RETICKS` times; `TickMode::Once` (the default,
//! BT.CPP's `tickExactlyOnce`) ticks it once.

use crate::common;

use arbor_runtime::{Status, TickMode, MAX_RETICKS};
use common::{agent, scripted, step, ticked};
use serde_json::{json, Value};

fn count(events: &[String], name: &str) -> usize {
    ticked(events).iter().filter(|n| *n == name).count()
}

/// A Retry over OpenDoor as the BT.CPP import writes it (`yield: true`).
fn retry_over_open_door() -> Value {
    json!({"type": "Retry", "name": "R", "params": {"attempts": 5, "yield": true},
           "children": [scripted("OpenDoor", &["failure", "running", "success"])]})
}

#[test]
fn rule85_retick_after_yield_starts_the_next_attempt_in_the_same_call() {
    // Observed in BT.CPP 4.8 (behaviortreepy 0.1.4): on a RetryUntilSuccessful over
    // OpenDoor, one `tickOnce` is [OpenDoor: start -> failure, OpenDoor: start -> running]:
    // the Retry yields RUNNING after the failed attempt and emits the wake-up signal, and
    // `Tree::tickRoot` ticks the root again before returning.
    let mut a = agent(retry_over_open_door(), json!([]));
    a.set_tick_mode(TickMode::RetickAfterYield);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(
        ticked(&events),
        ["OpenDoor", "R", "OpenDoor", "R"],
        "{events:?}"
    );
    // The running attempt resumes: no wake-up, one root tick.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(count(&events, "OpenDoor"), 1);
}

#[test]
fn rule85_tick_mode_once_leaves_the_next_attempt_to_the_next_call() {
    // BT.CPP's `tickExactlyOnce` on the same tree: [OpenDoor: start -> failure], RUNNING.
    let mut a = agent(retry_over_open_door(), json!([]));
    assert_eq!(a.tick_mode(), TickMode::Once);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), ["OpenDoor", "R"]);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count(&events, "OpenDoor"), 1);
}

#[test]
fn rule85_a_running_tick_without_a_yield_is_not_repeated() {
    let mut a = agent(scripted("A", &["running", "success"]), json!([]));
    a.set_tick_mode(TickMode::RetickAfterYield);
    let (status, events) = step(&mut a);
    assert_eq!((status, count(&events, "A")), (Status::Running, 1));
}

#[test]
fn rule85_a_sequence_with_memory_runs_its_instant_children_in_one_call() {
    // BT.CPP 4.8 SequenceWithMemory over A, B, C succeeding at once: RUNNING, RUNNING,
    // SUCCESS with `tickExactlyOnce` (rule 50), SUCCESS after one `tickOnce`.
    let tree = json!({"type": "Sequence", "name": "S", "params": {"memory": true},
        "children": [scripted("A", &["success"]), scripted("B", &["success"]),
                     scripted("C", &["success"])]});
    let mut a = agent(tree, json!([]));
    a.set_tick_mode(TickMode::RetickAfterYield);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        ["A", "B", "C"].map(|n| count(&events, n)),
        [1, 1, 1],
        "{events:?}"
    );
}

#[test]
fn rule85_reticks_are_bounded() {
    // BT.CPP's `tickOnce` never returns on an unbounded yielding Repeat over an action that
    // succeeds at once; Arbor stops after `MAX_RETICKS` extra root ticks.
    let tree = json!({"type": "Repeat", "name": "R", "params": {"count": -1, "yield": true},
        "children": [scripted("A", &["success"])]});
    let mut a = agent(tree, json!([]));
    a.set_tick_mode(TickMode::RetickAfterYield);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(count(&events, "A"), MAX_RETICKS as usize + 1);
}
