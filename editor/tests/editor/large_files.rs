//! Opening a large tree costs work in proportion to its size: from the file to the first
//! frames (load, layout of a file without positions, checks, the canvas's scene, the
//! preview), the document's node lookups stay linear. Proved with the document's work
//! counter at n and 4n nodes, never with a clock.

use std::path::Path;

use arbor_editor::Session;
use serde_json::{json, Value};

use crate::common::Harness;

fn guid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// A tree of `n` nodes, Sequences of eight children down to Scripted leaves, with no
/// positions (so opening lays it out).
fn write_tree(path: &Path, n: usize) {
    let mut nodes: Vec<Value> = Vec::with_capacity(n);
    for i in 0..n {
        let children: Vec<String> = (1..=8)
            .map(|k| 8 * i + k)
            .filter(|&c| c < n)
            .map(guid)
            .collect();
        nodes.push(if children.is_empty() {
            json!({"guid": guid(i), "name": format!("n{i}"), "type": "Scripted",
                   "params": {"returns": ["success"]}})
        } else {
            json!({"guid": guid(i), "name": format!("n{i}"), "type": "Sequence",
                   "children": children})
        });
    }
    let tree = json!({"format": "arbor-tree", "version": 1, "guid": guid(999_999_999),
                      "name": "large", "root": guid(0), "nodes": nodes});
    std::fs::write(path, tree.to_string()).expect("written");
}

/// The lookup work of opening an `n`-node tree and drawing its first frames.
fn work_to_open(dir: &Path, n: usize) -> u64 {
    let path = dir.join(format!("large{n}.json"));
    write_tree(&path, n);
    let session = Session::open(&path).expect("opens");
    let mut h = Harness::new(session);
    h.frames(2);
    h.app.session().document().lookup_work()
}

#[test]
fn opening_a_large_tree_is_linear() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (small, large) = (
        work_to_open(dir.path(), 1_000),
        work_to_open(dir.path(), 4_000),
    );
    eprintln!("lookup work: {small} for 1,000 nodes, {large} for 4,000");
    assert!(small > 0, "the counter counts");
    assert!(
        large <= 5 * small,
        "4x the nodes cost {large} against {small}: more than linear"
    );
}
