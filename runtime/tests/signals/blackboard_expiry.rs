//! Rule 33: the blackboard and expiry. A value written at `s` with ttl `n` is valid while
//! `now <= s + n` (inclusive); no ttl or a negative one never expires; declared defaults
//! are written at time 0 and never expire; writing a key replaces its value and expiry; a
//! key with no valid value makes conditions false, Increment start from 0 and shows as
//! `null`.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, bb_set, bb_set_ttl, step, step_dt, step_with};
use serde_json::{json, Value};

fn watcher() -> Value {
    json!({"type": "Condition", "name": "C", "params": {"key": "k", "equals": 1}})
}

fn decl() -> Value {
    json!([{"key": "k", "type": "int"}])
}

#[test]
fn rule33_expiry_bound_is_inclusive() {
    let mut a = agent(watcher(), decl());
    step(&mut a);
    // Written at now = 2 with ttl 3: valid through now = 5.
    let (status, _) = step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 3.0));
    assert_eq!(status, Status::Success);
    assert_eq!(step(&mut a).0, Status::Success, "now 3");
    assert_eq!(step(&mut a).0, Status::Success, "now 4");
    assert_eq!(step(&mut a).0, Status::Success, "now 5 == 2 + 3");
    assert_eq!(step(&mut a).0, Status::Failure, "now 6");
    assert_eq!(bb(&a, "k"), json!(null));
}

#[test]
fn rule33_remaining_counts_down_to_zero_at_the_bound() {
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 2.0));
    let key = a.blackboard().key("k").unwrap();
    assert_eq!(a.blackboard().remaining(key), Some(2.0));
    step(&mut a);
    assert_eq!(a.blackboard().remaining(key), Some(1.0));
    step(&mut a);
    assert_eq!(a.blackboard().remaining(key), Some(0.0));
    step(&mut a);
    assert_eq!(a.blackboard().remaining(key), None);
}

#[test]
fn rule33_ttl_zero_is_valid_only_at_the_write_time() {
    let mut a = agent(watcher(), decl());
    let (status, _) = step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 0.0));
    assert_eq!(status, Status::Success);
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule33_fractional_steps_reach_the_bound() {
    // Written at 0.1 with ttl 0.3: valid through 0.4 despite 0.1 + 0.1 + 0.1 + 0.1 rounding.
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 0.1, |a| bb_set_ttl(a, "k", json!(1), 0.3));
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Success, "0.2");
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Success, "0.3");
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Success, "0.4");
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Failure, "0.5");
}

#[test]
fn rule33_defaults_are_written_at_time_zero_and_never_expire() {
    let mut a = agent(
        watcher(),
        json!([{"key": "k", "type": "int", "default": 1}]),
    );
    assert_eq!(bb(&a, "k"), json!(1), "valid before the first tick");
    assert_eq!(step_dt(&mut a, 1e9).0, Status::Success);
    let key = a.blackboard().key("k").unwrap();
    assert_eq!(a.blackboard().remaining(key), None);
}

#[test]
fn rule33_no_ttl_and_negative_ttl_never_expire() {
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set(a, "k", json!(1)));
    assert_eq!(step_dt(&mut a, 1e9).0, Status::Success);
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), -1.0));
    assert_eq!(step_dt(&mut a, 1e9).0, Status::Success);
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), -0.5));
    assert_eq!(step_dt(&mut a, 1e9).0, Status::Success);
}

#[test]
fn rule33_rewrite_replaces_value_and_expiry() {
    // Extend: ttl 1 at now 1, rewritten at now 2 with ttl 5 → valid through 7.
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 1.0));
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 5.0));
    for _ in 3..=7 {
        assert_eq!(step(&mut a).0, Status::Success);
    }
    assert_eq!(step(&mut a).0, Status::Failure, "now 8");

    // Shorten: forever, then rewritten with ttl 1 at now 2 → gone at 4.
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set(a, "k", json!(1)));
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 1.0));
    assert_eq!(step(&mut a).0, Status::Success, "now 3");
    assert_eq!(step(&mut a).0, Status::Failure, "now 4");

    // Remove the expiry: ttl 1, then rewritten without ttl.
    let mut a = agent(watcher(), decl());
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 1.0));
    step_with(&mut a, 1.0, |a| bb_set(a, "k", json!(1)));
    assert_eq!(step_dt(&mut a, 100.0).0, Status::Success);

    // Rewriting a default replaces it too (the new value expires, the default does not
    // come back).
    let mut a = agent(
        watcher(),
        json!([{"key": "k", "type": "int", "default": 1}]),
    );
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 1.0));
    step(&mut a);
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(bb(&a, "k"), json!(null));
}

#[test]
fn rule33_expired_value_is_no_value_everywhere() {
    let root = json!({"type": "Sequence", "name": "S", "children": [
        {"type": "Condition", "name": "Gate", "params": {"key": "go", "equals": true}},
        {"type": "Increment", "name": "Inc", "params": {"key": "k", "by": 1}}
    ]});
    let mut a = agent(
        root,
        json!([{"key": "k", "type": "int"}, {"key": "go", "type": "bool"}]),
    );
    step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(10), 1.0));
    assert_eq!(bb(&a, "k"), json!(10));
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(10), "now 2 <= 1 + 1");
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(null), "now 3: shown as null");
    assert_eq!(a.blackboard().to_json()["k"], json!(null));
    // Increment starts from 0, and its write never expires.
    step_with(&mut a, 1.0, |a| bb_set(a, "go", json!(true)));
    assert_eq!(bb(&a, "k"), json!(1));
}

#[test]
fn rule33_expired_value_fails_condition_decorators() {
    let root = json!({"type": "Scripted", "name": "A", "params": {"returns": ["success"]},
                      "decorators": [{"type": "Condition", "params": {"key": "k", "equals": 1}}]});
    let mut a = agent(root, decl());
    let (status, _) = step_with(&mut a, 1.0, |a| bb_set_ttl(a, "k", json!(1), 1.0));
    assert_eq!(status, Status::Success);
    assert_eq!(step(&mut a).0, Status::Success);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, common::strs(&["check A#0 false"]));
}

#[test]
fn rule33_host_writes_are_type_checked() {
    let mut a = agent(watcher(), decl());
    assert!(a
        .blackboard_mut()
        .set_json("k", &json!("one"), None)
        .is_err());
    assert!(a
        .blackboard_mut()
        .set_json("nope", &json!(1), None)
        .is_err());
    assert_eq!(bb(&a, "k"), json!(null), "a refused write changes nothing");
}
