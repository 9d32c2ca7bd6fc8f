//! The docked palette: every node type in a collapsible side panel beside the canvas,
//! grouped by category, with a search field and each type's description. Drag a type onto
//! the canvas to add it where it is dropped (through the `AddNode` command, as the finder
//! does); a double-click adds it in the middle of the view.
//!
//! It lists and searches with the node finder's code ([`super::palette::filter`]), so the
//! two always agree on what a query finds. The Space/Tab finder stays for the keyboard.

use crate::i18n::t;

use arbor_runtime::{Category, NodeType, NodeTypes};
use egui::{Id, RichText, ScrollArea, TextEdit};

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
}

impl Default for PaletteDock {
    fn default() -> Self {
        PaletteDock {
            open: true,
            query: String::new(),
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
                        .on_hover_text(t("Show the node palette"))
                        .clicked()
                    {
                        self.open = true;
                    }
                    ui.label(
                        RichText::new(t("Nodes"))
                            .size(crate::fonts::SMALL_TEXT)
                            .weak(),
                    );
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
            ui.strong(t("Nodes"));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .small_button("«")
                    .on_hover_text(t("Hide the node palette"))
                    .clicked()
                {
                    self.open = false;
                }
            });
        });
        ui.add(
            TextEdit::singleline(&mut self.query)
                .id(Self::search_id())
                .hint_text(t("Search…"))
                .desired_width(f32::INFINITY),
        );
        ui.label(
            RichText::new(t("Drag a type onto the canvas"))
                .size(crate::fonts::SMALL_TEXT)
                .weak(),
        );
        ui.separator();
        let rows = filter(types, &self.query);
        let mut chosen = None;
        ScrollArea::vertical()
            .id_salt("palette dock")
            .show(ui, |ui| {
                if rows.is_empty() {
                    ui.weak(t("No node type matches"));
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
                        crate::i18n::category(category),
                        section.len()
                    ))
                    .id_salt(("palette dock category", category.as_str()))
                    .default_open(category != Category::Subtree)
                    .open(searching.then_some(true))
                    .show(ui, |ui| {
                        for (ty, _) in section {
                            if row(ui, ty) {
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
/// Returns whether it was double-clicked.
fn row(ui: &mut egui::Ui, ty: &NodeType) -> bool {
    let id = PaletteDock::row_id(&ty.name);
    let inner = ui.dnd_drag_source(id, DraggedType(ty.name.clone()), |ui| {
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(&ty.name).strong());
                if ty.host {
                    ui.label(
                        RichText::new(t("host"))
                            .size(crate::fonts::SMALL_TEXT)
                            .color(ui.visuals().warn_fg_color),
                    );
                }
            });
            if !ty.description.is_empty() {
                ui.add(
                    egui::Label::new(
                        RichText::new(crate::i18n::node_description(&ty.description))
                            .size(crate::fonts::SMALL_TEXT)
                            .weak(),
                    )
                    .truncate(),
                );
            }
        });
    });
    let response = inner.response.on_hover_cursor(egui::CursorIcon::Grab);
    let response = if ty.description.is_empty() {
        response
    } else {
        response.on_hover_text(crate::i18n::node_description(&ty.description))
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
