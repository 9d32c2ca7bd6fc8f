//! Editing zoomed out: the library holds no nodes below [`super::LOD_ZOOM`], so the boxes
//! of the level of detail take their own input, after the library drew (so they win over
//! its background, which still pans, zooms and box-selects):
//! - a click selects the box under the pointer (Shift/Ctrl toggles), a double-click zooms
//!   in to it at 100 %, a click on empty canvas clears the selection;
//! - dragging a box moves it (with the rest of the selection if it is selected), as one
//!   undo step, exactly as dragging a node widget does;
//! - dragging from the dot on the right edge of a box that takes children, and releasing
//!   over another box, connects the two (the same `Connect` command and refusals).
//!
//! Only the box under the pointer (or the one being dragged) gets a widget, so the cost
//! does not grow with the number of boxes shown.

use egui::{Color32, Pos2, Rect, Sense, Stroke};

use arbor_viewer::palette::PORT_COLOR;
use arbor_viewer::{port, LodBox};

use super::scene::SceneNode;
use super::Canvas;
use crate::commands::Connect;
use crate::document::Selection;
use crate::view::UiCx;

/// A drag on a box in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum LodGrab {
    /// Moving this node (and the selection with it, if it is selected).
    Move(String),
    /// Connecting from this node's children port.
    Connect(String),
}

/// The topmost box under `pos`.
pub(super) fn hit(boxes: &[LodBox], pos: Pos2) -> Option<&LodBox> {
    boxes.iter().rev().find(|b| b.rect.contains(pos))
}

/// Whether a node has a children port (as sync.rs decides for the widgets).
fn takes_children(node: &SceneNode) -> bool {
    arbor_viewer::takes_children(node.category, !node.children.is_empty())
}

impl Canvas {
    /// Clicks, moves and connections on the boxes of the level of detail.
    pub(super) fn lod_input(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>) {
        let (clicked, hover, modifiers) = ui.input(|i| {
            (
                i.pointer.primary_clicked(),
                i.pointer.hover_pos(),
                i.modifiers,
            )
        });
        if let (Some(start), Some(end)) = (self.cache.state.ongoing_box_selection, hover) {
            let area = Rect::from_two_pos(start, end);
            cx.selection.nodes = self
                .lod_boxes
                .iter()
                .filter(|b| b.rect.intersects(area))
                .map(|b| self.scene.node(b.node).guid.clone())
                .collect();
            return;
        }
        // The box under a drag in progress stays the target even if the pointer slipped
        // off it; otherwise the one under the pointer.
        let grabbed = match &self.lod_grab {
            Some(LodGrab::Move(g) | LodGrab::Connect(g)) => self
                .scene
                .index(g)
                .and_then(|i| self.lod_boxes.iter().find(|b| b.node == i).copied()),
            None => None,
        };
        let over_minimap =
            hover.is_some_and(|p| self.minimap_rect().is_some_and(|m| m.contains(p)));
        // A window or popup over the canvas takes the pointer.
        let over_window =
            hover.is_some_and(|p| !super::context_menu::uncovered(ui, p)) || over_minimap;
        let target = grabbed.or_else(|| {
            hover
                .filter(|p| self.view.contains(*p) && !over_window)
                .and_then(|p| hit(&self.lod_boxes, p).copied())
        });
        let Some(target) = target else {
            self.lod_grab = None;
            let on_canvas = hover.is_some_and(|p| self.view.contains(p));
            if clicked && on_canvas && !over_window {
                *cx.selection = Selection::default();
            }
            return;
        };
        let guid = self.scene.node(target.node).guid.clone();
        let body = ui.interact(
            target.rect,
            egui::Id::new("lod box"),
            Sense::click_and_drag(),
        );
        let takes_children = takes_children(self.scene.node(target.node));
        let port = takes_children.then(|| {
            let (centre, radius) = port(target.rect);
            ui.painter().circle(
                centre,
                radius + 1.0,
                PORT_COLOR,
                Stroke::new(1.5, Color32::WHITE),
            );
            let zone = Rect::from_center_size(centre, egui::Vec2::splat(radius * 2.0 + 8.0));
            ui.interact(zone, egui::Id::new("lod port"), Sense::drag())
                .on_hover_cursor(egui::CursorIcon::Crosshair)
        });

        if body.double_clicked() {
            *cx.selection = Selection::of_nodes([guid.clone()]);
            self.pending_frame = Some(vec![guid]);
            return;
        }
        if body.clicked() {
            if modifiers.shift || modifiers.command {
                if !cx.selection.nodes.remove(&guid) {
                    cx.selection.nodes.insert(guid);
                }
            } else {
                *cx.selection = Selection::of_nodes([guid]);
            }
            return;
        }
        if let Some(port) = port {
            if port.drag_started() {
                self.lod_grab = Some(LodGrab::Connect(guid.clone()));
            }
            if self.lod_grab == Some(LodGrab::Connect(guid.clone())) {
                self.lod_connect(ui, cx, &guid, target.rect, &port);
                return;
            }
        }
        if body.drag_started() {
            self.lod_grab = Some(LodGrab::Move(guid.clone()));
            if !cx.selection.nodes.contains(&guid) {
                *cx.selection = Selection::of_nodes([guid.clone()]);
            }
        }
        if body.dragged() && self.lod_grab == Some(LodGrab::Move(guid.clone())) {
            self.drag_nodes(cx, guid, body.drag_delta());
        }
        if body.drag_stopped() {
            self.lod_grab = None;
        }
    }

    /// A connection being dragged from `parent`'s port: a line to the pointer, and on
    /// release over another box, the `Connect` command (refusals become a toast).
    fn lod_connect(
        &mut self,
        ui: &egui::Ui,
        cx: &mut UiCx<'_>,
        parent: &str,
        from: Rect,
        port: &egui::Response,
    ) {
        let pointer = ui.input(|i| i.pointer.interact_pos());
        if let Some(to) = pointer {
            let over = hit(&self.lod_boxes, to).filter(|b| b.rect != from);
            if let Some(b) = over {
                ui.painter().rect_stroke(
                    b.rect.expand(2.0),
                    4.0,
                    Stroke::new(2.0, Color32::WHITE),
                    egui::StrokeKind::Middle,
                );
            }
            ui.painter().line_segment(
                [from.right_center(), to],
                Stroke::new(2.5, Color32::from_rgb(200, 210, 225)),
            );
        }
        if !port.drag_stopped() {
            return;
        }
        self.lod_grab = None;
        let Some(child) = pointer
            .and_then(|p| hit(&self.lod_boxes, p))
            .map(|b| self.scene.node(b.node).guid.clone())
            .filter(|c| c != parent)
        else {
            return;
        };
        match Connect::new(cx.session.document(), cx.session.types(), parent, &child) {
            Ok(c) => {
                cx.apply(c);
            }
            Err(e) => cx.toasts.error(format!("Cannot connect: {e}")),
        }
    }
}
