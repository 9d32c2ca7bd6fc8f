//! MoveItems: moves nodes, notes and groups on the canvas (a drag, a nudge, "align").
//!
//! Siblings are ordered along the layout's sibling axis (y when laid out left to right, x
//! when top down), so after moving, the children of every parent of a moved node are
//! re-sorted by that coordinate (stably: equal keys keep the order). A child therefore
//! changes place only when its corner passes a sibling's. The re-ordering is
//! recorded, and undo restores the old order, not merely the old positions.
//!
//! Merging: as egui's undoer makes "an undo point … when you _stop_ dragging", each frame of
//! a drag is a `MoveItems` with the same items and the same gesture id; they merge into
//! one step that keeps the first's start and the last's end. A drag that ends where it
//! started annuls itself, leaving no step.

use std::collections::BTreeMap;

use arbor_runtime::NodeTypes;
use undo::{Edit, Merged};

use super::{finite, quoted, refused, CommandError, DocEdit};
use crate::document::{Document, Pos, Selection};

/// Something with a place on the canvas.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Item {
    Node(String),
    Note(String),
    /// A group's frame (its top-left corner); members move only if they are moved too.
    Group(String),
}

#[derive(Clone, Debug)]
pub struct MoveItems {
    /// Item -> (position before, position after).
    moves: BTreeMap<Item, (Option<Pos>, Pos)>,
    gesture: u64,
    label: String,
    /// Parent -> (children before, children after), for parents whose order changed.
    /// Captured on edit; merged edits keep the first `before`.
    reorders: BTreeMap<String, (Vec<String>, Vec<String>)>,
}

fn position(doc: &Document, item: &Item) -> Option<Pos> {
    match item {
        Item::Node(g) => doc.position(g),
        Item::Note(g) => doc.note(g).map(|n| n.pos),
        Item::Group(g) => doc.group(g).map(|g| [g.rect[0], g.rect[1]]),
    }
}

fn set(doc: &mut Document, item: &Item, pos: Option<Pos>) {
    match item {
        Item::Node(g) => {
            doc.set_position(g, pos);
        }
        Item::Note(g) => {
            if let (Some(n), Some(p)) = (doc.editor.notes.iter_mut().find(|n| n.guid == *g), pos) {
                n.pos = p;
            }
        }
        Item::Group(g) => {
            if let (Some(gr), Some(p)) = (doc.editor.groups.iter_mut().find(|x| x.guid == *g), pos)
            {
                gr.rect[0] = p[0];
                gr.rect[1] = p[1];
            }
        }
    }
}

impl MoveItems {
    /// Moves the selected items by `delta`. A node without a position starts from (0, 0).
    pub fn by(
        doc: &Document,
        selection: &Selection,
        delta: Pos,
    ) -> Result<MoveItems, CommandError> {
        finite(delta)?;
        let items = selection
            .nodes
            .iter()
            .filter(|g| doc.contains(g))
            .map(|g| Item::Node(g.clone()))
            .chain(
                selection
                    .notes
                    .iter()
                    .filter(|g| doc.note(g).is_some())
                    .map(|g| Item::Note(g.clone())),
            )
            .chain(
                selection
                    .groups
                    .iter()
                    .filter(|g| doc.group(g).is_some())
                    .map(|g| Item::Group(g.clone())),
            );
        let targets = items
            .map(|item| {
                let from = position(doc, &item).unwrap_or([0.0, 0.0]);
                let to = finite([from[0] + delta[0], from[1] + delta[1]])?;
                Ok((item, to))
            })
            .collect::<Result<Vec<_>, CommandError>>()?;
        MoveItems::to(doc, targets)
    }

    /// Moves each item to the given position (the canvas reports where nodes ended up).
    pub fn to(doc: &Document, targets: Vec<(Item, Pos)>) -> Result<MoveItems, CommandError> {
        let mut moves = BTreeMap::new();
        for (item, to) in targets {
            moves.insert(item.clone(), (position(doc, &item), finite(to)?));
        }
        let label = match moves.keys().next() {
            Some(Item::Node(g)) if moves.len() == 1 => format!("Move {}", quoted(doc, g)),
            Some(_) if moves.len() == 1 => "Move 1 item".to_owned(),
            _ => format!("Move {}", crate::words::count(moves.len(), "item")),
        };
        Ok(MoveItems {
            moves,
            gesture: 0,
            label,
            reorders: BTreeMap::new(),
        })
    }

    /// Tags the command with the drag it belongs to; see the module documentation.
    pub fn gesture(mut self, gesture: u64) -> MoveItems {
        self.gesture = gesture;
        self
    }
}

impl Edit for MoveItems {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        for (item, (from, to)) in &mut self.moves {
            *from = position(doc, item);
            set(doc, item, Some(*to));
        }
        self.reorders.clear();
        let mut parents: Vec<String> = self
            .moves
            .keys()
            .filter_map(|item| match item {
                Item::Node(g) => doc.parent_of(g).map(str::to_owned),
                _ => None,
            })
            .collect();
        parents.sort();
        parents.dedup();
        for parent in parents {
            let sorted = doc.children_in_place_order(&parent);
            if let Some(node) = doc.node_mut(&parent) {
                if node.children != sorted {
                    let before = std::mem::replace(&mut node.children, sorted.clone());
                    self.reorders.insert(parent, (before, sorted));
                }
            }
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        for (parent, (before, _)) in &self.reorders {
            if let Some(node) = doc.node_mut(parent) {
                node.children = before.clone();
            }
        }
        for (item, (from, _)) in &self.moves {
            set(doc, item, *from);
        }
    }

    fn merge(&mut self, other: MoveItems) -> Merged<MoveItems> {
        let same_items = self.moves.len() == other.moves.len()
            && self
                .moves
                .keys()
                .zip(other.moves.keys())
                .all(|(a, b)| a == b);
        if !same_items || self.gesture != other.gesture {
            return Merged::No(other);
        }
        for (mine, (_, theirs)) in self.moves.values_mut().zip(other.moves.into_values()) {
            mine.1 = theirs;
        }
        for (parent, (before, after)) in other.reorders {
            self.reorders
                .entry(parent)
                .and_modify(|r| r.1 = after.clone())
                .or_insert((before, after));
        }
        let back_home = self.moves.values().all(|(from, to)| *from == Some(*to))
            && self
                .reorders
                .values()
                .all(|(before, after)| before == after);
        if back_home {
            Merged::Annul
        } else {
            Merged::Yes
        }
    }
}

impl DocEdit for MoveItems {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        for item in self.moves.keys() {
            if position(doc, item).is_none() && !matches!(item, Item::Node(g) if doc.contains(g)) {
                return refused("a moved item no longer exists");
            }
        }
        if self.moves.is_empty() {
            return refused("nothing to move");
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        self.moves
            .iter()
            .all(|(item, (_, to))| position(doc, item) == Some(*to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::Command;
    use crate::document::{sample, Note};

    #[test]
    fn moving_a_child_past_its_sibling_reorders_and_undo_restores() {
        let (mut doc, [a, b, c, ..]) = sample();
        // b at y=50, c at y=100: move b to y=200.
        let cmd = MoveItems::by(&doc, &Selection::of_nodes([&b]), [0.0, 150.0]).unwrap();
        assert_eq!(cmd.label(), "Move \"Wait\"");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.position(&b), Some([100.0, 200.0]));
        assert_eq!(after.children(&a), [c, b]);
    }

    #[test]
    fn a_drag_reorders_only_when_the_node_passes_a_sibling() {
        let (doc, [a, b, c, ..]) = sample();
        // b at y=50, c at y=100.
        let sel = Selection::of_nodes([&b]);
        let mut near = doc.clone();
        Command::from(MoveItems::by(&near, &sel, [0.0, 40.0]).unwrap()).edit(&mut near);
        assert_eq!(near.children(&a), [b.clone(), c.clone()], "not past c yet");
        assert_eq!(near.sibling_place(&b), Some((0, 2)));
        let mut past = doc.clone();
        Command::from(MoveItems::by(&past, &sel, [0.0, 60.0]).unwrap()).edit(&mut past);
        assert_eq!(past.children(&a), [c.clone(), b.clone()]);
        assert_eq!(past.sibling_place(&b), Some((1, 2)));
    }

    #[test]
    fn top_down_files_order_siblings_left_to_right() {
        let (mut doc, [a, b, c, ..]) = sample();
        doc.editor.layout.direction = arbor_runtime::format::layout::LayoutDirection::TopDown;
        // b at x=100, c at x=200: far down keeps the order, right past c changes it.
        let sel = Selection::of_nodes([&b]);
        let mut down = doc.clone();
        Command::from(MoveItems::by(&down, &sel, [0.0, 500.0]).unwrap()).edit(&mut down);
        assert_eq!(down.children(&a), [b.clone(), c.clone()]);
        let right = MoveItems::by(&doc, &sel, [150.0, 0.0]).unwrap();
        let after = round_trip(&mut doc, right);
        assert_eq!(after.children(&a), [c, b]);
    }

    #[test]
    fn notes_groups_and_unpositioned_nodes_move() {
        let (mut doc, [a, ..]) = sample();
        doc.editor.notes.push(Note {
            guid: "n".into(),
            pos: [1.0, 1.0],
            ..Note::default()
        });
        doc.set_position(&a, None);
        let mut sel = Selection::of_nodes([&a]);
        sel.notes.insert("n".into());
        let cmd = MoveItems::by(&doc, &sel, [10.0, 20.0]).unwrap();
        assert_eq!(cmd.label(), "Move 2 items");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.position(&a), Some([10.0, 20.0]));
        assert_eq!(after.note("n").unwrap().pos, [11.0, 21.0]);
    }

    #[test]
    fn frames_of_one_drag_merge_and_a_new_drag_does_not() {
        let (mut doc, [_, b, ..]) = sample();
        let original = doc.clone();
        let sel = Selection::of_nodes([&b]);
        let mut first = Command::from(MoveItems::by(&doc, &sel, [10.0, 0.0]).unwrap().gesture(1));
        first.edit(&mut doc);
        let mut second = Command::from(MoveItems::by(&doc, &sel, [5.0, 5.0]).unwrap().gesture(1));
        second.edit(&mut doc);
        assert!(matches!(first.merge(second), Merged::Yes));
        let end = doc.clone();
        first.undo(&mut doc);
        assert_eq!(doc, original);
        first.redo(&mut doc);
        assert_eq!(doc, end);

        let mut other = Command::from(MoveItems::by(&doc, &sel, [1.0, 0.0]).unwrap().gesture(2));
        other.edit(&mut doc);
        assert!(matches!(first.merge(other), Merged::No(_)));
    }

    #[test]
    fn merged_drag_keeps_the_first_order_and_a_drag_home_annuls() {
        let (mut doc, [a, b, c, ..]) = sample();
        let original = doc.clone();
        let sel = Selection::of_nodes([&b]);
        let mut first = MoveItems::by(&doc, &sel, [0.0, 150.0]).unwrap().gesture(7);
        first.edit(&mut doc); // reorders a: [c, b]
        assert_eq!(doc.children(&a), [c.clone(), b.clone()]);
        let mut second = MoveItems::by(&doc, &sel, [0.0, -150.0]).unwrap().gesture(7);
        second.edit(&mut doc); // back: [b, c]
        assert_eq!(doc, original);
        assert!(matches!(first.merge(second), Merged::Annul));
    }

    #[test]
    fn zero_moves_are_noops_and_bad_input_is_refused() {
        let (doc, [_, b, ..]) = sample();
        let cmd = MoveItems::by(&doc, &Selection::of_nodes([&b]), [0.0, 0.0]).unwrap();
        assert!(cmd.is_noop(&doc));
        assert!(MoveItems::by(&doc, &Selection::of_nodes([&b]), [f64::INFINITY, 0.0]).is_err());
        let empty = MoveItems::by(&doc, &Selection::new(), [1.0, 0.0]).unwrap();
        assert!(empty.check(&doc, &NodeTypes::builtin()).is_err());
    }
}
