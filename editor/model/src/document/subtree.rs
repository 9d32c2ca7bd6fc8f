//! Subtree files: turning a branch of the document into a tree file of its own (the first
//! half of "export as subtree"; the command half is [`crate::commands::replace_with_subtree`]).
//!
//! The new file gets new GUIDs throughout (its own tree GUID, nodes, decorators), so the
//! two files never share an identity, and the declarations of the keys the branch uses.

use arbor_runtime::NodeTypes;

use super::clipboard::Fragment;
use super::ids::{self, GuidMap};
use super::model::Document;
use super::selection::Selection;

/// A new document holding `top` and its descendants, `top` as its root.
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
    let fragment = ids::regenerate(&fragment, &mut map);
    let mut out = Document::new(name);
    out.file.root = map.get(top).map(str::to_owned);
    out.file.blackboard = fragment.keys;
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
