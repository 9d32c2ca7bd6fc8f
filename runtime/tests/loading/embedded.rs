//! Subtree files taken from memory (`LoadOptions::embedded`), as generated code loads its
//! tree: nothing is read from disk, names resolve against the naming file's folder, and a
//! name that is not embedded or leaves the top folder is a located error at the Subtree. A
//! program that names its top file among them (a game's asset path) resolves from there.

use arbor_runtime::{Agent, Embedded, LoadOptions, Registry, Status};
use serde_json::{json, Value};

use crate::common::guid;

/// A tree whose root is a Subtree of `path`, remapping nothing.
fn calling(path: &str) -> Value {
    json!({
        "format": "arbor-tree", "version": 2, "guid": guid(0), "name": "main",
        "blackboard": [], "root": guid(1),
        "nodes": [{"guid": guid(1), "name": "call", "type": "Subtree", "params": {"path": path}}]
    })
}

/// A tree of one Scripted leaf that returns `status`.
fn leaf(status: &str) -> Value {
    json!({
        "format": "arbor-tree", "version": 2, "guid": guid(10), "name": "leaf",
        "blackboard": [], "root": guid(11),
        "nodes": [{"guid": guid(11), "name": "leaf", "type": "Scripted",
                   "params": {"returns": [status]}}]
    })
}

/// Loads `main` as if from a folder that does not exist, with `files` embedded.
fn load(main: &Value, files: &[(&str, Value)]) -> Result<Status, String> {
    let mut embedded = Embedded::new();
    for (name, text) in files {
        embedded = embedded.with(name, text.to_string());
    }
    run(embedded, main, "/nowhere/at/all/main.json")
}

/// Compiles `main`, found at `path`, with `embedded`, and ticks it once.
fn run(embedded: Embedded, main: &Value, path: &str) -> Result<Status, String> {
    let options = LoadOptions {
        embedded,
        ..LoadOptions::default()
    };
    let tree = Registry::<()>::new()
        .loader()
        .with_options(options)
        .load_tree(&parse(main)?, Some(std::path::Path::new(path)))
        .map_err(|e| e.to_string())?;
    let mut agent = Agent::new(std::sync::Arc::new(tree), 1);
    Ok(agent.tick(&mut (), 0.1))
}

fn parse(file: &Value) -> Result<arbor_runtime::format::TreeFile, String> {
    arbor_runtime::parse_str(&file.to_string(), None).map_err(|e| e.to_string())
}

#[test]
fn rule43_subtrees_come_from_memory_not_from_disk() {
    let files = [("lib/leaf.json", leaf("failure"))];
    assert_eq!(load(&calling("lib/leaf.json"), &files), Ok(Status::Failure));
    // The same tree without embedded files looks on disk, where there is nothing.
    let err = Registry::<()>::new()
        .loader()
        .load_str(
            &calling("lib/leaf.json").to_string(),
            Some(std::path::Path::new("/nowhere/at/all/main.json")),
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot open subtree `lib/leaf.json`"), "{err}");
}

#[test]
fn a_subtree_file_names_its_own_subtrees_from_its_folder() {
    // lib/mid.json calls ../top_level.json, which is the top folder's top_level.json.
    let mut mid = calling("../top_level.json");
    mid["guid"] = json!(guid(20));
    let files = [("lib/mid.json", mid), ("top_level.json", leaf("success"))];
    assert_eq!(
        load(&calling("lib/./mid.json"), &files),
        Ok(Status::Success)
    );
}

#[test]
fn a_name_not_embedded_or_outside_the_folder_is_a_located_error() {
    let files = [("lib/leaf.json", leaf("success"))];
    let err = load(&calling("lib/other.json"), &files).unwrap_err();
    assert!(
        err.contains("$.nodes[0].params.path")
            && err.contains(
                "subtree `lib/other.json` (lib/other.json) is not among the tree files supplied with this tree"
            ),
        "{err}"
    );
    let err = load(&calling("../leaf.json"), &files).unwrap_err();
    assert!(
        err.contains("subtree `../leaf.json` is outside the folder of the embedded tree files"),
        "{err}"
    );
}

#[test]
fn embedded_cycles_are_refused_as_on_disk() {
    let mut a = calling("b.json");
    a["guid"] = json!(guid(30));
    let mut b = calling("a.json");
    b["guid"] = json!(guid(40));
    let err = load(&calling("a.json"), &[("a.json", a), ("b.json", b)]).unwrap_err();
    assert!(err.contains("subtree cycle"), "{err}");
}

/// Loads `main`, named `top` among the embedded files, with `files` given parsed.
fn load_named(top: &str, main: &Value, files: &[(&str, Value)]) -> Result<Status, String> {
    let mut embedded = Embedded::new().with_top_file(top);
    for (name, file) in files {
        embedded = embedded.with_tree(name, parse(file)?);
    }
    run(embedded, main, top)
}

#[test]
fn a_named_top_file_resolves_from_its_folder_up_to_the_root() {
    // npcs/guard.json calls ../shared/leaf.json: above its own folder, inside the root.
    let files = [("shared/leaf.json", leaf("failure"))];
    assert_eq!(
        load_named("npcs/guard.json", &calling("../shared/leaf.json"), &files),
        Ok(Status::Failure)
    );
    let err = load_named("npcs/guard.json", &calling("../../leaf.json"), &files).unwrap_err();
    assert!(
        err.contains("is outside the folder of the embedded tree files"),
        "{err}"
    );
}

#[test]
fn a_named_top_file_never_reads_subtrees_from_disk() {
    // No file supplied; a tree file exists at the path from the working directory (the
    // crate's folder): still an error at the Subtree, nothing read.
    let rel = "tests/data/good/guard.json";
    assert!(std::path::Path::new(rel).is_file(), "{rel} is on disk");
    let err = load_named("main.json", &calling(rel), &[]).unwrap_err();
    assert!(
        err.contains("$.nodes[0].params.path")
            && err.contains(&format!(
                "subtree `{rel}` ({rel}) is not among the tree files supplied"
            )),
        "{err}"
    );
}

#[test]
fn a_cycle_back_to_a_named_top_file_is_refused() {
    let back = calling("../npcs/guard.json");
    let err = load_named(
        "npcs/guard.json",
        &calling("../lib/back.json"),
        &[("lib/back.json", back)],
    )
    .unwrap_err();
    assert!(err.contains("subtree cycle"), "{err}");
}
