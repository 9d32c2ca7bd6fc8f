//! RemoveItems: deletes the selected nodes, notes and groups (the Delete key, and the second
//! half of Cut).
//!
//! Removing a node also removes the edges to it (its place in a surviving parent's
//! `children`), its position and its membership of surviving groups; its own children
//! survive, unconnected. All of that is captured on edit, so undo restores it exactly:
//! the nodes at their old indices, each parent's children list in its old order, the root.

use std::collections::HashSet;

use arbor_runtime::format::NodeDef;
use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::{Document, Group, Note, Pos, Selection};

#[derive(Clone, Debug)]
pub struct RemoveItems {
    selection: Selection,
    label: String,
    removed: Removed,
}

/// What an edit took out, for undo.
#[derive(Clone, Debug, Default)]
struct Removed {
    /// Ascending indices.
    nodes: Vec<(usize, NodeDef)>,
    /// Surviving parents' children lists before the edit.
    parents: Vec<(String, Vec<String>)>,
    positions: Vec<(String, Pos)>,
    root: Option<String>,
    /// Surviving groups' member lists before the edit.
    members: Vec<(String, Vec<String>)>,
    notes: Vec<(usize, Note)>,
    groups: Vec<(usize, Group)>,
}

impl RemoveItems {
    pub fn new(doc: &Document, selection: &Selection) -> RemoveItems {
        let mut selection = selection.clone();
        selection.retain_existing(doc);
        let label = match (selection.len(), selection.nodes.first()) {
            (1, Some(node)) => format!("Delete {}", quoted(doc, node)),
            (1, None) if !selection.notes.is_empty() => "Delete note".to_owned(),
            (1, None) => "Delete group".to_owned(),
            (n, _) => format!("Delete {}", crate::words::count(n, "item")),
        };
        RemoveItems {
            selection,
            label,
            removed: Removed::default(),
        }
    }

    /// The same command under another name ("Cut").
    pub fn with_label(mut self, label: impl Into<String>) -> RemoveItems {
        self.label = label.into();
        self
    }
}

impl Edit for RemoveItems {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        let sel = &self.selection;
        let gone: HashSet<&str> = sel.nodes.iter().map(String::as_str).collect();
        let mut r = Removed {
            root: doc.file.root.clone(),
            ..Removed::default()
        };
        let nodes = std::mem::take(&mut doc.file.nodes);
        for (i, node) in nodes.into_iter().enumerate() {
            if gone.contains(node.guid.as_str()) {
                r.nodes.push((i, node));
            } else {
                doc.file.nodes.push(node);
            }
        }
        for node in &mut doc.file.nodes {
            if node.children.iter().any(|c| gone.contains(c.as_str())) {
                r.parents.push((node.guid.clone(), node.children.clone()));
                node.children.retain(|c| !gone.contains(c.as_str()));
            }
        }
        for guid in &sel.nodes {
            if let Some(p) = doc.set_position(guid, None) {
                r.positions.push((guid.clone(), p));
            }
        }
        if doc.file.root.as_deref().is_some_and(|g| gone.contains(g)) {
            doc.file.root = None;
        }
        let editor = &mut doc.editor;
        for (i, note) in std::mem::take(&mut editor.notes).into_iter().enumerate() {
            if sel.notes.contains(&note.guid) {
                r.notes.push((i, note));
            } else {
                editor.notes.push(note);
            }
        }
        for (i, group) in std::mem::take(&mut editor.groups).into_iter().enumerate() {
            if sel.groups.contains(&group.guid) {
                r.groups.push((i, group));
            } else {
                editor.groups.push(group);
            }
        }
        for group in &mut editor.groups {
            if group.members.iter().any(|m| gone.contains(m.as_str())) {
                r.members.push((group.guid.clone(), group.members.clone()));
                group.members.retain(|m| !gone.contains(m.as_str()));
            }
        }
        self.removed = r;
    }

    fn undo(&mut self, doc: &mut Document) {
        let r = std::mem::take(&mut self.removed);
        let editor = &mut doc.editor;
        for (guid, members) in r.members {
            if let Some(g) = editor.groups.iter_mut().find(|g| g.guid == guid) {
                g.members = members;
            }
        }
        // Ascending order: each insertion lands where it was, because everything before
        // it is already back in place.
        for (i, group) in r.groups {
            let i = i.min(editor.groups.len());
            editor.groups.insert(i, group);
        }
        for (i, note) in r.notes {
            let i = i.min(editor.notes.len());
            editor.notes.insert(i, note);
        }
        doc.file.root = r.root;
        for (guid, p) in r.positions {
            doc.set_position(&guid, Some(p));
        }
        for (guid, children) in r.parents {
            if let Some(n) = doc.node_mut(&guid) {
                n.children = children;
            }
        }
        for (i, node) in r.nodes {
            let i = i.min(doc.file.nodes.len());
            doc.file.nodes.insert(i, node);
        }
    }
}

impl DocEdit for RemoveItems {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        let mut existing = self.selection.clone();
        existing.retain_existing(doc);
        if existing.is_empty() {
            return refused("nothing to delete");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    #[test]
    fn removing_a_middle_child_restores_its_place_on_undo() {
        let (mut doc, [a, b, c, d, _]) = sample();
        let cmd = RemoveItems::new(&doc, &Selection::of_nodes([&b]));
        assert_eq!(cmd.label(), "Delete \"Wait\"");
        let after = round_trip(&mut doc, cmd);
        assert!(!after.contains(&b));
        assert_eq!(after.children(&a), std::slice::from_ref(&c));
        assert_eq!(after.position(&b), None);
        assert_eq!(after.children(&c), [d]);
    }

    #[test]
    fn removing_the_root_and_a_subtree_top_leaves_children_unconnected() {
        let (mut doc, [a, b, c, d, _]) = sample();
        let after = {
            let cmd = RemoveItems::new(&doc, &Selection::of_nodes([&a, &c]));
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.root(), None);
        assert_eq!(after.parent_of(&b), None);
        assert_eq!(after.parent_of(&d), None);
        assert_eq!(after.node_count(), 3);
    }

    #[test]
    fn notes_groups_and_memberships_round_trip() {
        let (mut doc, [a, b, ..]) = sample();
        for i in 0..3 {
            doc.editor.notes.push(Note {
                guid: format!("n{i}"),
                ..Note::default()
            });
        }
        doc.editor.groups.push(Group {
            guid: "g0".into(),
            members: vec![a.clone(), b.clone()],
            ..Group::default()
        });
        doc.editor.groups.push(Group {
            guid: "g1".into(),
            ..Group::default()
        });
        let mut sel = Selection::of_nodes([&b]);
        sel.notes.insert("n1".into());
        sel.groups.insert("g1".into());
        let cmd = RemoveItems::new(&doc, &sel);
        assert_eq!(cmd.label(), "Delete 3 items");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.notes().len(), 2);
        assert_eq!(after.groups().len(), 1);
        assert_eq!(after.groups()[0].members, [a]);
    }

    #[test]
    fn an_empty_or_stale_selection_is_refused() {
        let (doc, _) = sample();
        let cmd = RemoveItems::new(&doc, &Selection::of_nodes(["gone"]));
        assert!(cmd.check(&doc, &NodeTypes::builtin()).is_err());
    }
}
