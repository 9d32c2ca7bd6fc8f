//! The sibling-order badge: while a drag moves nodes, a dragged node whose place among its
//! siblings has changed since the drag began shows it as `2 → 4` (1-based, in execution
//! order) beside its card. The order itself changes in the model ([`MoveItems`] re-sorts
//! siblings along the layout's sibling axis, so a node changes place only when it passes
//! a sibling); the badge only tells the user before they let go.
//!
//! [`MoveItems`]: crate::commands::MoveItems

use std::collections::BTreeMap;

use egui::{Color32, FontId, Stroke};

use super::{Canvas, UiCx};
use crate::document::Document;

/// Where each dragged node stood among its siblings when the drag began.
#[derive(Clone, Debug, Default)]
pub struct DragOrder {
    start: BTreeMap<String, usize>,
}

impl DragOrder {
    /// Remembers the places of `nodes` at the start of a drag (once per drag).
    pub fn begin<'a>(&mut self, doc: &Document, nodes: impl IntoIterator<Item = &'a String>) {
        for guid in nodes {
            if let Some((index, _)) = doc.sibling_place(guid) {
                self.start.entry(guid.clone()).or_insert(index);
            }
        }
    }

    pub fn end(&mut self) {
        self.start.clear();
    }

    /// The dragged nodes whose place changed: GUID, place at the start, place now.
    pub fn changes<'a>(
        &'a self,
        doc: &'a Document,
    ) -> impl Iterator<Item = (&'a str, usize, usize)> {
        self.start.iter().filter_map(|(guid, &from)| {
            let (to, _) = doc.sibling_place(guid)?;
            (to != from).then_some((guid.as_str(), from, to))
        })
    }
}

/// The badge's text: `2 → 4`.
pub fn badge_text(from: usize, to: usize) -> String {
    format!("{} → {}", from + 1, to + 1)
}

impl Canvas {
    /// Draws the badge of every dragged node whose place among its siblings changed.
    pub(super) fn draw_reorder_badges(&self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let doc = cx.session.document();
        let cam = self.cam();
        for (guid, from, to) in self.drag_order.changes(doc) {
            let Some(i) = self.scene.index(guid) else {
                continue;
            };
            let r = self.scene.rect(i, &self.sizes);
            let corner = cam.pos([f64::from(r.max.x), f64::from(r.min.y)]);
            let painter = ui.painter();
            let galley = painter.layout_no_wrap(
                badge_text(from, to),
                FontId::proportional(13.0),
                Color32::from_rgb(20, 20, 24),
            );
            let pill = egui::Rect::from_min_size(
                corner + egui::vec2(6.0, -galley.size().y - 10.0),
                galley.size() + egui::vec2(12.0, 6.0),
            );
            painter.rect(
                pill,
                8.0,
                Color32::from_rgb(250, 210, 70),
                Stroke::new(1.0, Color32::from_rgb(120, 90, 20)),
                egui::StrokeKind::Inside,
            );
            painter.galley(
                pill.center() - galley.size() / 2.0,
                galley,
                Color32::from_rgb(20, 20, 24),
            );
        }
    }
}
