//! Paste: adds a [`Fragment`] (from the clipboard, or a duplicate of the selection) as one
//! undo step: its nodes with their internal connections, positions, notes, groups, and the
//! declarations of blackboard keys it uses that the document lacks.
//!
//! Every GUID is regenerated when the command is built ([`ids::regenerate`]), never when
//! it is applied, so redo re-creates the very same GUIDs and later commands that name them
//! stay valid. Pasting the same text twice gives two independent copies. If the document
//! has no root and the fragment has a single top node, that node becomes the root.
//! Undo removes exactly what was appended (everything is appended at the ends of lists).
//! [`Paste::clear_of`] moves the block off the items already there, so a paste never
//! lands on top of existing nodes.

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{finite, refused, CommandError, DocEdit};
use crate::document::ids::{self, GuidMap};
use std::collections::HashSet;

use crate::document::{
    free_offset, node_box, obstacles, Bounds, Document, Fragment, LayoutOptions, Pos, Selection,
};

#[derive(Clone, Debug)]
pub struct Paste {
    /// With new GUIDs; positions already absolute.
    fragment: Fragment,
    label: String,
    /// Captured on edit.
    keys_added: usize,
    made_root: bool,
}

impl Paste {
    /// Pastes `fragment` with its top-left corner at `at`, under fresh random GUIDs.
    pub fn new(fragment: &Fragment, at: Pos) -> Result<Paste, CommandError> {
        Paste::with_guids(fragment, at, &mut GuidMap::new())
    }

    /// As [`Paste::new`], drawing new GUIDs from `map` (tests use a counter).
    pub fn with_guids(
        fragment: &Fragment,
        at: Pos,
        map: &mut GuidMap<'_>,
    ) -> Result<Paste, CommandError> {
        finite(at)?;
        let mut fragment = ids::regenerate(fragment, map);
        let shift = |p: Pos| finite([p[0] + at[0], p[1] + at[1]]);
        for p in fragment.positions.values_mut() {
            *p = shift(*p)?;
        }
        for n in &mut fragment.notes {
            n.pos = shift(n.pos)?;
        }
        for g in &mut fragment.groups {
            let [x, y] = shift([g.rect[0], g.rect[1]])?;
            g.rect[0] = x;
            g.rect[1] = y;
        }
        let label = format!("Paste {}", count(&fragment));
        Ok(Paste {
            fragment,
            label,
            keys_added: 0,
            made_root: false,
        })
    }

    /// Duplicates the selection, offset by `offset` from where it is.
    pub fn duplicate(
        doc: &Document,
        selection: &Selection,
        types: &NodeTypes,
        offset: Pos,
    ) -> Result<Paste, CommandError> {
        let fragment = Fragment::copy(doc, selection, types);
        let origin = crate::document::selection_origin(doc, selection);
        let mut paste = Paste::new(&fragment, [origin[0] + offset[0], origin[1] + offset[1]])?;
        paste.label = format!("Duplicate {}", count(&paste.fragment));
        Ok(paste)
    }

    /// Moves the whole block, keeping its shape, to the nearest spot where it overlaps no
    /// node or note of `doc` (except those in `skip`, e.g. a node the same step removes);
    /// see [`crate::document::free_offset`]. `options` gives the drawn node sizes.
    pub fn clear_of(
        mut self,
        doc: &Document,
        options: &LayoutOptions,
        skip: &HashSet<&str>,
    ) -> Result<Paste, CommandError> {
        let Some(block) = self.bounds(options) else {
            return Ok(self);
        };
        let [dx, dy] = free_offset(block, &obstacles(doc, options, skip));
        let shift = |p: Pos| finite([p[0] + dx, p[1] + dy]);
        let f = &mut self.fragment;
        for p in f.positions.values_mut() {
            *p = shift(*p)?;
        }
        for n in &mut f.notes {
            n.pos = shift(n.pos)?;
        }
        for g in &mut f.groups {
            [g.rect[0], g.rect[1]] = shift([g.rect[0], g.rect[1]])?;
        }
        Ok(self)
    }

    /// The box around the pasted nodes, notes and group frames.
    fn bounds(&self, options: &LayoutOptions) -> Option<Bounds> {
        let f = &self.fragment;
        let nodes = f
            .positions
            .iter()
            .map(|(guid, p)| node_box(options, guid, *p));
        let notes = f.notes.iter().map(|n| Bounds {
            min: n.pos,
            max: [n.pos[0] + n.size[0], n.pos[1] + n.size[1]],
        });
        let groups = f.groups.iter().map(|g| Bounds {
            min: [g.rect[0], g.rect[1]],
            max: [g.rect[0] + g.rect[2], g.rect[1] + g.rect[3]],
        });
        nodes.chain(notes).chain(groups).reduce(|a, b| Bounds {
            min: [a.min[0].min(b.min[0]), a.min[1].min(b.min[1])],
            max: [a.max[0].max(b.max[0]), a.max[1].max(b.max[1])],
        })
    }

    /// The pasted nodes that have no parent among the pasted ones (new GUIDs).
    pub fn tops(&self) -> Vec<&str> {
        self.fragment.tops()
    }

    /// The pasted items (new GUIDs), for the UI to select them.
    pub fn selection(&self) -> Selection {
        Selection {
            nodes: self.fragment.nodes.iter().map(|n| n.guid.clone()).collect(),
            notes: self.fragment.notes.iter().map(|n| n.guid.clone()).collect(),
            groups: self
                .fragment
                .groups
                .iter()
                .map(|g| g.guid.clone())
                .collect(),
            key: None,
        }
    }
}

/// "3 nodes", "1 note", "2 nodes and 1 group".
fn count(f: &Fragment) -> String {
    let parts: Vec<String> = [
        (f.nodes.len(), "node"),
        (f.notes.len(), "note"),
        (f.groups.len(), "group"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| crate::words::count(n, what))
    .collect();
    match parts.len() {
        0 => "nothing".to_owned(),
        _ => parts.join(" and "),
    }
}

impl Edit for Paste {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        let f = &self.fragment;
        doc.file.nodes.extend(f.nodes.iter().cloned());
        for (guid, p) in &f.positions {
            doc.set_position(guid, Some(*p));
        }
        doc.editor.notes.extend(f.notes.iter().cloned());
        doc.editor.groups.extend(f.groups.iter().cloned());
        let before = doc.file.blackboard.len();
        for key in &f.keys {
            if doc.key(&key.key).is_none() {
                doc.file.blackboard.push(key.clone());
            }
        }
        self.keys_added = doc.file.blackboard.len() - before;
        let tops = f.tops();
        self.made_root = doc.file.root.is_none() && tops.len() == 1;
        if self.made_root {
            doc.file.root = Some(tops[0].to_owned());
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        let f = &self.fragment;
        if self.made_root {
            doc.file.root = None;
        }
        let keep = doc.file.blackboard.len().saturating_sub(self.keys_added);
        doc.file.blackboard.truncate(keep);
        let keep = doc.editor.groups.len().saturating_sub(f.groups.len());
        doc.editor.groups.truncate(keep);
        let keep = doc.editor.notes.len().saturating_sub(f.notes.len());
        doc.editor.notes.truncate(keep);
        for guid in f.positions.keys() {
            doc.set_position(guid, None);
        }
        let keep = doc.file.nodes.len().saturating_sub(f.nodes.len());
        doc.file.nodes.truncate(keep);
    }
}

impl DocEdit for Paste {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if self.fragment.is_empty() {
            return refused("nothing to paste");
        }
        let taken: std::collections::HashSet<&str> = doc.all_guids().into_iter().collect();
        let pasted = self.selection();
        let decorators = self
            .fragment
            .nodes
            .iter()
            .flat_map(|n| n.decorators.iter().map(|d| &d.guid));
        let clash = pasted
            .nodes
            .iter()
            .chain(&pasted.notes)
            .chain(&pasted.groups)
            .chain(decorators)
            .find(|g| taken.contains(g.as_str()));
        match clash {
            Some(g) => refused(format!("GUID {g} is already in use")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::{sample, Group, Note};
    use std::collections::HashSet;

    fn unique(doc: &Document) -> bool {
        let all = doc.all_guids();
        all.iter().collect::<HashSet<_>>().len() == all.len()
    }

    #[test]
    fn paste_regenerates_guids_and_keeps_internal_edges() {
        let types = NodeTypes::builtin();
        let (mut doc, [_, _, c, d, _]) = sample();
        let frag = Fragment::copy(&doc, &Selection::of_nodes([&c, &d]), &types);
        let text = frag.to_json();
        let cmd = Paste::new(&Fragment::from_json(&text).unwrap(), [1000.0, 1000.0]).unwrap();
        assert_eq!(cmd.label(), "Paste 2 nodes");
        let pasted = cmd.selection();
        let after = round_trip(&mut doc, cmd);
        assert!(unique(&after));
        assert_eq!(after.node_count(), 7);
        assert!(!pasted.nodes.contains(&c) && !pasted.nodes.contains(&d));
        let top = after.node(&after.nodes().nth(5).unwrap().guid).unwrap();
        assert_eq!(top.kind, "Inverter");
        assert_eq!(top.children.len(), 1);
        assert!(pasted.nodes.contains(&top.children[0]));
        assert_eq!(after.position(&top.guid), Some([1000.0, 1000.0]));
        // The copy is not attached to anything.
        assert_eq!(after.parent_of(&top.guid), None);
    }

    #[test]
    fn pasting_twice_gives_distinct_copies() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, ..]) = sample();
        let frag = Fragment::copy(&doc, &Selection::all(&doc), &types);
        let one = Paste::new(&frag, [0.0, 0.0]).unwrap();
        let two = Paste::new(&frag, [0.0, 0.0]).unwrap();
        let mut one_c = one.clone();
        one_c.edit(&mut doc);
        two.check(&doc, &types).unwrap();
        let after = round_trip(&mut doc, two);
        assert!(unique(&after));
        assert_eq!(after.node_count(), 15);
        assert_eq!(after.root(), Some(a.as_str()));
    }

    #[test]
    fn duplicate_offsets_and_copies_notes_groups_and_keys() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, ..]) = sample();
        doc.editor.notes.push(Note {
            guid: "n".into(),
            pos: [50.0, 60.0],
            ..Note::default()
        });
        doc.editor.groups.push(Group {
            guid: "g".into(),
            rect: [90.0, 40.0, 10.0, 10.0],
            members: vec![b.clone()],
            ..Group::default()
        });
        let mut sel = Selection::of_nodes([&b]);
        sel.notes.insert("n".into());
        sel.groups.insert("g".into());
        let cmd = Paste::duplicate(&doc, &sel, &types, [20.0, 20.0]).unwrap();
        assert_eq!(cmd.label(), "Duplicate 1 node and 1 note and 1 group");
        let new = cmd.selection();
        let after = round_trip(&mut doc, cmd);
        let nb = new.nodes.first().unwrap();
        assert_eq!(after.position(nb), Some([120.0, 70.0]));
        let note = after.note(new.notes.first().unwrap()).unwrap();
        assert_eq!(note.pos, [70.0, 80.0]);
        let group = after.group(new.groups.first().unwrap()).unwrap();
        assert_eq!(group.members, std::slice::from_ref(nb));
        assert_eq!(group.rect, [110.0, 60.0, 10.0, 10.0]);
        assert!(unique(&after));
        let _ = a;
    }

    #[test]
    fn paste_into_an_empty_tree_sets_the_root_and_adds_keys() {
        let types = NodeTypes::builtin();
        let mut src = Document::new("src");
        let mut cond = arbor_runtime::format::NodeDef::new("Condition");
        cond.params.insert("key".into(), serde_json::json!("hp"));
        src.file.nodes.push(cond.clone());
        src.file.blackboard.push(arbor_runtime::format::KeyDecl {
            key: "hp".into(),
            ty: arbor_runtime::ValueType::Int,
            default: None,
            description: String::new(),
            unknown: Default::default(),
        });
        let frag = Fragment::copy(&src, &Selection::of_nodes([&cond.guid]), &types);
        let mut doc = Document::new("dst");
        let cmd = Paste::new(&frag, [0.0, 0.0]).unwrap();
        let new = cmd.selection();
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.root(), new.nodes.first().map(String::as_str));
        assert_eq!(after.blackboard().len(), 1);
    }

    #[test]
    fn empty_and_clashing_pastes_are_refused() {
        let types = NodeTypes::builtin();
        let (doc, _) = sample();
        let empty = Paste::new(&Fragment::default(), [0.0, 0.0]).unwrap();
        assert!(empty.check(&doc, &types).is_err());
        let frag = Fragment::copy(&doc, &Selection::all(&doc), &types);
        // A generator that hands out GUIDs the document already uses.
        let existing: Vec<String> = doc.nodes().map(|n| n.guid.clone()).collect();
        let mut it = existing.into_iter().cycle();
        let mut map = GuidMap::with_generator(move || it.next().unwrap_or_default());
        let clash = Paste::with_guids(&frag, [0.0, 0.0], &mut map).unwrap();
        assert!(clash
            .check(&doc, &types)
            .unwrap_err()
            .to_string()
            .contains("already in use"));
    }
}
