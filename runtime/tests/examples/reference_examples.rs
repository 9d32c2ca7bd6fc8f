//! Rule 35: the reference examples encoded as trees give the books' results.

use crate::common;

use arbor_runtime::{Status, Value};
use common::{agent, step, ticked};
use serde_json::{json, Value as Json};

/// Rule 35's counting tree: Selector{AddTen, Inverter(NotEqualToTarget), AddTen}.
fn math_tree(target: i64) -> (Json, Json) {
    let add_ten = |name: &str| {
        json!({"type": "Sequence", "name": name, "children": [
            {"type": "Increment", "name": format!("{name}.add"), "params": {"key": "current", "by": 10}},
            {"type": "Condition", "name": format!("{name}.check"), "params": {"key": "current", "equals": target}}
        ]})
    };
    let root = json!({"type": "Selector", "name": "node1", "children": [
        add_ten("node2a"),
        {"type": "Inverter", "name": "node2b", "children": [
            {"type": "Inverter", "name": "node3", "children": [
                {"type": "Condition", "name": "node3.eq", "params": {"key": "current", "equals": target}}
            ]}
        ]},
        add_ten("node2c")
    ]});
    let bb = json!([
        {"key": "current", "type": "int", "default": 0},
        {"key": "target", "type": "int", "default": target}
    ]);
    (root, bb)
}

fn current(a: &arbor_runtime::Agent<()>) -> i64 {
    let key = a.blackboard().key("current").unwrap();
    a.blackboard().get_i64(key).unwrap()
}

#[test]
fn rule35_math_tree_target_20_succeeds_at_2c() {
    let (root, bb) = math_tree(20);
    let mut a = agent(root, bb);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(current(&a), 20);
    let t = ticked(&events);
    assert!(t.contains(&"node2c".to_owned()), "{t:?}");
}

#[test]
fn rule35_math_tree_target_30_fails_with_20() {
    let (root, bb) = math_tree(30);
    let mut a = agent(root, bb);
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(current(&a), 20);
}

#[test]
fn rule35_math_tree_target_10_succeeds_at_2a_only() {
    let (root, bb) = math_tree(10);
    let mut a = agent(root, bb);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(current(&a), 10);
    let t = ticked(&events);
    assert!(
        !t.iter()
            .any(|n| n.starts_with("node2b") || n.starts_with("node2c")),
        "{t:?}"
    );
    assert_eq!(
        a.blackboard().get(a.blackboard().key("target").unwrap()),
        Some(&Value::Int(10))
    );
}
