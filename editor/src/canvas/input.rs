//! Stage 5 of a canvas frame: the input egui_node_graph2 does not handle.
//!
//! - Level of detail: the boxes' clicks, drags and connections (lod_input.rs).
//! - Sticky notes and groups: both live in the document's editor data, and every change
//!   here is a command (SetNote, SetGroup, SetText, MoveItems). They are painted behind
//!   the nodes (stage 4) but take input after the graph, so their handles (a note's
//!   header, a group's title bar, the resize corners) win over the graph's background.
//!   Only those strips take input, never a whole frame, so nodes inside a group stay
//!   clickable.
//! - The node finder the library opens on a right-click becomes the app's palette.

use std::collections::BTreeSet;

use egui::{Color32, Rect, Sense, Stroke};

use super::camera::{collapsed_rect, corner_rect, Cam, STRIP};
use super::view::fill;
use super::{Canvas, DEFAULT_NODE_SIZE};
use crate::commands::{MoveItems, SetGroup, SetNote, SetText, TextField};
use crate::document::{Color, Document, Group, Note, Selection};
use crate::view::UiCx;

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
            response.context_menu(|ui| group_menu(ui, cx, group));
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
        for note in &notes {
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
            response.context_menu(|ui| note_menu(ui, cx, note, &mut self.editing_note));
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
        let edit = egui::TextEdit::multiline(&mut text)
            .font(egui::FontId::proportional(14.0 * cam.zoom))
            .frame(false)
            .desired_width(area.width());
        let response = ui.put(area, edit);
        if !response.has_focus() && !response.lost_focus() {
            response.request_focus();
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

fn group_menu(ui: &mut egui::Ui, cx: &mut UiCx<'_>, group: &Group) {
    ui.label(egui::RichText::new(&group.title).strong());
    let text = if group.collapsed {
        "Expand"
    } else {
        "Collapse"
    };
    if ui.button(text).clicked() {
        let mut g = group.clone();
        g.collapsed = !g.collapsed;
        cx.apply(SetGroup::replace(g));
        ui.close_menu();
    }
    color_choices(ui, group.color, |c| {
        let mut g = group.clone();
        g.color = c;
        cx.apply(SetGroup::replace(g));
    });
    if ui.button("Ungroup (keep nodes)").clicked() {
        cx.apply(SetGroup::remove(&group.guid));
        ui.close_menu();
    }
}

fn note_menu(ui: &mut egui::Ui, cx: &mut UiCx<'_>, note: &Note, editing: &mut Option<String>) {
    if ui.button("Edit text").clicked() {
        *editing = Some(note.guid.clone());
        ui.close_menu();
    }
    color_choices(ui, note.color, |c| {
        let mut n = note.clone();
        n.color = c;
        cx.apply(SetNote::replace(n));
    });
    if ui.button("Delete note").clicked() {
        cx.apply(SetNote::remove(&note.guid));
        ui.close_menu();
    }
}

fn color_choices(ui: &mut egui::Ui, current: Color, mut pick: impl FnMut(Color)) {
    ui.horizontal(|ui| {
        for c in Color::ALL {
            let (r, response) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), Sense::click());
            let stroke = if c == current {
                Stroke::new(2.0, Color32::WHITE)
            } else {
                Stroke::NONE
            };
            ui.painter().rect(r, 3.0, fill(c), stroke);
            if response.on_hover_text(c.name()).clicked() {
                pick(c);
            }
        }
    });
}

/// A new group around the selected nodes and notes, or `None` if nothing is selected.
pub fn group_around(
    doc: &Document,
    selection: &Selection,
    sizes: &std::collections::HashMap<String, [f64; 2]>,
) -> Option<Group> {
    let mut min = [f64::MAX, f64::MAX];
    let mut max = [f64::MIN, f64::MIN];
    let mut members = Vec::new();
    let mut grow = |p: [f64; 2], s: [f64; 2]| {
        min = [min[0].min(p[0]), min[1].min(p[1])];
        max = [max[0].max(p[0] + s[0]), max[1].max(p[1] + s[1])];
    };
    for guid in &selection.nodes {
        if let Some(p) = doc.position(guid) {
            grow(p, sizes.get(guid).copied().unwrap_or(DEFAULT_NODE_SIZE));
            members.push(guid.clone());
        }
    }
    for guid in &selection.notes {
        if let Some(n) = doc.note(guid) {
            grow(n.pos, n.size);
            members.push(guid.clone());
        }
    }
    if members.is_empty() {
        return None;
    }
    let pad = 24.0;
    Some(Group {
        guid: String::new(),
        title: "Group".to_owned(),
        color: Color::Blue,
        rect: [
            min[0] - pad,
            min[1] - pad - f64::from(STRIP),
            max[0] - min[0] + 2.0 * pad,
            max[1] - min[1] + 2.0 * pad + f64::from(STRIP),
        ],
        members,
        collapsed: false,
    })
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
        if let Some(finder) = self.cache.state.node_finder.take() {
            self.palette_request = finder.position.or_else(|| ui.ctx().pointer_hover_pos());
        }
    }
}
