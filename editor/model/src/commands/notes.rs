//! Sticky notes and groups: SetNote and SetGroup each add, replace or remove one item
//! (`before` → `after`, either side possibly absent), which covers create, delete, recolor,
//! resize, collapse and membership changes with one exact inverse. Text edits go through
//! [`super::SetText`] so keystrokes merge; moves through [`super::MoveItems`] so they
//! drag with nodes. Resizes in one gesture merge.

use arbor_runtime::format::new_guid;
use arbor_runtime::NodeTypes;
use undo::{Edit, Merged};

use super::{refused, CommandError, DocEdit};
use crate::document::{Document, Group, Note};

/// What SetNote and SetGroup share: a list of items with GUIDs in the editor data.
trait Listed: Clone + PartialEq {
    fn guid(&self) -> &str;
    fn list(doc: &mut Document) -> &mut Vec<Self>;
    /// Every coordinate is finite (JSON cannot hold the others: they would save as `null`
    /// and the file would not load again).
    fn is_finite(&self) -> bool;
}

impl Listed for Note {
    fn guid(&self) -> &str {
        &self.guid
    }
    fn list(doc: &mut Document) -> &mut Vec<Note> {
        &mut doc.editor.notes
    }
    fn is_finite(&self) -> bool {
        self.pos.iter().chain(&self.size).all(|v| v.is_finite())
    }
}

impl Listed for Group {
    fn guid(&self) -> &str {
        &self.guid
    }
    fn list(doc: &mut Document) -> &mut Vec<Group> {
        &mut doc.editor.groups
    }
    fn is_finite(&self) -> bool {
        self.rect.iter().all(|v| v.is_finite())
    }
}

/// Replaces item `guid` with `after` (adding it at the end, or removing it); returns what
/// was there and where.
fn replace<T: Listed>(doc: &mut Document, guid: &str, after: Option<T>) -> Option<(usize, T)> {
    let list = T::list(doc);
    let at = list.iter().position(|x| x.guid() == guid);
    match (at, after) {
        (Some(i), Some(new)) => Some((i, std::mem::replace(&mut list[i], new))),
        (Some(i), None) => Some((i, list.remove(i))),
        (None, Some(new)) => {
            list.push(new);
            None
        }
        (None, None) => None,
    }
}

/// Puts back what `replace` returned.
fn restore<T: Listed>(doc: &mut Document, guid: &str, before: Option<(usize, T)>) {
    let list = T::list(doc);
    let at = list.iter().position(|x| x.guid() == guid);
    match (at, before) {
        (Some(i), Some((_, old))) => list[i] = old,
        (Some(i), None) => {
            list.remove(i);
        }
        (None, Some((i, old))) => list.insert(i.min(list.len()), old),
        (None, None) => {}
    }
}

macro_rules! set_item {
    ($name:ident, $ty:ty, $what:literal, $find:ident) => {
        #[doc = concat!("Adds, replaces or removes one ", $what, ".")]
        #[derive(Clone, Debug)]
        pub struct $name {
            guid: String,
            after: Option<$ty>,
            gesture: u64,
            label: String,
            /// Captured on edit (merged edits keep the first).
            before: Option<(usize, $ty)>,
        }

        impl $name {
            #[doc = concat!("Adds a ", $what, "; a fresh GUID is given if it has none.")]
            pub fn add(mut item: $ty) -> $name {
                if item.guid.is_empty() {
                    item.guid = new_guid();
                }
                $name {
                    guid: item.guid.clone(),
                    after: Some(item),
                    gesture: 0,
                    label: concat!("Add ", $what).to_owned(),
                    before: None,
                }
            }

            #[doc = concat!("Replaces the ", $what, " with the same GUID.")]
            pub fn replace(item: $ty) -> $name {
                $name {
                    guid: item.guid.clone(),
                    after: Some(item),
                    gesture: 0,
                    label: concat!("Edit ", $what).to_owned(),
                    before: None,
                }
            }

            #[doc = concat!("Removes the ", $what, ".")]
            pub fn remove(guid: &str) -> $name {
                $name {
                    guid: guid.to_owned(),
                    after: None,
                    gesture: 0,
                    label: concat!("Delete ", $what).to_owned(),
                    before: None,
                }
            }

            /// Tags the edit with the gesture (a resize drag) it belongs to.
            pub fn gesture(mut self, gesture: u64) -> $name {
                self.gesture = gesture;
                self
            }

            pub fn guid(&self) -> &str {
                &self.guid
            }
        }

        impl Edit for $name {
            type Target = Document;
            type Output = ();

            fn edit(&mut self, doc: &mut Document) {
                self.before = replace(doc, &self.guid, self.after.clone());
            }

            fn undo(&mut self, doc: &mut Document) {
                restore(doc, &self.guid, self.before.clone());
            }

            fn merge(&mut self, other: $name) -> Merged<$name> {
                let both_edits =
                    self.after.is_some() && other.after.is_some() && self.before.is_some();
                if self.guid != other.guid || self.gesture != other.gesture || !both_edits {
                    return Merged::No(other);
                }
                self.after = other.after;
                if self.before.as_ref().map(|b| &b.1) == self.after.as_ref() {
                    Merged::Annul
                } else {
                    Merged::Yes
                }
            }
        }

        impl DocEdit for $name {
            fn label(&self) -> &str {
                &self.label
            }

            fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
                let exists = doc.$find(&self.guid).is_some();
                if self.after.as_ref().is_some_and(|a| !a.is_finite()) {
                    return refused("positions and sizes must be finite numbers");
                }
                match (&self.after, exists) {
                    (None, false) => refused(concat!("that ", $what, " no longer exists")),
                    (Some(_), false) if doc.all_guids().contains(&self.guid.as_str()) => {
                        refused(format!("GUID {} is already in use", self.guid))
                    }
                    _ => Ok(()),
                }
            }

            fn is_noop(&self, doc: &Document) -> bool {
                doc.$find(&self.guid) == self.after.as_ref()
            }
        }
    };
}

set_item!(SetNote, Note, "note", note);
set_item!(SetGroup, Group, "group", group);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::Command;
    use crate::document::{sample, Color};

    #[test]
    fn notes_add_edit_remove_round_trip() {
        let (mut doc, _) = sample();
        let add = SetNote::add(Note {
            text: "why".into(),
            ..Note::default()
        });
        let guid = add.guid().to_owned();
        assert!(!guid.is_empty());
        let after = round_trip(&mut doc, add);
        assert_eq!(after.note(&guid).unwrap().text, "why");
        doc = after;
        let mut edited = doc.note(&guid).unwrap().clone();
        edited.color = Color::Red;
        edited.size = [10.0, 10.0];
        let after = round_trip(&mut doc, SetNote::replace(edited));
        assert_eq!(after.note(&guid).unwrap().color, Color::Red);
        let after = round_trip(&mut doc, SetNote::remove(&guid));
        assert!(after.notes().is_empty());
        assert!(SetNote::remove("gone")
            .check(&doc, &NodeTypes::default())
            .is_err());
    }

    #[test]
    fn groups_keep_their_index_and_collapse_round_trips() {
        let (mut doc, [a, b, ..]) = sample();
        for i in 0..3 {
            SetGroup::add(Group {
                guid: format!("g{i}"),
                ..Group::default()
            })
            .edit(&mut doc);
        }
        let after = round_trip(&mut doc, SetGroup::remove("g1"));
        assert_eq!(
            after
                .groups()
                .iter()
                .map(|g| g.guid.as_str())
                .collect::<Vec<_>>(),
            ["g0", "g2"]
        );
        let mut g = doc.group("g1").unwrap().clone();
        g.collapsed = true;
        g.members = vec![a, b];
        let after = round_trip(&mut doc, SetGroup::replace(g));
        assert!(after.group("g1").unwrap().collapsed);
        assert_eq!(after.groups()[1].guid, "g1");
    }

    #[test]
    fn resizes_in_one_gesture_merge() {
        let (mut doc, _) = sample();
        SetNote::add(Note {
            guid: "n".into(),
            ..Note::default()
        })
        .edit(&mut doc);
        let original = doc.clone();
        let sized = |w: f64| Note {
            guid: "n".into(),
            size: [w, 50.0],
            ..Note::default()
        };
        let mut first = Command::from(SetNote::replace(sized(10.0)).gesture(2));
        first.edit(&mut doc);
        let mut second = Command::from(SetNote::replace(sized(20.0)).gesture(2));
        second.edit(&mut doc);
        assert!(matches!(first.merge(second), Merged::Yes));
        first.undo(&mut doc);
        assert_eq!(doc, original);
    }
}
