//! Subtree files: turning a branch of the document into a tree file of its own (the first
//! half of "export as subtree"; the command half is [`crate::commands::replace_with_subtree`]).
//!
//! The new file gets new GUIDs throughout (its own tree GUID, nodes, decorators), so the
//! two files never share an identity, and the declarations of the keys the branch uses.
//!
//! `top`'s attached decorators are not part of the file: they stay on the Subtree node that
//! replaces the branch. The Subtree node passes its child's status through (semantics rule
//! 43), so the decorators guard the branch as before, and only there do they take part in
//! the parent's aborts: a LowerPriority condition on the root of a subtree file has no
//! Selector or Sequence above it to act on (rules 24, 25).

use std::collections::HashSet;

use arbor_runtime::format::KeyDecl;
use arbor_runtime::NodeTypes;
use serde_json::Value;

use super::clipboard::Fragment;
use super::ids::{self, GuidMap};
use super::model::{Document, Owner};
use super::selection::Selection;

/// The declarations of the keys the branch under `top` uses, `top`'s attached decorators
/// left out (they stay in this tree): the keys its key parameters name, and every declared
/// key whose name appears in one of its text parameters (scripts, log messages). The
/// second part over-approximates on purpose: a key declared and remapped without need
/// costs nothing, a missed one would make the subtree's scripts fail to load.
pub fn branch_keys(doc: &Document, types: &NodeTypes, top: &str) -> Vec<KeyDecl> {
    let branch: HashSet<&str> = doc.subtree(top).into_iter().collect();
    let outside = |owner: &Owner| match owner {
        Owner::Node(node) => !branch.contains(node.as_str()),
        Owner::Decorator { node, .. } => node == top || !branch.contains(node.as_str()),
    };
    let usages = doc.all_key_usages(types);
    let mut texts = Vec::new();
    for node in doc.nodes().filter(|n| branch.contains(n.guid.as_str())) {
        node.params.values().for_each(|v| strings(v, &mut texts));
        if node.guid != top {
            for d in &node.decorators {
                d.params.values().for_each(|v| strings(v, &mut texts));
            }
        }
    }
    let words: HashSet<&str> = texts
        .iter()
        .flat_map(|t| t.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .collect();
    doc.blackboard()
        .iter()
        .filter(|decl| {
            let by_param = usages
                .get(&decl.key)
                .is_some_and(|us| us.iter().any(|u| !outside(&u.owner)));
            let plain = decl.key.chars().all(|c| c.is_alphanumeric() || c == '_');
            by_param
                || words.contains(decl.key.as_str())
                || (!plain && texts.iter().any(|t| t.contains(decl.key.as_str())))
        })
        .cloned()
        .collect()
}

/// Every string inside `value`, nested ones included.
fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// A new document holding `top` and its descendants, `top` as its root without its
/// attached decorators (see the module documentation).
pub fn extract_subtree(
    doc: &Document,
    top: &str,
    types: &NodeTypes,
    name: &str,
) -> Option<Document> {
    let branch = doc.subtree(top);
    if branch.is_empty() {
        return None;
    }
    let fragment = Fragment::copy(doc, &Selection::of_nodes(branch), types);
    let mut map = GuidMap::new();
    let mut fragment = ids::regenerate(&fragment, &mut map);
    let root = map.get(top).map(str::to_owned);
    for node in &mut fragment.nodes {
        if Some(&node.guid) == root.as_ref() {
            node.decorators.clear();
            // Switched off, the branch stays off through the Subtree node (rule 79).
            node.enabled = true;
        }
    }
    let mut out = Document::new(name);
    out.file.root = root;
    out.file.blackboard = branch_keys(doc, types, top);
    out.file.nodes = fragment.nodes;
    out.editor.positions = fragment.positions;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::sample;
    use std::collections::HashSet;

    #[test]
    fn extracts_a_branch_under_new_guids() {
        let (doc, [_, _, c, d, _]) = sample();
        let sub = extract_subtree(&doc, &c, &NodeTypes::builtin(), "branch").unwrap();
        assert_eq!(sub.name(), "branch");
        assert_eq!(sub.node_count(), 2);
        assert_ne!(sub.guid(), doc.guid());
        let old: HashSet<&str> = doc.all_guids().into_iter().collect();
        assert!(sub.all_guids().iter().all(|g| !old.contains(g)));
        let root = sub.root().unwrap();
        assert_eq!(sub.node(root).unwrap().kind, "Inverter");
        assert_eq!(sub.execution_order().len(), 2);
        assert_eq!(sub.position(root), Some([0.0, 0.0]));
        let _ = d;
        assert!(extract_subtree(&doc, "gone", &NodeTypes::builtin(), "x").is_none());
    }
}
