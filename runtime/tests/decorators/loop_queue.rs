//! Loop (rule 65; BT.CPP 4.8 `decorators/loop_node.h`, LoopInt/LoopDouble/LoopString/
//! LoopBool): one child run per element, one element per tick, the element written first.

use crate::common;

use arbor_runtime::{Registry, Status};
use common::{agent, bb, bb_set, run_n, scripted, step, strs, ticked, tree_json};
use serde_json::{json, Value};

fn looped(queue: Value, child: Value) -> Value {
    json!({"type": "Loop", "name": "L", "params": {"queue": queue, "value": "n"},
        "children": [child]})
}

/// A tree of format version 2 (list key types).
fn agent_v2(root: Value, blackboard: Value) -> arbor_runtime::Agent<()> {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    let tree = Registry::<()>::new()
        .loader()
        .load_str(&file.to_string(), None)
        .unwrap_or_else(|e| panic!("test tree should load: {e}"));
    arbor_runtime::Agent::new(std::sync::Arc::new(tree), 1)
}

fn load_error(root: Value, blackboard: Value) -> String {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    match Registry::<()>::new()
        .loader()
        .load_str(&file.to_string(), None)
    {
        Ok(_) => panic!("should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn one_element_per_tick_then_if_empty() {
    // BT.CPP: the child's success returns RUNNING; the tick after the last element returns
    // `if_empty` without ticking the child (seen in the differential tree loop_int.xml).
    let mut a = agent(
        looped(json!([1, 2, 3]), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}]),
    );
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Running);
        assert_eq!(ticked(&events), strs(&["A", "L"]));
        seen.push(bb(&a, "n"));
    }
    assert_eq!(seen, vec![json!(1), json!(2), json!(3)]);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), strs(&["L"]));
    // A literal queue is copied afresh on each start.
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(1));
}

#[test]
fn a_running_child_keeps_its_element_and_a_failure_ends_the_loop() {
    let mut a = agent(
        looped(json!([5, 6]), scripted("A", &["running", "failure"])),
        json!([{"key": "n", "type": "int"}]),
    );
    assert_eq!(run_n(&mut a, 2), vec![Status::Running, Status::Failure]);
    assert_eq!(
        bb(&a, "n"),
        json!(5),
        "no element taken while the child ran"
    );
}

#[test]
fn if_empty_failure_and_an_empty_queue_never_ticks_the_child() {
    let root = json!({"type": "Loop", "name": "L",
        "params": {"queue": [], "value": "n", "if_empty": "failure"},
        "children": [scripted("A", &["success"])]});
    let mut a = agent(root, json!([{"key": "n", "type": "int"}]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["L"]));
    assert_eq!(bb(&a, "n"), Value::Null);
}

#[test]
fn elements_take_the_value_keys_type() {
    let mut a = agent(
        looped(json!([1, 2.5]), scripted("A", &["success"])),
        json!([{"key": "n", "type": "float"}]),
    );
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(1.0));
    let err = common::try_compile(
        looped(json!(["x"]), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}]),
    )
    .expect_err("a string cannot go to an int key");
    assert!(err.to_string().contains("item 0"), "{err}");
}

#[test]
fn a_bound_queue_is_consumed_on_the_blackboard() {
    // BT.CPP pops the blackboard's queue in place: what is taken is gone for everyone.
    let mut a = agent_v2(
        looped(json!({"$key": "q"}), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}, {"key": "q", "type": "list<int>", "default": [7, 8]}]),
    );
    step(&mut a);
    assert_eq!((bb(&a, "n"), bb(&a, "q")), (json!(7), json!([8])));
    step(&mut a);
    assert_eq!((bb(&a, "n"), bb(&a, "q")), (json!(8), json!([])));
    assert_eq!(step(&mut a).0, Status::Success);
    // Started again, it finds the queue empty; a host refill is seen on the next start.
    assert_eq!(step(&mut a).0, Status::Success);
    bb_set(&mut a, "q", json!([9]));
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(9));
}

#[test]
fn rule65_a_walked_queue_key_is_read_by_position_and_kept_whole() {
    // BT.CPP 4.9+ over a `std::vector` (gtest_loop.cpp, RestartAfterCompletion_
    // VectorFromBlackboard): the vector is copied when the loop starts and the blackboard
    // keeps it, so running the loop again iterates over it again.
    let mut root = looped(json!({"$key": "q"}), scripted("A", &["success"]));
    root["params"]["consume"] = json!(false);
    let mut a = agent_v2(
        root,
        json!([{"key": "n", "type": "int"}, {"key": "q", "type": "list<int>", "default": [7, 8]}]),
    );
    step(&mut a);
    assert_eq!((bb(&a, "n"), bb(&a, "q")), (json!(7), json!([7, 8])));
    step(&mut a);
    assert_eq!((bb(&a, "n"), bb(&a, "q")), (json!(8), json!([7, 8])));
    assert_eq!(step(&mut a).0, Status::Success);
    // Started again: from the first element.
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(7));
    // Without a value, an empty queue; not a list, a failure (as when consumed).
    let mut root = looped(json!({"$key": "q"}), scripted("A", &["success"]));
    root["params"]["consume"] = json!(false);
    let mut a = agent_v2(
        root,
        json!([{"key": "n", "type": "int"}, {"key": "q", "type": "json"}]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
    bb_set(&mut a, "q", json!({"x": 1}));
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn a_bound_queue_without_a_value_is_empty_and_a_non_list_fails() {
    let mut a = agent_v2(
        looped(json!({"$key": "q"}), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}, {"key": "q", "type": "json"}]),
    );
    assert_eq!(step(&mut a).0, Status::Success, "no value: an empty queue");
    bb_set(&mut a, "q", json!("1;2"));
    assert_eq!(step(&mut a).0, Status::Failure, "not a list");
    bb_set(&mut a, "q", json!(["x"]));
    assert_eq!(
        step(&mut a).0,
        Status::Failure,
        "an element `n` cannot hold"
    );
}

#[test]
fn a_queue_key_must_be_a_list_of_the_values_type() {
    let err = load_error(
        looped(json!({"$key": "q"}), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}, {"key": "q", "type": "list<string>"}]),
    );
    assert!(err.contains("list<string>"), "{err}");
    let err = load_error(
        looped(json!("1;2;3"), scripted("A", &["success"])),
        json!([{"key": "n", "type": "int"}]),
    );
    assert!(err.contains("must be a list"), "{err}");
}
