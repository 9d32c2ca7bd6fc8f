//! AutoLayout: applies [`tidy_layout`] as one undoable step. The new positions are computed
//! when the command is built; undo restores every old position, including "none" for
//! nodes that had no position. The layout keeps the child order, so nothing is re-ordered.
//! Notes attached to nodes move with them (and free notes a card would cover step aside),
//! and group frames are fitted to their members' new places, in the same step, so a frame
//! never stays behind around empty canvas.
//!
//! SetLayout: changes the file's [`LayoutSettings`] (direction, keep arranged).

use std::collections::BTreeMap;

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{refused, CommandError, DocEdit};
use crate::document::{
    fit_group, tidy_layout, Arrangement, Document, LayoutOptions, LayoutSettings, Pos,
};

#[derive(Clone, Debug)]
pub struct AutoLayout {
    after: Arrangement,
    /// Group frames fitted to the new positions, by group GUID.
    frames_after: BTreeMap<String, [f64; 4]>,
    /// Captured on edit.
    before: BTreeMap<String, Option<Pos>>,
    notes_before: BTreeMap<String, Pos>,
    frames_before: BTreeMap<String, [f64; 4]>,
}

impl AutoLayout {
    pub fn new(doc: &Document, options: &LayoutOptions) -> AutoLayout {
        let after = tidy_layout(doc, options);
        let frames_after = doc
            .groups()
            .iter()
            .filter_map(|g| Some((g.guid.clone(), fit_group(doc, g, options, &after)?)))
            .collect();
        AutoLayout {
            after,
            frames_after,
            before: BTreeMap::new(),
            notes_before: BTreeMap::new(),
            frames_before: BTreeMap::new(),
        }
    }
}

/// Sets a group's frame; returns the old one.
fn set_frame(doc: &mut Document, guid: &str, rect: [f64; 4]) -> Option<[f64; 4]> {
    let group = doc.editor.groups.iter_mut().find(|g| g.guid == guid)?;
    Some(std::mem::replace(&mut group.rect, rect))
}

/// Sets a note's corner; returns the old one.
fn set_note(doc: &mut Document, guid: &str, pos: Pos) -> Option<Pos> {
    let note = doc.editor.notes.iter_mut().find(|n| n.guid == guid)?;
    Some(std::mem::replace(&mut note.pos, pos))
}

impl Edit for AutoLayout {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.before = self
            .after
            .nodes
            .iter()
            .map(|(g, p)| (g.clone(), doc.set_position(g, Some(*p))))
            .collect();
        self.notes_before = self
            .after
            .notes
            .iter()
            .filter_map(|(g, p)| Some((g.clone(), set_note(doc, g, *p)?)))
            .collect();
        self.frames_before = self
            .frames_after
            .iter()
            .filter_map(|(g, r)| Some((g.clone(), set_frame(doc, g, *r)?)))
            .collect();
    }

    fn undo(&mut self, doc: &mut Document) {
        for (g, r) in &self.frames_before {
            set_frame(doc, g, *r);
        }
        for (g, p) in &self.notes_before {
            set_note(doc, g, *p);
        }
        for (g, p) in &self.before {
            doc.set_position(g, *p);
        }
    }
}

impl DocEdit for AutoLayout {
    fn label(&self) -> &str {
        "Auto-layout"
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if self.after.nodes.keys().any(|g| !doc.contains(g)) {
            return refused("the tree changed since the layout was computed");
        }
        if self
            .after
            .nodes
            .values()
            .chain(self.after.notes.values())
            .flatten()
            .chain(self.frames_after.values().flatten())
            .any(|v| !v.is_finite())
        {
            return refused("the layout sizes must be finite numbers");
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        self.after
            .nodes
            .iter()
            .all(|(g, p)| doc.position(g) == Some(*p))
            && self
                .after
                .notes
                .iter()
                .all(|(g, p)| doc.note(g).map(|n| n.pos) == Some(*p))
            && self
                .frames_after
                .iter()
                .all(|(g, r)| doc.group(g).map(|x| x.rect) == Some(*r))
    }
}

/// Sets the file's layout settings (direction, keep arranged).
#[derive(Clone, Debug)]
pub struct SetLayout {
    settings: LayoutSettings,
    /// Captured on edit.
    before: LayoutSettings,
    label: String,
}

impl SetLayout {
    pub fn new(settings: LayoutSettings) -> SetLayout {
        let label = match settings.direction {
            arbor_runtime::format::layout::LayoutDirection::LeftToRight => "Layout left to right",
            arbor_runtime::format::layout::LayoutDirection::TopDown => "Layout top down",
        };
        let label = if settings.keep_arranged {
            format!("{label}, kept arranged")
        } else {
            label.to_owned()
        };
        SetLayout {
            settings,
            before: LayoutSettings::default(),
            label,
        }
    }
}

impl Edit for SetLayout {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.before = std::mem::replace(&mut doc.editor.layout, self.settings);
    }

    fn undo(&mut self, doc: &mut Document) {
        doc.editor.layout = self.before;
    }
}

impl DocEdit for SetLayout {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, _: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.editor.layout == self.settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    #[test]
    fn lays_out_in_one_step_and_keeps_child_order() {
        let (mut doc, [a, b, c, d, _]) = sample();
        // Scramble: c above b, d unpositioned.
        doc.set_position(&c, Some([900.0, -500.0]));
        doc.set_position(&d, None);
        let cmd = AutoLayout::new(&doc, &LayoutOptions::default());
        assert!(!cmd.is_noop(&doc));
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.children(&a), [b.clone(), c.clone()]);
        assert!(after.position(&b).unwrap()[1] < after.position(&c).unwrap()[1]);
        assert!(after.position(&d).is_some());
        assert!(AutoLayout::new(&after, &LayoutOptions::default()).is_noop(&after));
        let nan = LayoutOptions {
            sibling_gap: f64::NAN,
            ..LayoutOptions::default()
        };
        assert!(AutoLayout::new(&after, &nan)
            .check(&after, &NodeTypes::default())
            .is_err());
    }

    #[test]
    fn group_frames_follow_their_members_in_the_same_step() {
        let (mut doc, [_, b, c, ..]) = sample();
        doc.editor.groups.push(crate::document::Group {
            guid: "g".into(),
            members: vec![b.clone(), c.clone()],
            rect: [5000.0, 5000.0, 10.0, 10.0],
            ..Default::default()
        });
        doc.set_position(&c, Some([900.0, -500.0]));
        let options = LayoutOptions::default();
        let before = doc.clone();
        let after = round_trip(&mut doc, AutoLayout::new(&before, &options));
        let [x, y, w, h] = after.group("g").expect("the group stays").rect;
        for m in [&b, &c] {
            let p = after.position(m).expect("laid out");
            let [mw, mh] = options.node_size;
            assert!(p[0] >= x && p[1] >= y && p[0] + mw <= x + w && p[1] + mh <= y + h);
        }
        // Undo (inside round_trip) restored the old frame exactly.
        assert_eq!(
            doc.group("g").map(|g| g.rect),
            Some([5000.0, 5000.0, 10.0, 10.0])
        );
    }

    #[test]
    fn sibling_groups_get_frames_that_neither_cross_nor_cover_others() {
        // a → [b, c], c → [d]: b and c each in a group of their own, then the same with
        // only c grouped, so b (outside) must not be under c's frame.
        let (mut doc, [_, b, c, d, _]) = sample();
        let group = |guid: &str, members: Vec<String>| crate::document::Group {
            guid: guid.into(),
            members,
            ..Default::default()
        };
        doc.editor.groups.push(group("gb", vec![b.clone()]));
        doc.editor
            .groups
            .push(group("gc", vec![c.clone(), d.clone()]));
        let options = LayoutOptions::default();
        let before = doc.clone();
        let after = round_trip(&mut doc, AutoLayout::new(&before, &options));
        let frame = |g: &str| {
            let [x, y, w, h] = after.group(g).expect("group").rect;
            crate::document::Bounds {
                min: [x, y],
                max: [x + w, y + h],
            }
        };
        assert!(!frame("gb").overlaps(&frame("gc")), "the frames cross");
        doc.editor.groups.remove(0);
        let before = doc.clone();
        let after = round_trip(&mut doc, AutoLayout::new(&before, &options));
        let [x, y, w, h] = after.group("gc").expect("group").rect;
        let frame = crate::document::Bounds {
            min: [x, y],
            max: [x + w, y + h],
        };
        let outside = crate::document::node_box(&options, &b, after.position(&b).expect("b"));
        assert!(!frame.overlaps(&outside), "b lies under c's frame");
    }
}
