//! Rule 7: the Condition leaf. Success when the key holds a valid value (rule 33) equal to
//! `equals` under type-strict JSON equality; failure otherwise; never running. The
//! Condition and Precondition decorators use the same test.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb_set, bb_set_ttl, run_n, seq, step, step_with, try_compile};
use serde_json::{json, Value};

fn cond(key: &str, equals: Value) -> Value {
    json!({"type": "Condition", "name": "C", "params": {"key": key, "equals": equals}})
}

/// Ticks a Condition on a `json` key holding `stored` against `equals`.
fn json_compare(stored: Value, equals: Value) -> Status {
    let mut a = agent(cond("k", equals), json!([{"key": "k", "type": "json"}]));
    step_with(&mut a, 1.0, |a| bb_set(a, "k", stored)).0
}

#[test]
fn rule7_equal_value_succeeds_other_value_fails() {
    let mut a = agent(
        cond("hp", json!(3)),
        json!([{"key": "hp", "type": "int", "default": 3}]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
    bb_set(&mut a, "hp", json!(4));
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule7_never_running_and_no_state() {
    let mut a = agent(
        cond("hp", json!(3)),
        json!([{"key": "hp", "type": "int", "default": 3}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        common::strs(&["enter C", "tick C success", "exit C success"])
    );
    assert!(run_n(&mut a, 3).iter().all(|s| *s == Status::Success));
}

#[test]
fn rule7_boolean_never_equals_number() {
    assert_eq!(json_compare(json!(true), json!(1)), Status::Failure);
    assert_eq!(json_compare(json!(1), json!(true)), Status::Failure);
    assert_eq!(json_compare(json!(false), json!(0)), Status::Failure);
    assert_eq!(json_compare(json!(true), json!(true)), Status::Success);
}

#[test]
fn rule7_numbers_compare_numerically() {
    assert_eq!(json_compare(json!(1), json!(1.0)), Status::Success);
    assert_eq!(json_compare(json!(1.0), json!(1)), Status::Success);
    assert_eq!(json_compare(json!(1.5), json!(1)), Status::Failure);
    // Typed keys: an int key against 1.0, a float key against 1.
    let mut a = agent(
        cond("i", json!(1.0)),
        json!([{"key": "i", "type": "int", "default": 1}]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
    let mut a = agent(
        cond("f", json!(1)),
        json!([{"key": "f", "type": "float", "default": 1.0}]),
    );
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule7_number_never_equals_string() {
    assert_eq!(json_compare(json!("1"), json!(1)), Status::Failure);
    assert_eq!(json_compare(json!(1), json!("1")), Status::Failure);
}

#[test]
fn rule7_strings_arrays_objects_compare_structurally() {
    assert_eq!(json_compare(json!("red"), json!("red")), Status::Success);
    assert_eq!(json_compare(json!("red"), json!("Red")), Status::Failure);
    assert_eq!(json_compare(json!([1, 2]), json!([1, 2])), Status::Success);
    assert_eq!(json_compare(json!([1, 2]), json!([2, 1])), Status::Failure);
    assert_eq!(
        json_compare(json!([1, 2]), json!([1, 2, 3])),
        Status::Failure
    );
    assert_eq!(json_compare(json!([1]), json!([1.0])), Status::Success);
    assert_eq!(
        json_compare(json!({"a": 1, "b": [true]}), json!({"b": [true], "a": 1})),
        Status::Success
    );
    assert_eq!(
        json_compare(json!({"a": 1}), json!({"a": 1, "b": 2})),
        Status::Failure
    );
    assert_eq!(
        json_compare(json!({"a": true}), json!({"a": 1})),
        Status::Failure
    );
    assert_eq!(json_compare(json!([]), json!({})), Status::Failure);
}

#[test]
fn rule7_missing_key_is_false() {
    // Declared without a default: no valid value until written.
    let mut a = agent(cond("k", json!(0)), json!([{"key": "k", "type": "int"}]));
    assert_eq!(step(&mut a).0, Status::Failure);
    step_with(&mut a, 1.0, |a| bb_set(a, "k", json!(0)));
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule7_expired_key_is_false() {
    let mut a = agent(cond("k", json!(5)), json!([{"key": "k", "type": "int"}]));
    let (status, _) = step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(5), 2.0));
    assert_eq!(status, Status::Success);
    assert_eq!(step(&mut a).0, Status::Success, "now 2 <= 1 + 2");
    assert_eq!(step(&mut a).0, Status::Success, "now 3 <= 1 + 2");
    assert_eq!(step(&mut a).0, Status::Failure, "now 4 > 1 + 2");
}

#[test]
fn rule7_condition_decorator_uses_the_same_test() {
    let guarded = |equals: Value| {
        seq(
            "Seq",
            vec![
                json!({"type": "Scripted", "name": "A", "params": {"returns": ["success"]},
                       "decorators": [{"type": "Condition", "params": {"key": "k", "equals": equals}}]}),
            ],
        )
    };
    let stored = [json!(true), json!(1), json!([1, {"x": "y"}])];
    let tests = [
        (
            json!(1),
            [Status::Failure, Status::Success, Status::Failure],
        ),
        (
            json!(1.0),
            [Status::Failure, Status::Success, Status::Failure],
        ),
        (
            json!(true),
            [Status::Success, Status::Failure, Status::Failure],
        ),
        (
            json!([1.0, {"x": "y"}]),
            [Status::Failure, Status::Failure, Status::Success],
        ),
    ];
    for (equals, expected) in tests {
        for (value, want) in stored.iter().zip(expected) {
            let mut a = agent(
                guarded(equals.clone()),
                json!([{"key": "k", "type": "json"}]),
            );
            let (status, _) = step_with(&mut a, 1.0, |a| bb_set(a, "k", value.clone()));
            assert_eq!(status, want, "{value} vs {equals}");
        }
    }
}

#[test]
fn rule7_equals_must_have_the_key_type() {
    assert!(try_compile(cond("b", json!(1)), json!([{"key": "b", "type": "bool"}])).is_err());
    assert!(try_compile(
        cond("b", json!(true)),
        json!([{"key": "b", "type": "bool"}])
    )
    .is_ok());
}
