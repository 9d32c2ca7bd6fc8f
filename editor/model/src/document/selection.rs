//! Selection: which nodes, notes and groups are selected. View state, not part of the
//! document (undo does not change it), but shared by the canvas, the inspector, copy and
//! delete; [`Selection::retain_existing`] drops what an undo removed.

use std::collections::BTreeSet;

use super::model::Document;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub nodes: BTreeSet<String>,
    pub notes: BTreeSet<String>,
    pub groups: BTreeSet<String>,
    /// A blackboard key picked in the blackboard panel: the canvas marks the nodes that
    /// read or write it. Not counted by `len`/`is_empty` (nothing is copied or deleted
    /// with it).
    pub key: Option<String>,
}

impl Selection {
    pub fn new() -> Selection {
        Selection::default()
    }

    pub fn of_nodes<I, S>(nodes: I) -> Selection
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Selection {
            nodes: nodes.into_iter().map(Into::into).collect(),
            ..Selection::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.notes.is_empty() && self.groups.is_empty()
    }

    pub fn len(&self) -> usize {
        self.nodes.len() + self.notes.len() + self.groups.len()
    }

    /// Everything in the document.
    pub fn all(doc: &Document) -> Selection {
        Selection {
            nodes: doc.nodes().map(|n| n.guid.clone()).collect(),
            notes: doc.notes().iter().map(|n| n.guid.clone()).collect(),
            groups: doc.groups().iter().map(|g| g.guid.clone()).collect(),
            key: None,
        }
    }

    /// Drops GUIDs the document no longer has (after undo, redo or delete).
    pub fn retain_existing(&mut self, doc: &Document) {
        self.nodes.retain(|g| doc.contains(g));
        self.notes.retain(|g| doc.note(g).is_some());
        self.groups.retain(|g| doc.group(g).is_some());
        if let Some(key) = &self.key {
            if !doc.blackboard().iter().any(|k| k.key == *key) {
                self.key = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::model::fixtures::sample;

    #[test]
    fn retain_existing_drops_unknown_guids() {
        let (doc, [a, ..]) = sample();
        let mut sel = Selection::of_nodes([a.as_str(), "gone"]);
        sel.notes.insert("gone".into());
        sel.retain_existing(&doc);
        assert_eq!(sel, Selection::of_nodes([a]));
        assert_eq!(Selection::all(&doc).len(), 5);
    }
}
