//! The tree the diff and merge tests edit: a root Sequence with three children (one with a
//! decorator and one with a child of its own), two keys, positions, a note and a group.

use arbor_runtime::format::{NodeDef, TreeFile};
use serde_json::{json, Value};

use crate::common::guid;

/// GUIDs of the base tree's parts.
pub const ROOT: usize = 1;
pub const A: usize = 2;
pub const B: usize = 3;
pub const C: usize = 4;
pub const D: usize = 5;
pub const INVERTER: usize = 10;
pub const NOTE: usize = 20;
pub const GROUP: usize = 21;

/// The base tree, as JSON.
pub fn base_json() -> Value {
    json!({
        "format": "arbor-tree", "version": 3, "guid": guid(0), "name": "base",
        "blackboard": [
            {"key": "hp", "type": "int", "default": 10},
            {"key": "target", "type": "string"}
        ],
        "root": guid(ROOT),
        "nodes": [
            {"guid": guid(ROOT), "name": "Root", "type": "Sequence",
             "children": [guid(A), guid(B), guid(C)]},
            {"guid": guid(A), "name": "A", "type": "Wait", "params": {"seconds": 1.0},
             "decorators": [{"guid": guid(INVERTER), "name": "Not", "type": "Inverter"}]},
            {"guid": guid(B), "name": "B", "type": "Wait", "params": {"seconds": 2.0}},
            {"guid": guid(C), "name": "C", "type": "Selector", "children": [guid(D)]},
            {"guid": guid(D), "name": "D", "type": "Wait", "params": {"seconds": 3.0}}
        ],
        "editor": {
            "positions": {guid(ROOT): [0.0, 0.0], guid(A): [200.0, 0.0]},
            "notes": [{"guid": guid(NOTE), "text": "hello", "pos": [1.0, 2.0],
                       "size": [100.0, 40.0], "color": "yellow"}],
            "groups": [{"guid": guid(GROUP), "title": "G", "color": "green",
                        "rect": [0.0, 0.0, 10.0, 10.0], "members": [guid(A)],
                        "collapsed": false}]
        }
    })
}

/// The base tree.
pub fn base() -> TreeFile {
    file(base_json())
}

/// A tree file from JSON, checked as `diff` and `merge` check their inputs.
pub fn file(value: Value) -> TreeFile {
    arbor_runtime::merge::tree_from_str(&value.to_string(), None).expect("a valid tree")
}

/// The node `n` of `file`.
pub fn node(file: &mut TreeFile, n: usize) -> &mut NodeDef {
    let g = guid(n);
    file.nodes
        .iter_mut()
        .find(|x| x.guid == g)
        .expect("the node exists")
}

/// `file` after `edit`.
pub fn edited(file: &TreeFile, edit: impl FnOnce(&mut TreeFile)) -> TreeFile {
    let mut out = file.clone();
    edit(&mut out);
    out
}

/// Removes node `n` from `file` (and from its parent's children).
pub fn remove(file: &mut TreeFile, n: usize) {
    let g = guid(n);
    file.nodes.retain(|x| x.guid != g);
    for x in &mut file.nodes {
        x.children.retain(|c| *c != g);
    }
}

/// Adds a Wait node `n` as the last child of `parent`.
pub fn add_wait(file: &mut TreeFile, parent: usize, n: usize) {
    let mut wait = NodeDef::new("Wait");
    wait.guid = guid(n);
    wait.name = format!("W{n}");
    file.nodes.push(wait);
    node(file, parent).children.push(guid(n));
}

/// Moves node `n` to the end of `to`'s children.
pub fn reparent(file: &mut TreeFile, n: usize, to: usize) {
    let g = guid(n);
    for x in &mut file.nodes {
        x.children.retain(|c| *c != g);
    }
    node(file, to).children.push(g);
}

/// The editor section's member `name`, mutably.
pub fn editor_member<'a>(file: &'a mut TreeFile, name: &str) -> &'a mut Value {
    file.editor
        .as_mut()
        .and_then(Value::as_object_mut)
        .and_then(|e| e.get_mut(name))
        .expect("the member exists")
}
