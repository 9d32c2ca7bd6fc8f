//! A GUID → position index over the document's node list, so that looking a node up is
//! O(1): loading, laying out and checking a document look up every node at least once,
//! and a scan per lookup would make opening a 20,000-node file quadratic.
//!
//! The index is a cache beside the list, not part of it: commands change the list
//! directly, so the index checks itself on every use. A hit is verified against the list;
//! a stale hit, or a list whose length or buffer changed, rebuilds it (once per change,
//! O(n)); a miss on an unchanged list falls back to a scan, as the lookup did before (a
//! node changed in place), and rebuilds if that finds it. With duplicate GUIDs (a
//! hand-edited file) the first node wins, as the scan's did.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use arbor_runtime::format::NodeDef;

/// See the module documentation.
#[derive(Default)]
pub(crate) struct NodeIndex(Mutex<Built>);

#[derive(Default)]
struct Built {
    /// The list's length and buffer address when built.
    stamp: (usize, usize),
    at: HashMap<String, usize>,
    /// Entries inserted by all builds plus entries scanned by fallbacks (for tests: this
    /// grows with the list, not with lookups times the list).
    work: u64,
}

impl NodeIndex {
    /// The position of the first node with `guid` in `nodes`.
    pub(crate) fn find(&self, nodes: &[NodeDef], guid: &str) -> Option<usize> {
        let mut built = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let hit = built.at.get(guid).copied();
        if let Some(i) = hit.filter(|&i| nodes.get(i).is_some_and(|n| n.guid == guid)) {
            return Some(i);
        }
        let stamp = (nodes.len(), nodes.as_ptr() as usize);
        if hit.is_some() || built.stamp != stamp {
            built.rebuild(nodes);
            return built.at.get(guid).copied();
        }
        let found = nodes.iter().position(|n| n.guid == guid);
        built.work += found.map_or(nodes.len(), |i| i + 1) as u64;
        if found.is_some() {
            built.rebuild(nodes);
        }
        found
    }

    /// Entries the index has inserted or scanned so far.
    pub(crate) fn work(&self) -> u64 {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).work
    }
}

impl Built {
    fn rebuild(&mut self, nodes: &[NodeDef]) {
        self.at.clear();
        for (i, n) in nodes.iter().enumerate() {
            self.at.entry(n.guid.clone()).or_insert(i);
        }
        self.stamp = (nodes.len(), nodes.as_ptr() as usize);
        self.work += nodes.len() as u64;
    }
}

/// A copy starts with an empty index: it is rebuilt on first use.
impl Clone for NodeIndex {
    fn clone(&self) -> Self {
        NodeIndex::default()
    }
}

/// The index is derived from the list, so it never makes two documents differ.
impl PartialEq for NodeIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for NodeIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NodeIndex")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_every_kind_of_change_to_the_list() {
        let mut nodes: Vec<NodeDef> = (0..4).map(|_| NodeDef::new("Wait")).collect();
        let index = NodeIndex::default();
        let g: Vec<String> = nodes.iter().map(|n| n.guid.clone()).collect();
        assert_eq!(index.find(&nodes, &g[2]), Some(2));
        nodes.remove(0);
        assert_eq!(index.find(&nodes, &g[2]), Some(1), "removed before it");
        assert_eq!(index.find(&nodes, &g[0]), None);
        nodes.swap(0, 1);
        assert_eq!(index.find(&nodes, &g[2]), Some(0), "reordered in place");
        nodes[2].guid = "renamed".into();
        assert_eq!(index.find(&nodes, "renamed"), Some(2), "changed in place");
        let mut twice = nodes.clone();
        twice.push(nodes[0].clone());
        assert_eq!(
            index.find(&twice, &nodes[0].guid),
            Some(0),
            "the first wins"
        );
    }
}
