//! Stage 5 of a canvas frame: the input egui_node_editor does not handle.
//!
//! - Level of detail: the boxes' clicks, drags and connections (lod_input.rs).
//! - Sticky notes and groups: both live in the document's editor data, and every change
//!   here is a command (SetNote, SetGroup, SetText, MoveItems). They are painted behind
//!   the nodes (stage 4) but take input after the graph, so their handles (a note's
//!   header, a group's title bar, the resize corners) win over the graph's background.
//!   Only those strips take input, never a whole frame, so nodes inside a group stay
//!   clickable.
//! - Right-clicks open the menu of what is under the pointer (context_menu.rs).
//! - A collapsed group hides its member notes as it hides its nodes.

use std::collections::BTreeSet;

use egui::{Color32, Rect, Sense};

use super::camera::{collapsed_rect, corner_rect, Cam, STRIP};
use super::{Canvas, DEFAULT_NODE_SIZE};
use crate::commands::{MoveItems, SetGroup, SetNote, SetText, TextField};
use crate::document::{frame_around, Bounds, Color, Document, Group, Note, Selection};
use crate::view::UiCx;

/// The text of a new sticky note, selected when it opens so typing replaces it.
pub const NOTE_PLACEHOLDER: &str = "New note";

/// The colour of a note's text, shown or edited: dark, readable on every note colour
/// (a test checks the contrast).
pub const NOTE_INK: Color32 = Color32::from_gray(30);

/// What is being dragged.
#[derive(Clone, Debug, PartialEq)]
enum Drag {
    Note(String),
    NoteSize(String),
    Group(String),
    GroupSize(String),
}

/// Interaction state of notes and groups (no document data).
#[derive(Default)]
pub struct Annotations {
    drag: Option<(Drag, u64)>,
    /// The note whose text is being edited in place.
    pub editing_note: Option<String>,
    /// The group whose title is being edited.
    pub renaming_group: Option<String>,
}

impl Annotations {
    /// Handles presses on notes and groups; runs after the graph so their strips are on top.
    pub(super) fn interact(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, cam: Cam) {
        // Only the annotations are copied (the handlers below apply commands meanwhile):
        // copying the whole document every frame would cost as much as a large tree.
        let (groups, notes) = {
            let doc = cx.session.document();
            (doc.groups().to_vec(), doc.notes().to_vec())
        };
        let modifiers = ui.input(|i| i.modifiers);
        for group in &groups {
            let id = egui::Id::new(("group", &group.guid));
            let (title, corner) = if group.collapsed {
                (collapsed_rect(cam, group), None)
            } else {
                let r = cam.rect(
                    [group.rect[0], group.rect[1]],
                    [group.rect[2], group.rect[3]],
                );
                (
                    Rect::from_min_size(r.min, egui::vec2(r.width(), STRIP * cam.zoom)),
                    Some(corner_rect(r, cam.zoom)),
                )
            };
            let response = ui.interact(title, id, Sense::click_and_drag());
            if response.clicked() {
                select(cx.selection, modifiers, |s| &mut s.groups, &group.guid);
            }
            if response.double_clicked() {
                if group.collapsed {
                    let mut g = group.clone();
                    g.collapsed = false;
                    cx.apply(SetGroup::replace(g));
                } else {
                    self.renaming_group = Some(group.guid.clone());
                }
            }
            if response.dragged() {
                let gesture = self.gesture(cx, Drag::Group(group.guid.clone()));
                let doc = cx.session.document();
                let mut sel = Selection::default();
                sel.groups.insert(group.guid.clone());
                for m in &group.members {
                    if doc.contains(m) {
                        sel.nodes.insert(m.clone());
                    } else if doc.note(m).is_some() {
                        sel.notes.insert(m.clone());
                    }
                }
                let d = response.drag_delta() / cam.zoom;
                if let Ok(c) = MoveItems::by(
                    cx.session.document(),
                    &sel,
                    [f64::from(d.x), f64::from(d.y)],
                ) {
                    cx.apply(c.gesture(gesture));
                }
            }
            if let Some(corner) = corner {
                let handle = ui.interact(corner, id.with("size"), Sense::drag());
                if handle.dragged() {
                    let gesture = self.gesture(cx, Drag::GroupSize(group.guid.clone()));
                    let d = handle.drag_delta() / cam.zoom;
                    if let Some(current) = cx.session.document().group(&group.guid) {
                        let mut g = current.clone();
                        g.rect[2] = (g.rect[2] + f64::from(d.x)).max(120.0);
                        g.rect[3] = (g.rect[3] + f64::from(d.y)).max(60.0);
                        cx.apply(SetGroup::replace(g).gesture(gesture));
                    }
                }
                handle.on_hover_cursor(egui::CursorIcon::ResizeNwSe);
            }
        }
        let hidden = hidden_notes(cx.session.document())
            .into_iter()
            .map(str::to_owned)
            .collect::<std::collections::HashSet<_>>();
        for note in notes.iter().filter(|n| !hidden.contains(&n.guid)) {
            let r = cam.rect(note.pos, note.size);
            let id = egui::Id::new(("note", &note.guid));
            let editing = self.editing_note.as_deref() == Some(note.guid.as_str());
            // The whole note takes presses, except while its text is being edited.
            let grab = if editing {
                Rect::from_min_size(r.min, egui::vec2(r.width(), STRIP * 0.6 * cam.zoom))
            } else {
                r
            };
            let response = ui.interact(grab, id, Sense::click_and_drag());
            if response.clicked() {
                select(cx.selection, modifiers, |s| &mut s.notes, &note.guid);
            }
            if response.double_clicked() {
                self.editing_note = Some(note.guid.clone());
            }
            if response.dragged() {
                let gesture = self.gesture(cx, Drag::Note(note.guid.clone()));
                let mut sel = if cx.selection.notes.contains(&note.guid) {
                    cx.selection.clone()
                } else {
                    Selection::default()
                };
                sel.notes.insert(note.guid.clone());
                let d = response.drag_delta() / cam.zoom;
                if let Ok(c) = MoveItems::by(
                    cx.session.document(),
                    &sel,
                    [f64::from(d.x), f64::from(d.y)],
                ) {
                    cx.apply(c.gesture(gesture));
                }
            }
            let handle = ui.interact(corner_rect(r, cam.zoom), id.with("size"), Sense::drag());
            if handle.dragged() {
                let gesture = self.gesture(cx, Drag::NoteSize(note.guid.clone()));
                let d = handle.drag_delta() / cam.zoom;
                if let Some(current) = cx.session.document().note(&note.guid) {
                    let mut n = current.clone();
                    n.size = [
                        (n.size[0] + f64::from(d.x)).max(80.0),
                        (n.size[1] + f64::from(d.y)).max(48.0),
                    ];
                    cx.apply(SetNote::replace(n).gesture(gesture));
                }
            }
            handle.on_hover_cursor(egui::CursorIcon::ResizeNwSe);
            if editing {
                self.edit_note_text(ui, cx, note, r, cam);
            }
        }
        if let Some(guid) = self.renaming_group.clone() {
            self.rename_group(ui, cx, &guid, cam);
        }
        if !ui.input(|i| i.pointer.any_down()) {
            self.drag = None;
        }
    }

    fn gesture(&mut self, cx: &mut UiCx<'_>, drag: Drag) -> u64 {
        match &self.drag {
            Some((d, g)) if *d == drag => *g,
            _ => {
                let g = cx.gestures.fresh();
                self.drag = Some((drag, g));
                g
            }
        }
    }

    fn edit_note_text(
        &mut self,
        ui: &mut egui::Ui,
        cx: &mut UiCx<'_>,
        note: &Note,
        r: Rect,
        cam: Cam,
    ) {
        let area = Rect::from_min_max(
            r.min + egui::vec2(4.0, STRIP * 0.6 * cam.zoom),
            r.max - egui::vec2(4.0, 4.0),
        );
        let mut text = note.text.clone();
        let id = ui.id().with(("note text", &note.guid));
        // The theme's text colour is light in the dark theme, unreadable on the light
        // note colours: the text is drawn in the ink used when not editing.
        let edit = egui::TextEdit::multiline(&mut text)
            .id(id)
            .font(egui::FontId::proportional(14.0 * cam.zoom))
            .text_color(NOTE_INK)
            // No background: the note is the frame; the text keeps its usual margin.
            .frame(egui::Frame::new().inner_margin(egui::Margin::symmetric(4, 2)))
            .desired_width(area.width());
        let response = ui.put(area, edit);
        if !response.has_focus() && !response.lost_focus() {
            response.request_focus();
            // A new note's placeholder starts selected, so typing replaces it.
            if note.text == NOTE_PLACEHOLDER {
                if let Some(mut state) = egui::TextEdit::load_state(ui.ctx(), id) {
                    let end = egui::text::CCursor::new(note.text.chars().count());
                    state
                        .cursor
                        .set_char_range(Some(egui::text::CCursorRange::two(
                            egui::text::CCursor::new(0),
                            end,
                        )));
                    state.store(ui.ctx(), id);
                }
            }
        }
        if response.changed() {
            let gesture = cx.gestures.for_response(&response);
            if let Ok(c) = SetText::new(
                cx.session.document(),
                TextField::NoteText(note.guid.clone()),
                text,
            ) {
                cx.apply(c.gesture(gesture));
            }
        }
        if response.lost_focus() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.editing_note = None;
        }
    }

    fn rename_group(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, guid: &str, cam: Cam) {
        let Some(group) = cx.session.document().group(guid).cloned() else {
            self.renaming_group = None;
            return;
        };
        let r = cam.rect(
            [group.rect[0], group.rect[1]],
            [group.rect[2], f64::from(STRIP)],
        );
        let mut title = group.title.clone();
        let response = ui.put(r.shrink(2.0), egui::TextEdit::singleline(&mut title));
        if !response.has_focus() && !response.lost_focus() {
            response.request_focus();
        }
        if response.changed() {
            let gesture = cx.gestures.for_response(&response);
            if let Ok(c) = SetText::new(
                cx.session.document(),
                TextField::GroupTitle(guid.to_owned()),
                title,
            ) {
                cx.apply(c.gesture(gesture));
            }
        }
        if response.lost_focus() {
            self.renaming_group = None;
        }
    }
}

fn select(
    selection: &mut Selection,
    modifiers: egui::Modifiers,
    part: impl Fn(&mut Selection) -> &mut BTreeSet<String>,
    guid: &str,
) {
    if modifiers.shift || modifiers.command {
        let set = part(selection);
        if !set.remove(guid) {
            set.insert(guid.to_owned());
        }
    } else {
        *selection = Selection::default();
        part(selection).insert(guid.to_owned());
    }
}

/// A new group around the selected nodes and notes, or `None` if nothing is selected.
pub fn group_around(
    doc: &Document,
    selection: &Selection,
    sizes: &std::collections::HashMap<String, [f64; 2]>,
) -> Option<Group> {
    let mut boxes = Vec::new();
    let mut members = Vec::new();
    for guid in &selection.nodes {
        if let Some(p) = doc.position(guid) {
            let [w, h] = sizes.get(guid).copied().unwrap_or(DEFAULT_NODE_SIZE);
            boxes.push(Bounds {
                min: p,
                max: [p[0] + w, p[1] + h],
            });
            members.push(guid.clone());
        }
    }
    for guid in &selection.notes {
        if let Some(n) = doc.note(guid) {
            boxes.push(Bounds {
                min: n.pos,
                max: [n.pos[0] + n.size[0], n.pos[1] + n.size[1]],
            });
            members.push(guid.clone());
        }
    }
    Some(Group {
        guid: String::new(),
        title: "Group".to_owned(),
        color: Color::Blue,
        rect: frame_around(boxes)?,
        members,
        collapsed: false,
    })
}

/// The notes inside collapsed groups: a collapsed group hides its notes as it hides its
/// nodes.
pub(super) fn hidden_notes(doc: &Document) -> std::collections::HashSet<&str> {
    doc.groups()
        .iter()
        .filter(|g| g.collapsed)
        .flat_map(|g| &g.members)
        .filter(|m| doc.note(m).is_some())
        .map(String::as_str)
        .collect()
}

impl Canvas {
    /// Stage 5: input the library does not handle: clicks and box selection on the
    /// level-of-detail boxes, the handles and menus of notes and groups (after the graph,
    /// so they win over its background), and a request for the node finder.
    pub(super) fn read_input(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, lod: bool) {
        if lod {
            self.lod_input(ui, cx);
        }
        let cam = self.cam();
        self.annotations.interact(ui, cx, cam);
        self.context_menu_ui(ui, cx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::view::fill;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(c: Color32) -> f64 {
        let lin = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c.r()) + 0.7152 * lin(c.g()) + 0.0722 * lin(c.b())
    }

    #[test]
    fn note_text_is_readable_on_every_note_colour() {
        for color in Color::ALL {
            // As painted: the note's fill at 92 % over the darkest canvas.
            let paper = fill(color).gamma_multiply(0.92);
            let (a, b) = (luminance(paper), luminance(NOTE_INK));
            let ratio = (a.max(b) + 0.05) / (a.min(b) + 0.05);
            assert!(
                ratio >= 4.5,
                "{color:?}: contrast {ratio:.2} is below WCAG AA"
            );
        }
    }
}
