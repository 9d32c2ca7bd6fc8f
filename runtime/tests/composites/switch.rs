//! Switch (BT.CPP `controls/switch_node.h`): the child whose case matches the key runs,
//! the last child is the default; the key is read every tick and a change aborts the
//! running child. Matching is BT.CPP's string/number equality.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb_set, scripted, step, step_lifecycle, strs, ticked, try_compile};
use serde_json::{json, Value};

fn switch(cases: Value, children: Vec<Value>) -> Value {
    let mut params = cases;
    params["variable"] = json!("mode");
    json!({"type": "Switch", "name": "S", "params": params, "children": children})
}

fn three_way() -> Value {
    switch(
        json!({"case_1": "patrol", "case_2": "42"}),
        vec![
            scripted("A", &["running"]),
            scripted("B", &["success"]),
            scripted("D", &["failure"]),
        ],
    )
}

#[test]
fn rule39_selects_the_matching_case_or_the_default() {
    let mut a = agent(three_way(), json!([{"key": "mode", "type": "json"}]));
    // No valid value: the default.
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["D", "S"]));
    bb_set(&mut a, "mode", json!("patrol"));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert_eq!(ticked(&events), strs(&["A", "S"]));
}

#[test]
fn rule39_numbers_match_numeric_case_text() {
    for value in [json!(42), json!(42.0), json!("42"), json!("42.0")] {
        let mut a = agent(three_way(), json!([{"key": "mode", "type": "json"}]));
        bb_set(&mut a, "mode", value.clone());
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "{value}");
        assert_eq!(ticked(&events), strs(&["B", "S"]), "{value}");
    }
    let mut a = agent(three_way(), json!([{"key": "mode", "type": "json"}]));
    bb_set(&mut a, "mode", json!(["patrol"]));
    assert_eq!(step(&mut a).0, Status::Failure, "arrays never match");
}

#[test]
fn rule39_booleans_match_true_and_false() {
    let tree = switch(
        json!({"case_1": "true", "case_2": "false"}),
        vec![
            scripted("Y", &["success"]),
            scripted("N", &["failure"]),
            scripted("D", &["running"]),
        ],
    );
    let mut a = agent(
        tree,
        json!([{"key": "mode", "type": "bool", "default": true}]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
    bb_set(&mut a, "mode", json!(false));
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule39_a_change_of_the_key_aborts_the_running_child() {
    let mut a = agent(
        three_way(),
        json!([{"key": "mode", "type": "string", "default": "patrol"}]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    // Same case: the running child is resumed, not restarted.
    let (_, events) = step_lifecycle(&mut a);
    assert_eq!(events, strs(&["tick A running", "tick S running"]));
    bb_set(&mut a, "mode", json!("42"));
    let (status, events) = step_lifecycle(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "abort A",
            "exit A aborted",
            "enter B",
            "tick B success",
            "exit B success",
            "tick S success",
            "exit S success",
        ])
    );
}

#[test]
fn rule39_cases_beyond_the_children_are_ignored() {
    // Three children: only case_1 and case_2 count; case_3 would select the default anyway.
    let tree = switch(
        json!({"case_1": "a", "case_2": "c", "case_3": "b"}),
        vec![
            scripted("A", &["success"]),
            scripted("C", &["success"]),
            scripted("D", &["failure"]),
        ],
    );
    let mut a = agent(
        tree,
        json!([{"key": "mode", "type": "string", "default": "b"}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), strs(&["D", "S"]));
}

#[test]
fn rule39_variable_must_be_a_declared_key() {
    let err = try_compile(three_way(), json!([])).unwrap_err();
    assert!(err.to_string().contains("mode"), "{err}");
}

#[test]
fn rule39_the_loader_takes_two_to_six_cases_and_a_default() {
    for count in [0usize, 1, 2, 8] {
        let children = (0..count)
            .map(|k| scripted(&format!("C{k}"), &["success"]))
            .collect();
        let tree = switch(json!({"case_1": "a", "case_2": "b"}), children);
        let err = match try_compile(tree, json!([{"key": "mode", "type": "string"}])) {
            Ok(_) => panic!("Switch with {count} children loaded"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains(&format!("Switch takes 3 to 7 children; found {count}")),
            "{err}"
        );
    }
}
