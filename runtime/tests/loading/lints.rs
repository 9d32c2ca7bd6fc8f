//! Warnings `check` gives about trees that load: a key read but never written (with
//! `LoadOptions::lint_keys`, which `arbor check` sets), and a
//! custom node type used in the wrong position (rule 73: a decorator with other than one
//! child and a leaf with children are errors, a composite without children a warning).

use arbor_runtime::{check_str, Category, LoadOptions, NodeType, NodeTypes, Severity};
use serde_json::{json, Value};

use crate::common::tree_json;

fn check(root: Value, blackboard: Value, types: &NodeTypes) -> Vec<(Severity, String)> {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    let options = LoadOptions {
        lint_keys: true,
        ..LoadOptions::default()
    };
    check_str(&file.to_string(), None, types, &options)
        .problems
        .iter()
        .map(|p| (p.severity, p.to_string()))
        .collect()
}

fn warnings(root: Value, blackboard: Value) -> Vec<String> {
    check(root, blackboard, &NodeTypes::builtin())
        .into_iter()
        .filter(|(s, _)| *s == Severity::Warning)
        .map(|(_, m)| m)
        .collect()
}

fn condition(key: &str) -> Value {
    json!({"type": "Condition", "name": "test", "params": {"key": key, "equals": true}})
}

#[test]
fn a_key_read_and_never_written_is_warned_at_its_declaration() {
    let found = warnings(
        json!({"type": "Sequence", "children": [condition("alarm")]}),
        json!([{"key": "alarm", "type": "bool"}]),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("$.blackboard[0].key"), "{found:?}");
    assert!(
        found[0].contains(
            "key `alarm` is read (by test (Condition)) but nothing in the tree writes it"
        ),
        "{found:?}"
    );
}

#[test]
fn the_key_lint_is_off_unless_asked_for() {
    let mut file = tree_json(
        json!({"type": "Sequence", "children": [condition("alarm")]}),
        json!([{"key": "alarm", "type": "bool"}]),
    );
    file["version"] = json!(2);
    let report = check_str(
        &file.to_string(),
        None,
        &NodeTypes::builtin(),
        &LoadOptions::default(),
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

#[test]
fn a_default_a_writing_node_a_script_or_a_subtree_remap_counts_as_written() {
    let keys = json!([{"key": "alarm", "type": "bool"}]);
    let with_default = json!([{"key": "alarm", "type": "bool", "default": false}]);
    let read = condition("alarm");
    for (root, bb) in [
        (
            json!({"type": "Sequence", "children": [read.clone()]}),
            with_default,
        ),
        (
            json!({"type": "Sequence", "children": [
                {"type": "SetBlackboard", "params": {"key": "alarm", "value": true}}, read.clone()]}),
            keys.clone(),
        ),
        (
            json!({"type": "Sequence", "children": [
                {"type": "Script", "params": {"code": "alarm := true"}}, read.clone()]}),
            keys.clone(),
        ),
        (
            json!({"type": "Sequence", "children": [
                {"type": "Subtree", "params": {"path": "sub.json", "remap": {"flag": "alarm"}}},
                read.clone()]}),
            keys.clone(),
        ),
    ] {
        let found: Vec<String> = warnings(root.clone(), bb)
            .into_iter()
            .filter(|w| w.contains("writes it"))
            .collect();
        assert!(found.is_empty(), "{root}: {found:?}");
    }
}

#[test]
fn a_bound_input_reads_and_a_bound_output_writes() {
    let bb = json!([{"key": "t", "type": "float"}]);
    let found = warnings(
        json!({"type": "Wait", "params": {"seconds": {"$key": "t"}}}),
        bb.clone(),
    );
    assert!(
        found.iter().any(|w| w.contains("key `t` is read")),
        "{found:?}"
    );
    // A key nobody reads is not this warning's business.
    let found = warnings(json!({"type": "Wait", "params": {"seconds": 1}}), bb);
    assert!(found.iter().all(|w| !w.contains("key `t`")), "{found:?}");
}

#[test]
fn a_custom_kind_in_the_wrong_position_is_reported() {
    let mut types = NodeTypes::builtin();
    types.insert(NodeType::decorator("Guard", "One child."));
    types.insert(NodeType::composite("Pick", "Any children."));
    types.insert(NodeType::action("Jump", "A leaf."));
    let leaf = json!({"type": "Jump"});
    let cases = [
        (
            json!({"type": "Guard", "children": [leaf.clone(), leaf.clone()]}),
            Severity::Error,
            "Guard takes exactly one child; found 2",
        ),
        (
            json!({"type": "Sequence", "children": [{"type": "Guard"}]}),
            Severity::Error,
            "Guard takes exactly one child; found 0",
        ),
        (
            json!({"type": "Sequence", "children": [{"type": "Pick"}]}),
            Severity::Warning,
            "Pick has no children",
        ),
        (
            json!({"type": "Jump", "children": [leaf.clone()]}),
            Severity::Error,
            "Jump takes no children; found 1",
        ),
    ];
    for (root, severity, message) in cases {
        let found = check(root.clone(), json!([]), &types);
        assert!(
            found
                .iter()
                .any(|(s, m)| *s == severity && m.contains(message)),
            "{root}: {found:?}"
        );
    }
    assert_eq!(
        types.node("Pick").map(|t| t.category),
        Some(Category::Composite)
    );
}
