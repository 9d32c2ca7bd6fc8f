//! Subtrees across the editor and the runtime: the runtime ticks a tree and its
//! inlined version identically, and export/inline never produce a GUID two open documents
//! share.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use arbor_editor::Session;
use arbor_runtime::{Agent, Recorded, Recorder, Registry};
use serde_json::json;

fn guid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// A parent tree whose Sequence runs a Subtree node (with a private counter key) between
/// two Scripted leaves, and the subtree file it refers to.
fn write_files(dir: &Path) -> std::path::PathBuf {
    let sub = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(100), "name": "count",
        "blackboard": [{"key": "n", "type": "int", "default": 0}],
        "root": guid(101),
        "nodes": [
            {"guid": guid(101), "name": "count seq", "type": "Sequence", "children": [guid(102), guid(103), guid(104)]},
            {"guid": guid(102), "name": "inc", "type": "Increment", "params": {"key": "n", "by": 1}},
            {"guid": guid(103), "name": "is two?", "type": "Condition", "params": {"key": "n", "equals": 2}},
            {"guid": guid(104), "name": "sub work", "type": "Scripted", "params": {"returns": ["running", "success"]}}
        ]
    });
    let parent = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "parent",
        "root": guid(2),
        "nodes": [
            {"guid": guid(2), "name": "root", "type": "Selector", "children": [guid(3), guid(6)]},
            {"guid": guid(3), "name": "main", "type": "Sequence", "children": [guid(4), guid(5), guid(7)]},
            {"guid": guid(4), "name": "before", "type": "Scripted", "params": {"returns": ["success", "running", "success"]}},
            {"guid": guid(5), "name": "use counter", "type": "Subtree", "params": {"path": "count.json"}},
            {"guid": guid(7), "name": "after", "type": "Scripted", "params": {"returns": ["success", "failure"]}},
            {"guid": guid(6), "name": "fallback", "type": "Wait", "params": {"seconds": 0.5}}
        ]
    });
    std::fs::write(
        dir.join("count.json"),
        serde_json::to_string_pretty(&sub).unwrap(),
    )
    .unwrap();
    let path = dir.join("parent.json");
    std::fs::write(&path, serde_json::to_string_pretty(&parent).unwrap()).unwrap();
    path
}

/// `kind name status` for every event of `ticks` ticks, leaving out the named node.
fn trace(tree: arbor_runtime::CompiledTree<()>, ticks: usize, skip: &str) -> Vec<String> {
    let tree = Arc::new(tree);
    let mut agent = Agent::new(tree.clone(), 5);
    let mut out = Vec::new();
    for t in 0..ticks {
        let mut rec = Recorder::default();
        let status = agent.tick_traced(&mut (), 0.25, &mut rec);
        out.push(format!("tick {t}: {status}"));
        for e in &rec.events {
            let (kind, node, status) = match e {
                Recorded::Enter(n) => ("enter", *n, None),
                Recorded::Tick(n, s) => ("tick", *n, Some(*s)),
                Recorded::Exit(n, s) => ("exit", *n, *s),
                Recorded::Abort(n) => ("abort", *n, None),
                _ => continue,
            };
            let name = &tree.info(node).name;
            if name != skip {
                out.push(format!("{kind} {name} {status:?}"));
            }
        }
    }
    out
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-subtrees-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_tree_and_its_inlined_version_tick_identically() {
    let dir = tempdir("trace");
    let path = write_files(&dir);
    let registry = Registry::<()>::new();
    let original = registry
        .loader()
        .load_file(&path)
        .expect("the parent loads with its subtree");
    let expected = trace(original, 12, "use counter");

    let mut session = Session::open(&path).expect("opens");
    session.inline_subtree(&guid(5)).expect("inlines");
    let doc = session.document().to_tree_file();
    assert!(
        doc.nodes.iter().all(|n| n.kind != "Subtree"),
        "the Subtree node is gone"
    );
    let inlined = registry
        .loader()
        .load_tree(&doc, Some(&path))
        .expect("the inlined tree loads");
    let got = trace(inlined, 12, "use counter");
    assert_eq!(got, expected);
    assert!(
        expected.iter().any(|l| l.starts_with("tick is two?")),
        "the subtree's nodes ran: {expected:#?}"
    );
}

#[test]
fn export_writes_fresh_guids_and_inline_twice_never_collides() {
    let dir = tempdir("guids");
    let path = write_files(&dir);
    let mut session = Session::open(&path).expect("opens");
    // Inline the same subtree twice: via undo/redo and a second Subtree node copy.
    session.inline_subtree(&guid(5)).expect("inline");
    session.undo();
    session.redo();
    let doc = session.document();
    let guids = doc.all_guids();
    assert_eq!(guids.iter().collect::<HashSet<_>>().len(), guids.len());

    // Export the "main" branch to a new file: its GUIDs are all new.
    let export = dir.join("main.json");
    session.export_subtree(&guid(3), &export).expect("export");
    let parent: HashSet<String> = session
        .document()
        .all_guids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let exported = Session::open(&export).expect("the exported file opens");
    let new: HashSet<String> = exported
        .document()
        .all_guids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    assert!(!new.is_empty());
    assert!(
        parent.is_disjoint(&new),
        "no GUID is shared between the two open documents"
    );
    let subtree_node = session.document().nodes().find(|n| {
        n.kind == "Subtree" && n.params.get("path").and_then(|p| p.as_str()) == Some("main.json")
    });
    assert!(
        subtree_node.is_some(),
        "the branch was replaced by a Subtree node referring to the new file"
    );
    // And the parent still loads and runs through the new file.
    let tree = Registry::<()>::new()
        .loader()
        .load_tree(&session.document().to_tree_file(), Some(&path));
    assert!(tree.is_ok(), "{:?}", tree.err().map(|e| e.to_string()));
}

#[test]
fn export_keeps_what_the_tree_does_including_its_blackboard() {
    // The exported branch writes and reads keys of this tree: its Subtree node must remap
    // them, or the subtree would count on private copies.
    let dir = tempdir("export_keys");
    let tree = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "count twice",
        "blackboard": [{"key": "n", "type": "int", "default": 0}],
        "root": guid(2),
        "nodes": [
            {"guid": guid(2), "name": "root", "type": "Sequence", "children": [guid(3), guid(6)]},
            {"guid": guid(3), "name": "add", "type": "Sequence", "children": [guid(4), guid(5)]},
            {"guid": guid(4), "name": "inc", "type": "Increment", "params": {"key": "n", "by": 1}},
            {"guid": guid(5), "name": "ok", "type": "Scripted"},
            {"guid": guid(6), "name": "is one?", "type": "Condition", "params": {"key": "n", "equals": 1}}
        ]
    });
    let path = dir.join("tree.json");
    std::fs::write(&path, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    let registry = Registry::<()>::new();
    let before = trace(registry.loader().load_file(&path).expect("loads"), 1, "add");

    let mut session = Session::open(&path).expect("opens");
    session
        .export_subtree(&guid(3), &dir.join("add.json"))
        .expect("export");
    let node = session
        .document()
        .nodes()
        .find(|n| n.kind == "Subtree")
        .expect("a Subtree node");
    assert_eq!(node.params["remap"], json!({"n": "n"}));
    let after = trace(
        registry
            .loader()
            .load_tree(&session.document().to_tree_file(), Some(&path))
            .expect("loads"),
        1,
        "add",
    );
    assert_eq!(after, before, "the condition still sees the increment");
    assert!(
        before.contains(&"tick is one? Some(Success)".to_owned()),
        "{before:#?}"
    );
}

/// The canvas shows what a Subtree node's file holds without reading it on the UI thread:
/// edits go on while a worker reads the file, and its summary appears on a later frame.
#[test]
fn the_canvas_reads_subtree_files_off_the_ui_thread() {
    let dir = tempdir("canvas");
    let path = write_files(&dir);
    let session = Session::open(&path).expect("opens");
    let mut h = crate::common::Harness::new(session);
    let before = h.app.session().generation();
    for _ in 0..5 {
        let selection = arbor_editor::document::Selection::of_nodes([guid(4)]);
        let moved = arbor_editor::commands::MoveItems::by(
            h.app.session().document(),
            &selection,
            [10.0, 0.0],
        )
        .expect("a move");
        h.app.session_mut().apply(moved).expect("moved");
        h.frame();
    }
    assert_ne!(h.app.session().generation(), before, "edits were made");
    let mut shown = false;
    // Frames until the worker's reply is drawn; the bound only stops a test that would
    // never end.
    for _ in 0..5_000 {
        h.frame();
        if h.shows("tree \"count\" · root Sequence") {
            shown = true;
            break;
        }
        std::thread::yield_now();
    }
    assert!(shown, "the summary arrives");
    assert_eq!(
        arbor_editor::canvas::subtree_file_reads_here(),
        0,
        "no subtree file was read on the UI thread"
    );
}
