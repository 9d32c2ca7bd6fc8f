//! Warnings `check` gives about trees that load: a key read but never written (with
//! `LoadOptions::lint_keys`, which `arbor check` sets), and a
//! custom node type used in the wrong position (rule 73: a decorator with other than one
//! child and a leaf with children are errors, a composite without children a warning), and
//! a condition that can return running (outside disabled branches, rule 79).

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

/// Warnings containing `needle`.
fn warned(found: &[(Severity, String)], needle: &str) -> usize {
    found
        .iter()
        .filter(|(s, m)| *s == Severity::Warning && m.contains(needle))
        .count()
}

#[test]
fn a_condition_declared_to_run_is_warned_where_it_is_used() {
    let mut types = NodeTypes::builtin();
    types.insert(NodeType::condition("AskServer", "Waits for an answer.").may_run());
    types.insert(NodeType::condition("IsHungry", "Answers at once."));
    let root = json!({"type": "Sequence", "children": [
        {"type": "AskServer", "name": "ask"},
        {"type": "IsHungry", "decorators": [{"type": "AskServer"}]},
        {"type": "IsHungry", "name": "hungry"}
    ]});
    let found = check(root, json!([]), &types);
    assert_eq!(
        warned(
            &found,
            "$.nodes[1] (node \"ask\" (AskServer)): the condition `ask` (AskServer) can \
             return running (its type `AskServer` declares it may)"
        ),
        1,
        "{found:?}"
    );
    assert_eq!(
        warned(&found, "$.nodes[2].decorators[0]"),
        1,
        "the attached form too: {found:?}"
    );
    assert_eq!(warned(&found, "can return running"), 2, "{found:?}");
}

#[test]
fn rule79_the_condition_lint_skips_disabled_branches() {
    let mut types = NodeTypes::builtin();
    types.insert(NodeType::condition("AskServer", "Waits for an answer.").may_run());
    let lint = |root: Value| {
        let mut file = tree_json(root, json!([]));
        file["version"] = json!(3);
        let found: Vec<(Severity, String)> =
            check_str(&file.to_string(), None, &types, &LoadOptions::default())
                .problems
                .iter()
                .map(|p| (p.severity, p.to_string()))
                .collect();
        warned(&found, "can return running")
    };
    let ask = |enabled: bool| json!({"type": "AskServer", "enabled": enabled});
    let under = |enabled: bool| {
        json!({"type": "Sequence", "children": [
            {"type": "Sequence", "enabled": enabled, "children": [ask(true)]},
            {"type": "Log", "params": {"message": "-"}}
        ]})
    };
    assert_eq!(lint(under(true)), 1, "the enabled branch is warned");
    assert_eq!(
        lint(under(false)),
        0,
        "a condition below a disabled node is not"
    );
    let root = json!({"type": "Sequence", "children": [ask(false), ask(true)]});
    assert_eq!(lint(root), 1, "a disabled condition itself is not");
    // A disabled Wait is no longer a runner below the IfThenElse's condition.
    let condition_child = |enabled: bool| {
        json!({"type": "IfThenElse", "children": [
            {"type": "Sequence", "children": [
                {"type": "Wait", "enabled": enabled, "params": {"seconds": 1}},
                {"type": "Log", "params": {"message": "test"}}
            ]},
            {"type": "Log", "params": {"message": "then"}}
        ]})
    };
    assert_eq!(lint(condition_child(true)), 1);
    assert_eq!(lint(condition_child(false)), 0);
}

#[test]
fn a_condition_child_that_can_run_is_warned_and_one_that_cannot_is_not() {
    let types = NodeTypes::builtin();
    let then = json!({"type": "Log", "params": {"message": "then"}});
    let cases = [
        // Wait declares that it may run.
        (
            json!({"type": "Wait", "name": "pause", "params": {"seconds": 1}}),
            Some("the condition `pause` (Wait), the condition of `IfThenElse` can return running (it may)"),
        ),
        // A Scripted leaf whose statuses list running, under a Sequence.
        (
            json!({"type": "Sequence", "name": "test", "children": [
                {"type": "Scripted", "name": "slow", "params": {"returns": ["running", "success"]}}
            ]}),
            Some("`test` (Sequence), the condition of `IfThenElse` can return running (`slow` (Scripted) below it may)"),
        ),
        (
            json!({"type": "Scripted", "params": {"returns": ["success", "failure"]}}),
            None,
        ),
        (condition("alarm"), None),
    ];
    for (test, expected) in cases {
        let root = json!({"type": "IfThenElse", "children": [test.clone(), then.clone()]});
        let found = check(
            root,
            json!([{"key": "alarm", "type": "bool", "default": false}]),
            &types,
        );
        match expected {
            Some(message) => assert_eq!(warned(&found, message), 1, "{test}: {found:?}"),
            None => assert_eq!(warned(&found, "can return running"), 0, "{test}: {found:?}"),
        }
    }
    // WhileDoElse asks its condition every tick: the same warning.
    let root = json!({"type": "WhileDoElse", "children": [
        {"type": "Wait", "params": {"seconds": 1}}, then
    ]});
    let found = check(root, json!([]), &types);
    assert_eq!(
        warned(&found, "the condition of `WhileDoElse`"),
        1,
        "{found:?}"
    );
}

#[test]
fn a_node_type_in_a_decorators_list_is_named_as_what_it_is() {
    let mut types = NodeTypes::builtin();
    types.insert(NodeType::decorator("Guard", "One child."));
    types.insert(NodeType::action("Jump", "A leaf."));
    let root = json!({"type": "Wait", "params": {"seconds": 1}, "decorators": [
        {"type": "Guard"}, {"type": "Jump"}
    ]});
    let found = check(root, json!([]), &types);
    let errors: Vec<&str> = found
        .iter()
        .filter(|(s, _)| *s == Severity::Error)
        .map(|(_, m)| m.as_str())
        .collect();
    assert!(
        errors.iter().any(|m| m.contains(
            "$.nodes[0].decorators[0].type (node \"Wait\" (Wait)): `Guard` is a Decorator \
             node, not an attached decorator: make it the node's parent instead"
        )),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|m| m.contains("`Jump` is an Action node, not an attached decorator")),
        "{errors:?}"
    );
}

/// `fn main() -> Result<(), Box<dyn Error>>` with `?` on a load prints `Error: {:?}` of
/// the error (`std::process::Termination` for `Result`): the located list, as `Display`.
#[test]
fn a_load_error_returned_from_main_prints_its_located_list() {
    fn main_like(text: &str) -> Result<(), Box<dyn std::error::Error>> {
        arbor_runtime::Registry::<()>::new()
            .loader()
            .load_str(text, Some(std::path::Path::new("trees/guard.json")))?;
        Ok(())
    }
    let mut file = tree_json(
        json!({"type": "Sequence", "children": [
            {"type": "Wiat", "params": {"seconds": 1}},
            {"type": "Wait", "params": {"secnds": 1}}
        ]}),
        json!([]),
    );
    file["version"] = json!(2);
    let Err(err) = main_like(&file.to_string()) else {
        panic!("the tree has two errors")
    };
    let printed = format!("Error: {err:?}");
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines[0], "Error: the tree did not load (3 problems):",
        "{printed}"
    );
    assert!(
        lines[1..]
            .iter()
            .all(|l| l.starts_with("  trees/guard.json")),
        "{printed}"
    );
    assert!(
        printed.contains("$.nodes[1].type (node \"Wiat\" (Wiat)): unknown node type `Wiat`"),
        "{printed}"
    );
    assert!(!printed.contains("problems: ["), "no field dump: {printed}");
}
