//! Rule 70: `@key` in a subtree file names the root tree's key. Expected values are what
//! BehaviorTree.CPP 4.8 (`behaviortreepy` 0.1.4) printed for the same trees: a subtree
//! `Script code="@g += 5; @made := 'yes'; n := 7; @k := n + @g"` under a root that ran
//! `n := 1; @g := 10` left the root blackboard with g 15, made "yes", k 22 and n 1 (the
//! subtree's `n` is its own entry).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::{bb as value, tree_json};
use arbor_runtime::{Agent, CompiledTree, LoadError, Registry, Status};
use serde_json::{json, Value};

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-rootkeys-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Writes a tree file of format version 2 (bindings are `{"$key": …}`).
fn write(dir: &Path, name: &str, root: Value, keys: Value) -> PathBuf {
    let mut tree = tree_json(root, keys);
    tree["version"] = json!(2);
    let path = dir.join(name);
    std::fs::write(&path, tree.to_string()).expect("written");
    path
}

fn load(path: &Path) -> Result<CompiledTree<()>, LoadError> {
    Registry::<()>::new().loader().load_file(path)
}

fn script(code: &str) -> Value {
    json!({"type": "Script", "name": code, "params": {"code": code}})
}

fn subtree(name: &str, path: &str) -> Value {
    json!({"type": "Subtree", "name": name, "params": {"path": path}})
}

#[test]
fn rule70_a_subtree_script_reads_and_writes_the_root_keys() {
    let dir = tempdir("script");
    write(
        &dir,
        "sub.json",
        script("@g += 5; @made := 'yes'; n := 7; @k := n + @g"),
        json!([{"key": "n", "type": "int"}]),
    );
    let top = write(
        &dir,
        "top.json",
        json!({"type": "Sequence", "children": [
            script("n := 1; @g := 10"),
            subtree("sub", "sub.json"),
            script("m := g + 1"),
        ]}),
        json!([
            {"key": "n", "type": "int"}, {"key": "g", "type": "int"},
            {"key": "made", "type": "string"}, {"key": "k", "type": "int"},
            {"key": "m", "type": "int"},
        ]),
    );
    let tree = load(&top).expect("loads");
    let mut agent = Agent::new(Arc::new(tree), 1);
    assert_eq!(agent.tick(&mut (), 0.1), Status::Success);
    assert_eq!(value(&agent, "g"), json!(15));
    assert_eq!(value(&agent, "made"), json!("yes"));
    assert_eq!(value(&agent, "k"), json!(22));
    assert_eq!(value(&agent, "m"), json!(16));
    // The subtree's own `n` is private to its instance; the root's is untouched.
    assert_eq!(value(&agent, "n"), json!(1));
    assert_eq!(value(&agent, "sub/n"), json!(7));
}

#[test]
fn rule70_root_keys_skip_every_level_between() {
    // BT.CPP: `@` always addresses the root blackboard, however deep the subtree.
    let dir = tempdir("nested");
    write(
        &dir,
        "inner.json",
        script("@depth := @depth + 1"),
        json!([]),
    );
    write(
        &dir,
        "middle.json",
        json!({"type": "Sequence", "children": [
            script("depth := 100"),
            subtree("inner", "inner.json"),
        ]}),
        json!([{"key": "depth", "type": "int"}]),
    );
    let top = write(
        &dir,
        "top.json",
        json!({"type": "Sequence", "children": [
            script("depth := 1"),
            subtree("middle", "middle.json"),
        ]}),
        json!([{"key": "depth", "type": "int"}]),
    );
    let mut agent = Agent::new(Arc::new(load(&top).expect("loads")), 1);
    assert_eq!(agent.tick(&mut (), 0.1), Status::Success);
    assert_eq!(value(&agent, "depth"), json!(2));
    assert_eq!(value(&agent, "middle/depth"), json!(100));
}

#[test]
fn rule70_parameters_bound_to_root_keys() {
    // `{@goal}` on a port, and `@goal` as a SetBlackboard key, inside a subtree file.
    let dir = tempdir("bound");
    write(
        &dir,
        "sub.json",
        json!({"type": "Sequence", "children": [
            {"type": "SetBlackboard", "params": {"key": "@goal", "value": 7}},
            {"type": "Wait", "params": {"seconds": {"$key": "@pause"}}},
        ]}),
        json!([]),
    );
    let top = write(
        &dir,
        "top.json",
        subtree("sub", "sub.json"),
        json!([
            {"key": "goal", "type": "int"},
            {"key": "pause", "type": "float", "default": 1.0},
        ]),
    );
    let mut agent = Agent::new(Arc::new(load(&top).expect("loads")), 1);
    assert_eq!(agent.tick(&mut (), 0.1), Status::Running);
    assert_eq!(value(&agent, "goal"), json!(7));
    // The Wait reads the root's `pause` (one second), not a key of its own.
    for _ in 0..5 {
        assert_eq!(agent.tick(&mut (), 0.1), Status::Running);
    }
    assert_eq!(agent.tick(&mut (), 1.0), Status::Success);
}

#[test]
fn rule70_a_root_key_the_root_does_not_declare_is_refused_where_it_is_named() {
    let dir = tempdir("missing");
    let sub = write(
        &dir,
        "sub.json",
        json!({"type": "Sequence", "children": [
            script("@ghost := 1"),
            {"type": "SetBlackboard", "params": {"key": "@goals", "value": 1}},
        ]}),
        json!([{"key": "ghost", "type": "int"}, {"key": "goals", "type": "int"}]),
    );
    let top = write(
        &dir,
        "top.json",
        subtree("sub", "sub.json"),
        json!([{"key": "goal", "type": "int"}]),
    );
    let err = load(&top).expect_err("refused").to_string();
    let sub = sub.display().to_string();
    assert!(
        err.contains(&format!("{sub}: $.nodes[1].params.code"))
            && err.contains("column 1: the root tree declares no key `ghost`"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{sub}: $.nodes[2].params.key"))
            && err.contains(
                "`@goals` names the root tree's key `goals`, which the root tree does not \
                 declare; did you mean `goal`?"
            ),
        "{err}"
    );
    // Opened on its own, the subtree file is the root: `@ghost` is its own key.
    assert!(load(Path::new(&sub)).is_ok());
}

#[test]
fn rule70_a_key_declared_with_the_at_sign_stays_that_files_key() {
    // Files imported before rule 70 declare keys named `@x`; they keep their meaning.
    let dir = tempdir("literal");
    write(
        &dir,
        "sub.json",
        json!({"type": "SetBlackboard", "params": {"key": "@x", "value": 3}}),
        json!([{"key": "@x", "type": "int"}]),
    );
    let top = write(
        &dir,
        "top.json",
        subtree("sub", "sub.json"),
        json!([{"key": "x", "type": "int"}]),
    );
    let mut agent = Agent::new(Arc::new(load(&top).expect("loads")), 1);
    agent.tick(&mut (), 0.1);
    assert_eq!(value(&agent, "sub/@x"), json!(3));
    assert_eq!(value(&agent, "x"), Value::Null);
}
