//! The docked palette: every node type in a collapsible side panel beside the canvas,
//! grouped by category, with a search field and each type's description. Drag a type onto
//! the canvas to add it where it is dropped (through the `AddNode` command, as the finder
//! does); a double-click adds it in the middle of the view.
//!
//! It lists and searches with the node finder's code ([`super::palette::filter`]), so the
//! two always agree on what a query finds. The Space/Tab finder stays for the keyboard.
//!
//! The dock is drawn every frame beside the canvas: a row scrolled out of sight takes its
//! measured place without being laid out.

use std::collections::HashMap;

use arbor_runtime::{Category, NodeType, NodeTypes};
use egui::{Id, Rect, RichText, ScrollArea, TextEdit, Vec2};

use super::palette::filter;

/// What a dragged row carries: the node type's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraggedType(pub String);

/// See the module documentation.
#[derive(Debug)]
pub struct PaletteDock {
    /// Expanded (the full list) or collapsed (a narrow strip with a button).
    pub open: bool,
    query: String,
    /// Each row's size by type name, and the width it was laid out at (at another width
    /// its description truncates differently).
    sizes: HashMap<String, (f32, Vec2)>,
}

impl Default for PaletteDock {
    fn default() -> Self {
        PaletteDock {
            open: true,
            query: String::new(),
            sizes: HashMap::new(),
        }
    }
}

impl PaletteDock {
    /// Sets the search text (as typing in the field does).
    pub fn search(&mut self, query: &str) {
        self.query = query.to_owned();
    }

    /// The id of the search field.
    pub fn search_id() -> Id {
        Id::new("palette dock search")
    }

    /// The id of a type's row (what a drag starts on).
    pub fn row_id(name: &str) -> Id {
        Id::new(("palette dock row", name))
    }

    /// Shows the dock as a side panel left of the canvas; returns a type double-clicked
    /// (to add in the middle of the view).
    pub fn show(&mut self, ui: &mut egui::Ui, types: &NodeTypes) -> Option<String> {
        if !self.open {
            egui::Panel::left("palette dock collapsed")
                .resizable(false)
                .exact_size(26.0)
                .show(ui, |ui| {
                    if ui
                        .button("»")
                        .on_hover_text("Show the node palette")
                        .clicked()
                    {
                        self.open = true;
                    }
                    ui.label(RichText::new("Nodes").small().weak());
                });
            return None;
        }
        egui::Panel::left("palette dock")
            .resizable(true)
            .default_size(210.0)
            .size_range(160.0..=360.0)
            .show(ui, |ui| self.ui(ui, types))
            .inner
    }

    fn ui(&mut self, ui: &mut egui::Ui, types: &NodeTypes) -> Option<String> {
        ui.horizontal(|ui| {
            ui.strong("Nodes");
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .small_button("«")
                    .on_hover_text("Hide the node palette")
                    .clicked()
                {
                    self.open = false;
                }
            });
        });
        ui.add(
            TextEdit::singleline(&mut self.query)
                .id(Self::search_id())
                .hint_text("Search…")
                .desired_width(f32::INFINITY),
        );
        ui.label(RichText::new("Drag a type onto the canvas").small().weak());
        ui.separator();
        let rows = filter(types, &self.query);
        let mut chosen = None;
        ScrollArea::vertical()
            .id_salt("palette dock")
            .show(ui, |ui| {
                if rows.is_empty() {
                    ui.weak("No node type matches");
                }
                let searching = !self.query.trim().is_empty();
                let mut at = 0;
                while at < rows.len() {
                    let category = rows[at].0.category;
                    let end = rows[at..]
                        .iter()
                        .position(|(t, _)| t.category != category)
                        .map_or(rows.len(), |n| at + n);
                    let section = &rows[at..end];
                    egui::CollapsingHeader::new(format!(
                        "{} ({})",
                        category.as_str(),
                        section.len()
                    ))
                    .id_salt(("palette dock category", category.as_str()))
                    .default_open(category != Category::Subtree)
                    .open(searching.then_some(true))
                    .show(ui, |ui| {
                        for (ty, _) in section {
                            if row(ui, ty, &mut self.sizes) {
                                chosen = Some(ty.name.clone());
                            }
                        }
                    });
                    at = end;
                }
            });
        chosen
    }
}

/// One draggable row: the name (and "host" for a program's type) over its description.
/// Returns whether it was double-clicked. A row measured at this width and out of sight
/// (unless it is being dragged: its body follows the pointer) only takes its place.
fn row(ui: &mut egui::Ui, ty: &NodeType, sizes: &mut HashMap<String, (f32, Vec2)>) -> bool {
    let id = PaletteDock::row_id(&ty.name);
    let width = ui.available_width();
    if let Some(&(at, size)) = sizes.get(&ty.name) {
        let rect = Rect::from_min_size(ui.cursor().min, size);
        if at == width && !ui.is_rect_visible(rect) && !ui.ctx().is_being_dragged(id) {
            // What the row's scope would leave: the cursor and the automatic ids move
            // exactly as if it had been laid out.
            ui.advance_cursor_after_rect(rect);
            return false;
        }
    }
    let inner = ui.dnd_drag_source(id, DraggedType(ty.name.clone()), |ui| {
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(&ty.name).strong());
                if ty.host {
                    ui.label(
                        RichText::new("host")
                            .small()
                            .color(ui.visuals().warn_fg_color),
                    );
                }
            });
            if !ty.description.is_empty() {
                ui.add(egui::Label::new(RichText::new(&ty.description).small().weak()).truncate());
            }
        });
    });
    let size = inner.response.rect.size();
    match sizes.get_mut(&ty.name) {
        Some(known) => *known = (width, size),
        None => {
            sizes.insert(ty.name.clone(), (width, size));
        }
    }
    let response = inner.response.on_hover_cursor(egui::CursorIcon::Grab);
    let response = if ty.description.is_empty() {
        response
    } else {
        response.on_hover_text(&ty.description)
    };
    response.double_clicked()
}

/// The type dropped this frame onto `target` (the canvas), and where (screen).
pub fn dropped_on(ctx: &egui::Context, target: egui::Rect) -> Option<(String, egui::Pos2)> {
    let released = ctx.input(|i| i.pointer.any_released());
    let at = ctx.pointer_interact_pos()?;
    if !released || !target.contains(at) {
        return None;
    }
    let payload = egui::DragAndDrop::take_payload::<DraggedType>(ctx)?;
    Some((payload.0.clone(), at))
}

#[cfg(test)]
mod tests {
    use egui::{Event, Modifiers, MouseWheelUnit, PointerButton, TouchPhase};

    use super::*;
    use crate::panels::testing::{central, Harness};
    use crate::Session;

    /// A dock too short for every type: a row out of sight at first is drawn once scrolled
    /// to, and a drag on it carries its type.
    #[test]
    fn a_row_scrolled_into_view_is_drawn_and_drags_its_type() {
        let types = NodeTypes::builtin();
        let last = filter(&types, "")
            .iter()
            .rev()
            .find(|(t, _)| t.category != Category::Subtree)
            .expect("types listed")
            .0
            .name
            .clone();
        let mut h = Harness::new(Session::default());
        let mut dock = PaletteDock::default();
        let mut draw = central(|ui, _cx| {
            ui.allocate_ui(egui::vec2(220.0, 300.0), |ui| dock.ui(ui, &types));
        });
        h.settle(&mut draw);
        let shown = |h: &Harness| h.painted.iter().any(|p| p.text == last);
        assert!(!shown(&h), "{last} is out of sight at first");
        let over = h.text_rect("Drag a type onto the canvas").center() + egui::vec2(0.0, 100.0);
        let wheel = Event::MouseWheel {
            unit: MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -10_000.0),
            phase: TouchPhase::Move,
            modifiers: Modifiers::NONE,
        };
        h.frame_with(vec![Event::PointerMoved(over), wheel], &mut draw);
        h.settle(&mut draw);
        assert!(shown(&h), "{last} is scrolled into view");
        let row = h.text_rect(&last).center();
        h.frame_with(vec![Event::PointerMoved(row)], &mut draw);
        h.frame_with(
            vec![Event::PointerButton {
                pos: row,
                button: PointerButton::Primary,
                pressed: true,
                modifiers: Modifiers::NONE,
            }],
            &mut draw,
        );
        for dx in [20.0, 40.0, 60.0] {
            h.frame_with(
                vec![Event::PointerMoved(row + egui::vec2(dx, 0.0))],
                &mut draw,
            );
        }
        let carried = egui::DragAndDrop::payload::<DraggedType>(&h.ctx);
        assert_eq!(carried.as_deref(), Some(&DraggedType(last.clone())));
    }
}
