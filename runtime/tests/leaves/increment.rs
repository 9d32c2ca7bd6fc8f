//! Rule 8: the Increment leaf writes `key := (valid value of key, or 0) + by` at `now` with
//! no ttl, and succeeds.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, bb_set, bb_set_ttl, step, step_dt, step_with, strs, try_compile};
use serde_json::{json, Value};

fn inc(key: &str, by: Value) -> Value {
    json!({"type": "Increment", "name": "Inc", "params": {"key": key, "by": by}})
}

#[test]
fn rule8_adds_to_the_current_value_and_succeeds() {
    let mut a = agent(
        inc("n", json!(10)),
        json!([{"key": "n", "type": "int", "default": 5}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&["enter Inc", "tick Inc success", "exit Inc success"])
    );
    assert_eq!(bb(&a, "n"), json!(15));
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(25));
}

#[test]
fn rule8_by_defaults_to_one_and_may_be_negative() {
    let root = json!({"type": "Increment", "params": {"key": "n"}});
    let mut a = agent(root, json!([{"key": "n", "type": "int", "default": 0}]));
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(1));
    let mut a = agent(
        inc("n", json!(-3)),
        json!([{"key": "n", "type": "int", "default": 0}]),
    );
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(-3));
}

#[test]
fn rule8_starts_from_zero_without_a_valid_value() {
    let mut a = agent(inc("n", json!(2)), json!([{"key": "n", "type": "int"}]));
    step(&mut a);
    assert_eq!(bb(&a, "n"), json!(2));
}

#[test]
fn rule8_starts_from_zero_after_expiry() {
    let mut a = agent(
        json!({"type": "Sequence", "children": [
            {"type": "Condition", "params": {"key": "go", "equals": true}},
            {"type": "Increment", "params": {"key": "n", "by": 1}}
        ]}),
        json!([{"key": "n", "type": "int"}, {"key": "go", "type": "bool", "default": false}]),
    );
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "n", json!(100), 1.0));
    assert_eq!(bb(&a, "n"), json!(100));
    // now 3 > 1 + 1: the 100 has expired before the Increment runs.
    step(&mut a);
    step_with(&mut a, 1.0, |a| bb_set(a, "go", json!(true)));
    assert_eq!(bb(&a, "n"), json!(1));
}

#[test]
fn rule8_written_value_has_no_ttl() {
    let mut a = agent(inc("n", json!(1)), json!([{"key": "n", "type": "int"}]));
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "n", json!(10), 1.0));
    assert_eq!(bb(&a, "n"), json!(11));
    let key = a.blackboard().key("n").unwrap();
    assert_eq!(a.blackboard().remaining(key), None, "never expires");
    // The Increment replaced the expiry: far in the future the value is still valid.
    let mut a2 = a.clone();
    a2.advance(1000.0);
    assert_eq!(bb(&a2, "n"), json!(11));
}

#[test]
fn rule8_float_keys_add_fractions() {
    let mut a = agent(
        inc("x", json!(0.5)),
        json!([{"key": "x", "type": "float", "default": 1}]),
    );
    step(&mut a);
    step_dt(&mut a, 1.0);
    assert_eq!(bb(&a, "x"), json!(2.0));
}

#[test]
fn rule8_key_must_be_numeric() {
    assert!(try_compile(inc("s", json!(1)), json!([{"key": "s", "type": "string"}])).is_err());
    assert!(try_compile(inc("i", json!(0.5)), json!([{"key": "i", "type": "int"}])).is_err());
}
