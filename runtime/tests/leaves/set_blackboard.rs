//! SetBlackboard (rule 44; a node write in the sense of rule 33): writes `value` to `key`
//! at `now`, valid for `ttl` seconds when given (inclusive bound), forever otherwise;
//! succeeds.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, seq, step, strs, try_compile};
use serde_json::{json, Value};

fn set(value: Value, ttl: Option<f64>) -> Value {
    let mut params = json!({"key": "k", "value": value});
    if let Some(ttl) = ttl {
        params["ttl"] = json!(ttl);
    }
    json!({"type": "SetBlackboard", "name": "Set", "params": params})
}

#[test]
fn rule44_set_blackboard_writes_and_succeeds() {
    let mut a = agent(
        set(json!("red"), None),
        json!([{"key": "k", "type": "string"}]),
    );
    assert_eq!(bb(&a, "k"), json!(null));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&["enter Set", "tick Set success", "exit Set success"])
    );
    assert_eq!(bb(&a, "k"), json!("red"));
}

#[test]
fn rule33_set_blackboard_without_ttl_never_expires() {
    let mut a = agent(set(json!(7), None), json!([{"key": "k", "type": "int"}]));
    step(&mut a);
    a.advance(1e6);
    assert_eq!(bb(&a, "k"), json!(7));
}

#[test]
fn rule33_set_blackboard_ttl_counts_from_now_inclusive() {
    // Written once at now 1 (the Limiter stops later rewrites), valid while now <= 3.
    let root =
        json!({"type": "Limiter", "params": {"max": 1}, "children": [set(json!(true), Some(2.0))]});
    let mut a = agent(root, json!([{"key": "k", "type": "bool"}]));
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(true));
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(true), "now 2");
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(true), "now 3 == 1 + 2: inclusive");
    step(&mut a);
    assert_eq!(bb(&a, "k"), json!(null), "now 4");
}

#[test]
fn rule33_set_blackboard_negative_ttl_is_forever() {
    let mut a = agent(
        set(json!(1.5), Some(-1.0)),
        json!([{"key": "k", "type": "float"}]),
    );
    step(&mut a);
    a.advance(1e6);
    assert_eq!(bb(&a, "k"), json!(1.5));
}

#[test]
fn rule33_set_blackboard_rewrite_replaces_expiry() {
    // First write has ttl 1; the second (no ttl) replaces both value and expiry.
    let root = seq(
        "Seq",
        vec![
            json!({"type": "SetBlackboard", "params": {"key": "k", "value": 1, "ttl": 1}}),
            json!({"type": "SetBlackboard", "params": {"key": "k", "value": 2}}),
        ],
    );
    let mut a = agent(root, json!([{"key": "k", "type": "int"}]));
    step(&mut a);
    a.advance(10.0);
    assert_eq!(bb(&a, "k"), json!(2));
}

#[test]
fn rule44_set_blackboard_value_must_have_the_key_type() {
    assert!(try_compile(set(json!("x"), None), json!([{"key": "k", "type": "int"}])).is_err());
    assert!(try_compile(
        set(json!([1, 2]), None),
        json!([{"key": "k", "type": "json"}])
    )
    .is_ok());
}
