//! Every class of load problem gives a located, readable message; all problems of a file are
//! reported together; no input makes the loader panic.

use crate::common;

use std::path::{Path, PathBuf};

use arbor_runtime::{
    check_str, LoadError, LoadOptions, NodeType, NodeTypes, ProblemKind, Registry, Severity,
};
use common::{guid, tree_json};
use serde_json::{json, Value};

fn load(tree: &Value) -> Result<(), LoadError> {
    Registry::<()>::new()
        .loader()
        .load_str(&tree.to_string(), Some(Path::new("t.json")))
        .map(|_| ())
}

/// The messages of a failed load, one per problem, as `arbor check` prints them.
fn messages(tree: &Value) -> Vec<String> {
    match load(tree) {
        Ok(()) => panic!("expected problems"),
        Err(e) => e.problems.iter().map(ToString::to_string).collect(),
    }
}

fn simple() -> Value {
    tree_json(
        json!({"type": "Sequence", "name": "root", "children": [
            {"type": "Wait", "name": "pause", "params": {"seconds": 1}},
            {"type": "Condition", "name": "ready?", "params": {"key": "ready", "equals": true}}
        ]}),
        json!([{"key": "ready", "type": "bool", "default": false}]),
    )
}

#[test]
fn a_valid_tree_loads() {
    assert!(load(&simple()).is_ok());
}

#[test]
fn unknown_node_type_suggests_the_closest() {
    let mut t = simple();
    t["nodes"][1]["type"] = json!("Wiat");
    assert_eq!(
        messages(&t),
        [
            r#"t.json: $.nodes[1].type (node "pause" (Wiat)): unknown node type `Wiat`; did you mean `Wait`?"#
        ]
    );
}

#[test]
fn unknown_node_type_without_near_name_explains_host_types() {
    let mut t = simple();
    t["nodes"][1]["type"] = json!("Teleport");
    t["nodes"][1]["params"] = json!({});
    let m = messages(&t);
    assert!(
        m[0].contains(
            "unknown node type `Teleport` (host node types must be registered by the program"
        ),
        "{m:?}"
    );
}

#[test]
fn decorator_used_as_node_is_explained() {
    let mut t = simple();
    t["nodes"][1]["type"] = json!("CheckTrigger");
    t["nodes"][1]["params"] = json!({});
    assert!(messages(&t)[0].ends_with("`CheckTrigger` is an attached decorator, not a node: put it in a node's \"decorators\" list"));
}

#[test]
fn unknown_parameter_suggests_the_closest() {
    let mut t = simple();
    t["nodes"][1]["params"] = json!({"secnds": 1});
    let m = messages(&t);
    assert!(m.iter().any(|m| m.ends_with("$.nodes[1].params.secnds (node \"pause\" (Wait)): unknown parameter `secnds` for Wait; did you mean `seconds`?")), "{m:?}");
    assert!(
        m.iter()
            .any(|m| m.ends_with("missing parameter `seconds` (a number)")),
        "{m:?}"
    );
}

#[test]
fn mistyped_parameter_says_expected_and_found() {
    let mut t = simple();
    t["nodes"][1]["params"]["seconds"] = json!("long");
    assert_eq!(
        messages(&t),
        [
            r#"t.json: $.nodes[1].params.seconds (node "pause" (Wait)): parameter `seconds`: expected a number, found string "long""#
        ]
    );
}

#[test]
fn key_value_must_have_the_keys_type() {
    let mut t = simple();
    t["nodes"][2]["params"]["equals"] = json!(1);
    assert!(messages(&t)[0]
        .ends_with("parameter `equals`: expected a boolean, found number 1 (the key's type)"));
}

#[test]
fn semantic_parameter_rules_are_enforced() {
    let t = tree_json(
        json!({"type": "Retry", "name": "r", "params": {"attempts": 0}, "children": [{"type": "Wait", "params": {"seconds": -2}}]}),
        json!([]),
    );
    let m = messages(&t);
    assert!(
        m.iter().any(|m| m
            .ends_with("parameter `attempts`: must be 1 or more, or -1 for unbounded; found 0")),
        "{m:?}"
    );
    assert!(
        m.iter().any(|m| m.contains(
            "parameter `seconds`: must be a finite number of seconds, 0 or more; found -2"
        )),
        "{m:?}"
    );
}

#[test]
fn wrong_child_counts() {
    let t = tree_json(
        json!({"type": "Sequence", "name": "root", "children": [
            {"type": "Inverter", "name": "not", "children": [
                {"type": "Wait", "name": "a", "params": {"seconds": 1}},
                {"type": "Wait", "name": "b", "params": {"seconds": 1}}
            ]},
            {"type": "Repeat", "name": "loop"},
            {"type": "Wait", "name": "leaf", "params": {"seconds": 1}, "children": [{"type": "Wait", "name": "c", "params": {"seconds": 1}}]}
        ]}),
        json!([]),
    );
    let m = messages(&t);
    assert!(m.contains(&r#"t.json: $.nodes[1].children (node "not" (Inverter)): Inverter takes exactly one child; found 2"#.to_owned()), "{m:?}");
    assert!(
        m.iter()
            .any(|m| m.ends_with("Repeat takes exactly one child; found 0")),
        "{m:?}"
    );
    assert!(
        m.iter()
            .any(|m| m.ends_with("Wait takes no children; found 1")),
        "{m:?}"
    );
}

#[test]
fn undeclared_blackboard_key_suggests_the_closest() {
    let mut t = simple();
    t["nodes"][2]["params"]["key"] = json!("redy");
    assert!(messages(&t)[0].ends_with("$.nodes[2].params.key (node \"ready?\" (Condition)): blackboard key `redy` is not declared; did you mean `ready`?"));
}

#[test]
fn blackboard_declarations_are_checked() {
    let mut t = simple();
    t["blackboard"] = json!([
        {"key": "ready", "type": "bool", "default": "yes"},
        {"key": "ready", "type": "bool"}
    ]);
    let m = messages(&t);
    assert!(m.contains(&"t.json: $.blackboard[0].default: blackboard key `ready`: default expected a boolean, found string \"yes\"".to_owned()), "{m:?}");
    assert!(
        m.contains(
            &"t.json: $.blackboard[1].key: blackboard key `ready` is declared twice".to_owned()
        ),
        "{m:?}"
    );
}

#[test]
fn duplicate_guid_names_both_places() {
    let mut t = simple();
    t["nodes"][2]["guid"] = t["nodes"][1]["guid"].clone();
    let m = messages(&t);
    let dup = format!("GUID {} is used twice; first at $.nodes[1]", guid(2));
    assert!(
        m.iter()
            .any(|m| m.contains("$.nodes[2].guid") && m.ends_with(&dup)),
        "{m:?}"
    );
}

#[test]
fn invalid_guid_is_reported() {
    let mut t = simple();
    t["nodes"][1]["guid"] = json!("pause-1");
    let m = messages(&t);
    assert!(
        m.iter().any(|m| m.contains("`pause-1` is not a GUID")),
        "{m:?}"
    );
}

#[test]
fn missing_root_and_unknown_root() {
    let mut t = simple();
    t.as_object_mut().unwrap().remove("root");
    assert_eq!(
        messages(&t),
        ["t.json: missing root: the file must name its root node (\"root\": GUID)"]
    );
    t["root"] = json!(guid(99));
    assert_eq!(
        messages(&t),
        [format!(
            "t.json: $.root: the root {} is not a node of this file",
            guid(99)
        )]
    );
}

#[test]
fn newer_version_says_to_update() {
    let mut t = simple();
    t["version"] = json!(4);
    assert_eq!(
        messages(&t),
        ["t.json: $.version: file format version 4 is newer than this build of Arbor reads (version 3); update Arbor to open it"]
    );
    t["version"] = json!("one");
    assert!(messages(&t)[0]
        .contains("unsupported file format version \"one\"; this build reads versions 1 to 3"));
}

#[test]
fn not_a_tree_file() {
    let m = messages(&json!({"format": "something-else", "version": 1}));
    assert_eq!(m, ["t.json: $.format: not an Arbor tree file: expected \"format\": \"arbor-tree\", found string \"something-else\""]);
}

#[test]
fn malformed_json_gives_line_and_column() {
    let err = Registry::<()>::new()
        .loader()
        .load_str(
            "{\n  \"format\": \"arbor-tree\",\n  \"version\": 1,,\n}",
            Some(Path::new("t.json")),
        )
        .unwrap_err();
    assert_eq!(err.problems.len(), 1);
    assert_eq!(err.problems[0].line, Some((3, 16)));
    assert_eq!(
        err.problems[0].to_string(),
        "t.json:3:16: invalid JSON: key must be a string"
    );
}

#[test]
fn wrong_shape_gives_the_json_path() {
    let mut t = simple();
    t["nodes"][1]["children"] = json!("not a list");
    let m = messages(&t);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with("t.json: $.nodes[1].children: invalid type: string \"not a list\""),
        "{m:?}"
    );
}

#[test]
fn unknown_fields_suggest_the_closest() {
    let mut t = simple();
    t["nodes"][1]["childen"] = json!([]);
    t["nmae"] = json!("x");
    let m = messages(&t);
    assert!(
        m.contains(&"t.json: $.nmae: unknown field `nmae`; did you mean `name`?".to_owned()),
        "{m:?}"
    );
    assert!(
        m.contains(
            &"t.json: $.nodes[1].childen: unknown field `childen`; did you mean `children`?"
                .to_owned()
        ),
        "{m:?}"
    );
}

#[test]
fn cycles_and_second_parents() {
    let mut t = simple();
    // root -> pause, ready?; make ready? the parent of root: a cycle through the root.
    t["nodes"][2]["type"] = json!("Inverter");
    t["nodes"][2]["params"] = json!({});
    t["nodes"][2]["children"] = json!([guid(1)]);
    let m = messages(&t);
    assert!(m.iter().any(|m| m.contains("cycle: ")), "{m:?}");
    assert!(
        m.iter()
            .any(|m| m.contains("is listed as another node's child")),
        "{m:?}"
    );

    let mut t = simple();
    t["nodes"][0]["children"] = json!([guid(2), guid(3), guid(2)]);
    let m = messages(&t);
    assert!(m.iter().any(|m| m.ends_with(r#"node "pause" (Wait) already has a parent ("root" (Sequence)); a node has at most one parent"#)), "{m:?}");
}

#[test]
fn unknown_child_is_reported() {
    let mut t = simple();
    t["nodes"][0]["children"] = json!([guid(2), guid(42)]);
    assert!(messages(&t)
        .iter()
        .any(|m| m.ends_with(&format!("child {} is not a node of this file", guid(42)))));
}

#[test]
fn every_problem_is_reported_at_once() {
    let mut t = simple();
    t["nodes"][1]["type"] = json!("Wiat");
    t["nodes"][2]["params"]["key"] = json!("nope");
    t["nodes"][0]["decorators"] = json!([{"guid": guid(50), "name": "d", "type": "CheckTrigger", "params": {"trigger": "t", "reset": "Later"}}]);
    let err = load(&t).unwrap_err();
    assert_eq!(err.errors().count(), 3, "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with("the tree did not load (3 problems):"),
        "{text}"
    );
    assert!(
        text.contains("expected one of Immediate, EnterNode, LeaveNode, found string \"Later\""),
        "{text}"
    );
}

#[test]
fn unconnected_nodes_and_empty_composites_are_warnings() {
    let mut t = simple();
    let nodes = t["nodes"].as_array_mut().unwrap();
    nodes.push(json!({"guid": guid(60), "name": "spare", "type": "Selector"}));
    let report = check_str(
        &t.to_string(),
        None,
        &NodeTypes::builtin(),
        &LoadOptions::default(),
    );
    assert!(report.is_ok(), "{:?}", report.problems);
    let warnings: Vec<String> = report
        .problems
        .iter()
        .map(|p| {
            assert_eq!(p.severity, Severity::Warning);
            p.message()
        })
        .collect();
    assert!(
        warnings.contains(&"this node is not connected to the root and will not run".to_owned()),
        "{warnings:?}"
    );
    assert!(
        warnings.contains(&"Selector has no children and will always succeed".to_owned()),
        "{warnings:?}"
    );
    assert_eq!(report.for_node(&guid(60)).count(), 2);
}

#[test]
fn host_types_validate_from_a_manifest_and_need_an_implementation_to_run() {
    let mut t = simple();
    t["nodes"][1]["type"] = json!("WalkTo");
    t["nodes"][1]["params"] = json!({"speed": "fast"});
    let mut types = NodeTypes::builtin();
    types.insert(
        NodeType::action("WalkTo", "walks").param(arbor_runtime::ParamSpec::new(
            "speed",
            arbor_runtime::ParamKind::Float,
            "m/s",
        )),
    );
    let report = check_str(&t.to_string(), None, &types, &LoadOptions::default());
    assert_eq!(report.problems.len(), 1);
    assert!(
        matches!(&report.problems[0].kind, ProblemKind::BadParam { param, .. } if param == "speed")
    );

    t["nodes"][1]["params"] = json!({"speed": 2});
    assert!(check_str(&t.to_string(), None, &types, &LoadOptions::default()).is_ok());
    // A registry that declares the type but whose factory rejects the parameters:
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("WalkTo", "walks").param(arbor_runtime::ParamSpec::new(
            "speed",
            arbor_runtime::ParamKind::Float,
            "m/s",
        )),
        |args| {
            let speed = args.f64("speed")?;
            if speed > 1.5 {
                Err(format!("{speed} m/s is faster than villagers walk"))
            } else {
                Ok(arbor_runtime::ActionFn(
                    |_: &mut arbor_runtime::ActionCtx<'_, ()>| arbor_runtime::Status::Success,
                ))
            }
        },
    );
    let err = registry
        .loader()
        .load_str(&t.to_string(), None)
        .unwrap_err();
    assert_eq!(
        err.problems[0].message(),
        "WalkTo: 2 m/s is faster than villagers walk"
    );
}

#[test]
fn limits_give_clear_errors() {
    let registry = Registry::<()>::new();
    let nodes = LoadOptions {
        max_nodes: 2,
        ..LoadOptions::default()
    };
    let err = registry
        .loader()
        .with_options(nodes)
        .load_str(&simple().to_string(), None)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("$.nodes: the tree has 3 nodes; the limit is 2"),
        "{err}"
    );

    let mut t = simple();
    t["nodes"][1]["name"] = json!("x".repeat(100));
    let strings = LoadOptions {
        max_string_len: 64,
        ..LoadOptions::default()
    };
    let err = registry
        .loader()
        .with_options(strings)
        .load_str(&t.to_string(), None)
        .unwrap_err();
    assert_eq!(err.to_string(), "the tree did not load (1 problem):\n  <memory>: $.nodes[1].name: string of 100 bytes exceeds the limit of 64 bytes");

    let opts = LoadOptions {
        max_file_bytes: 100,
        ..LoadOptions::default()
    };
    let err = Registry::<()>::new()
        .loader()
        .with_options(opts)
        .load_str(&simple().to_string(), None)
        .unwrap_err();
    assert!(err.to_string().contains("bytes; the limit is 100 bytes"));
}

#[test]
fn depth_limit_is_enforced_without_overflowing_the_stack() {
    // 10,000 nested Inverters in a valid flat file: refused by the documented depth limit.
    let n = 10_000;
    let nodes: Vec<Value> = (0..n)
        .map(|i| {
            if i + 1 < n {
                json!({"guid": guid(i + 1), "name": format!("n{i}"), "type": "Inverter", "children": [guid(i + 2)]})
            } else {
                json!({"guid": guid(i + 1), "name": "leaf", "type": "Wait", "params": {"seconds": 0}})
            }
        })
        .collect();
    let t = json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "deep", "root": guid(1), "nodes": nodes});
    let err = load(&t).unwrap_err();
    assert!(
        err.to_string()
            .contains("the tree is 257 levels deep; the limit is 256"),
        "{err}"
    );
}

#[test]
fn deeply_nested_json_is_refused_not_overflowed() {
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let err = Registry::<()>::new()
        .loader()
        .load_str(&text, None)
        .unwrap_err();
    assert!(
        err.to_string().contains("nested more than 128 levels deep"),
        "{err}"
    );
}

#[test]
fn odd_documents_never_panic() {
    for text in [
        "",
        "null",
        "[]",
        "3",
        "\"x\"",
        "{}",
        r#"{"format":"arbor-tree"}"#,
        r#"{"format":"arbor-tree","version":1}"#,
        r#"{"format":"arbor-tree","version":1,"guid":"x","name":"n","nodes":[{}]}"#,
        "\u{feff}{}",
        "{\"a\":\"\\ud800\"}",
    ] {
        let result = Registry::<()>::new().loader().load_str(text, None);
        assert!(result.is_err(), "{text:?} should not load");
    }
}

fn write(dir: &Path, name: &str, tree: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(tree).unwrap()).unwrap();
    path
}

fn subtree_node(path: &str) -> Value {
    json!({"type": "Subtree", "name": "sub", "params": {"path": path}})
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-load-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn subtree_problems_missing_cycle_outside_root() {
    let dir = tempdir("subtrees");
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    // a -> b -> a
    let a = write(
        &project,
        "a.json",
        &tree_json(
            json!({"type": "Sequence", "children": [subtree_node("b.json")]}),
            json!([]),
        ),
    );
    write(
        &project,
        "b.json",
        &tree_json(
            json!({"type": "Sequence", "children": [subtree_node("a.json")]}),
            json!([]),
        ),
    );
    let err = Registry::<()>::new().loader().load_file(&a).unwrap_err();
    assert!(
        err.to_string()
            .contains("subtree cycle: a.json -> b.json -> a.json"),
        "{err}"
    );

    let c = write(
        &project,
        "c.json",
        &tree_json(subtree_node("missing.json"), json!([])),
    );
    let err = Registry::<()>::new().loader().load_file(&c).unwrap_err();
    assert!(
        err.to_string().contains(
            "$.nodes[0].params.path (node \"sub\" (Subtree)): cannot open subtree `missing.json`"
        ),
        "{err}"
    );

    write(
        &dir,
        "outside.json",
        &tree_json(json!({"type": "Wait", "params": {"seconds": 1}}), json!([])),
    );
    let d = write(
        &project,
        "d.json",
        &tree_json(subtree_node("../outside.json"), json!([])),
    );
    let err = Registry::<()>::new().loader().load_file(&d).unwrap_err();
    assert!(
        err.to_string()
            .contains("subtree `../outside.json` is outside the project folder"),
        "{err}"
    );
    let allowed = LoadOptions {
        allow_outside_root: true,
        ..LoadOptions::default()
    };
    assert!(Registry::<()>::new()
        .loader()
        .with_options(allowed)
        .load_file(&d)
        .is_ok());
}

#[test]
fn subtree_errors_name_the_subtree_file() {
    let dir = tempdir("subtree_bad");
    let top = write(
        &dir,
        "top.json",
        &tree_json(subtree_node("bad.json"), json!([])),
    );
    write(
        &dir,
        "bad.json",
        &tree_json(json!({"type": "Wiat"}), json!([])),
    );
    let err = Registry::<()>::new().loader().load_file(&top).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("bad.json: $.nodes[0].type"), "{text}");
}

#[test]
fn rule43_a_remapped_key_is_the_parents_entry_and_decorators_guard_the_whole_subtree() {
    let dir = tempdir("subtree_remap");
    let sub = tree_json(
        json!({"type": "Sequence", "children": [
            {"type": "Increment", "params": {"key": "count"}},
            {"type": "Scripted", "name": "inner", "params": {"returns": ["success"]}}
        ]}),
        json!([{"key": "count", "type": "int", "default": 0}]),
    );
    write(&dir, "counter.json", &sub);
    let mut call = subtree_node("counter.json");
    call["params"]["remap"] = json!({"count": "total"});
    call["decorators"] = json!([{"type": "Condition", "params": {"key": "go", "equals": true}}]);
    let top = tree_json(
        call,
        json!([
            {"key": "total", "type": "int", "default": 10},
            {"key": "go", "type": "bool", "default": false}
        ]),
    );
    let path = write(&dir, "top.json", &top);
    let tree = Registry::<()>::new().loader().load_file(&path).unwrap();
    let names: Vec<&str> = tree.keys().iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["total", "go"], "a remapped key has no private copy");
    let mut agent = arbor_runtime::Agent::new(std::sync::Arc::new(tree), 0);
    let total = |agent: &arbor_runtime::Agent<()>| {
        let bb = agent.blackboard();
        bb.get_i64(bb.key("total").unwrap())
    };
    // The decorator on the Subtree node keeps the whole spliced tree from running.
    assert_eq!(agent.tick(&mut (), 1.0), arbor_runtime::Status::Failure);
    assert_eq!(total(&agent), Some(10));
    let go = agent.blackboard().key("go").unwrap();
    agent.blackboard_mut().set(go, true).unwrap();
    // The subtree's `count` is the parent's `total`; the Subtree returns its child's status.
    assert_eq!(agent.tick(&mut (), 1.0), arbor_runtime::Status::Success);
    assert_eq!(total(&agent), Some(11));
}

#[test]
fn rule43_private_subtree_keys_get_distinct_names() {
    let dir = tempdir("subtree_keys");
    let sub = tree_json(
        json!({"type": "Increment", "params": {"key": "count"}}),
        json!([{"key": "count", "type": "int", "default": 0}]),
    );
    write(&dir, "counter.json", &sub);
    // Two Subtree nodes with the same name: each instance keeps its own `count`.
    let top = tree_json(
        json!({"type": "Sequence", "children": [subtree_node("counter.json"), subtree_node("counter.json")]}),
        json!([]),
    );
    let path = write(&dir, "top.json", &top);
    let tree = Registry::<()>::new().loader().load_file(&path).unwrap();
    let names: Vec<&str> = tree.keys().iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["sub/count", "sub/count #2"]);
    let mut agent = arbor_runtime::Agent::new(std::sync::Arc::new(tree), 0);
    agent.tick(&mut (), 1.0);
    let bb = agent.blackboard();
    assert_eq!(bb.get_i64(bb.key("sub/count").unwrap()), Some(1));
    assert_eq!(bb.get_i64(bb.key("sub/count #2").unwrap()), Some(1));
}

#[test]
fn rule79_enabled_needs_version_3_and_older_files_still_load() {
    // Files of every older version still load as they always did.
    for version in [1, 2] {
        let mut t = simple();
        t["version"] = json!(version);
        assert!(load(&t).is_ok(), "version {version}");
        // Switching a node off is a version-3 field: an older file that does is refused,
        // located, rather than run differently from the build it was written for.
        t["nodes"][0]["enabled"] = json!(false);
        assert_eq!(
            messages(&t),
            [format!(
                "t.json: $.nodes[0].enabled: `enabled` needs file format version 3 or later; this file is version {version}"
            )]
        );
    }
    let mut t = simple();
    t["version"] = json!(3);
    t["nodes"][0]["enabled"] = json!(false);
    assert!(load(&t).is_ok(), "a version-3 file may switch its root off");
}
