//! Variant files and per-agent overrides (docs/format.md "Variant files"): a variant loads
//! as its base with parameter values, key defaults and switched-off nodes overridden,
//! sharing the base's GUIDs and structure; bad variants and overrides are located errors.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_runtime::format::{KeyOverride, Overrides, ParamOverride};
use arbor_runtime::{parse_str, Agent, CompiledTree, Registry, Status};
use serde_json::{json, Value};

const WAIT: &str = "0a000000-0000-4000-8000-000000000002";
const LOG: &str = "0a000000-0000-4000-8000-000000000003";

/// A Sequence of a Wait (5 s) and an Increment of `count`, which defaults to 10.
fn base() -> Value {
    json!({
        "format": "arbor-tree", "version": 3,
        "guid": "0a000000-0000-4000-8000-000000000000", "name": "base",
        "blackboard": [{"key": "count", "type": "int", "default": 10}],
        "root": "0a000000-0000-4000-8000-000000000001",
        "nodes": [
            {"guid": "0a000000-0000-4000-8000-000000000001", "name": "S", "type": "Sequence",
             "children": [WAIT, LOG]},
            {"guid": WAIT, "name": "pause", "type": "Wait", "params": {"seconds": 5}},
            {"guid": LOG, "name": "count up", "type": "Increment",
             "params": {"key": "count", "by": 1}}
        ]
    })
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-variants-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

fn write(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, value.to_string()).expect("writable");
    path
}

fn variant(overrides: Value) -> Value {
    json!({"format": "arbor-tree-variant", "version": 1, "name": "quick", "base": "base.json",
           "overrides": overrides})
}

fn statuses(tree: Arc<CompiledTree<()>>, ticks: usize) -> (Vec<Status>, Value) {
    let mut agent = Agent::new(tree, 1);
    let statuses = (0..ticks).map(|_| agent.tick(&mut (), 1.0)).collect();
    (statuses, agent.blackboard().to_json()["count"].clone())
}

#[test]
fn a_variant_loads_as_its_base_with_values_and_defaults_overridden() {
    let dir = folder("values");
    let base_path = write(&dir, "base.json", &base());
    let path = write(
        &dir,
        "quick.json",
        &variant(json!({
            "params": [{"node": WAIT, "param": "seconds", "value": 1}],
            "keys": [{"key": "count", "default": 0}]
        })),
    );
    let registry = Registry::<()>::new();
    let tree = Arc::new(
        registry
            .loader()
            .load_file(&path)
            .expect("the variant loads"),
    );
    let base = Arc::new(
        registry
            .loader()
            .load_file(&base_path)
            .expect("the base loads"),
    );
    assert_eq!(tree.name(), "quick");
    assert_eq!(tree.guid(), base.guid(), "the base's identity");
    assert_eq!(
        statuses(tree.clone(), 2),
        (vec![Status::Running, Status::Success], json!(1)),
        "waits 1 s, counts from 0"
    );
    assert_eq!(statuses(base.clone(), 2).1, json!(10));

    // The same structure: an agent of the base restores into the variant, and reloads.
    let mut agent = Agent::new(base, 1);
    agent.tick(&mut (), 1.0);
    let mut moved = Agent::restore(tree.clone(), &agent.snapshot(), &mut ()).expect("restores");
    assert_eq!(moved.tick(&mut (), 10.0), Status::Success);
    let report = agent.reload(&mut (), tree);
    assert!(
        report.dropped.is_empty() && report.restarted.is_empty(),
        "{report:?}"
    );
}

#[test]
fn a_variant_may_switch_nodes_off_and_a_subtree_may_run_a_variant() {
    let dir = folder("subtree");
    write(&dir, "base.json", &base());
    write(&dir, "no_pause.json", &variant(json!({"disabled": [WAIT]})));
    let parent = json!({
        "format": "arbor-tree", "version": 3,
        "guid": "0b000000-0000-4000-8000-000000000000", "name": "parent",
        "root": "0b000000-0000-4000-8000-000000000001",
        "nodes": [{"guid": "0b000000-0000-4000-8000-000000000001", "name": "use", "type": "Subtree",
                   "params": {"path": "no_pause.json"}}]
    });
    let path = write(&dir, "parent.json", &parent);
    let tree = Registry::<()>::new()
        .loader()
        .load_file(&path)
        .expect("the parent loads");
    let mut agent = Agent::new(Arc::new(tree), 1);
    assert_eq!(
        agent.tick(&mut (), 1.0),
        Status::Success,
        "the pause is switched off in the variant the subtree runs"
    );
}

#[test]
fn overrides_naming_what_the_base_lacks_are_located_problems_all_of_them() {
    let dir = folder("bad");
    write(&dir, "base.json", &base());
    let path = write(
        &dir,
        "bad.json",
        &variant(json!({
            "params": [{"node": "0a000000-0000-4000-8000-0000000000ff", "param": "seconds", "value": 1}],
            "keys": [{"key": "nope", "default": 0}],
            "disabled": [WAIT]
        })),
    );
    let err = Registry::<()>::new()
        .loader()
        .load_file(&path)
        .expect_err("unknown node and key");
    let text = err.to_string();
    assert!(
        text.contains("$.overrides.params[0].node") && text.contains("$.overrides.keys[0].key"),
        "{text}"
    );
    assert_eq!(err.problems.len(), 2, "{text}");

    // A bad value is checked as any value of the base.
    let path = write(
        &dir,
        "negative.json",
        &variant(json!({"params": [{"node": WAIT, "param": "seconds", "value": -1}]})),
    );
    let err = Registry::<()>::new()
        .loader()
        .load_file(&path)
        .expect_err("negative");
    assert!(err.to_string().contains("seconds"), "{err}");

    // A missing base, a future version, an unknown field.
    for (name, file, expect) in [
        (
            "missing.json",
            json!({"format": "arbor-tree-variant", "version": 1, "base": "gone.json"}),
            "gone.json",
        ),
        (
            "future.json",
            json!({"format": "arbor-tree-variant", "version": 2, "base": "base.json"}),
            "version 2",
        ),
        (
            "unknown.json",
            json!({"format": "arbor-tree-variant", "version": 1, "base": "base.json", "extra": 1}),
            "extra",
        ),
    ] {
        let path = write(&dir, name, &file);
        let err = Registry::<()>::new()
            .loader()
            .load_file(&path)
            .expect_err(name);
        assert!(err.to_string().contains(expect), "{name}: {err}");
    }
}

#[test]
fn per_agent_overrides_compile_a_tree_without_writing_the_blackboard() {
    let file = parse_str(&base().to_string(), None).expect("parses");
    let overrides = Overrides {
        params: vec![ParamOverride {
            node: LOG.into(),
            param: "by".into(),
            value: json!(5),
        }],
        keys: vec![KeyOverride {
            key: "count".into(),
            default: json!(100),
        }],
        disabled: vec![],
    };
    let registry = Registry::<()>::new();
    let tree = registry
        .loader()
        .load_tree_with(&file, &overrides, None)
        .expect("loads");
    let mut agent = Agent::new(Arc::new(tree), 1);
    let count = agent.blackboard().key("count").expect("declared");
    assert_eq!(agent.blackboard().get_i64(count), Some(100));
    assert_eq!(
        agent.snapshot().blackboard[0].updates,
        0,
        "a default, not a write"
    );
    let statuses: Vec<Status> = (0..6).map(|_| agent.tick(&mut (), 1.0)).collect();
    assert_eq!(statuses.last(), Some(&Status::Success));
    assert_eq!(
        agent.blackboard().get_i64(count),
        Some(105),
        "counts up by 5"
    );

    let bad = Overrides {
        disabled: vec!["0a000000-0000-4000-8000-0000000000ff".into()],
        ..Overrides::default()
    };
    let err = registry
        .loader()
        .load_tree_with(&file, &bad, None)
        .expect_err("an unknown node");
    assert!(err.to_string().contains("disabled[0]"), "{err}");
}
