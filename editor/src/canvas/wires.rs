//! The wires between node widgets and their ports, drawn by the canvas rather than by
//! egui_node_editor: the library paints its connections after its nodes, over their
//! text. Its connections and ports are given a transparent colour (view.rs), and here the
//! wires are painted into a slot reserved before the nodes (so they lie under them), and
//! the ports, plus a connection being dragged, over them. Positions come from what the
//! nodes recorded while drawing this frame (`DrawnNode`), so nothing lags a frame.
//!
//! A wire into a node the preview just visited takes its status colour, fading out.
//!
//! A wire into a child whose place has a role (the node type names it: IfThenElse's
//! `if`, `then`, `else`; Switch's cases and `default`) is labelled with it, next to the
//! child's parent port; a Switch case shows the value that selects it.

use egui::epaint::CubicBezierShape;
use egui::{Color32, Pos2, Shape, Stroke};
use egui_node_editor::AnyParameterId;

use super::Canvas;
use crate::document::Document;
use crate::live::status_color;
use crate::view::UiCx;
use arbor_runtime::NodeTypes;
use arbor_runtime::Status;
use arbor_viewer::freshness;

/// The colour of wires and ports at rest: the painter's edges'.
pub const WIRE_COLOR: Color32 = arbor_viewer::palette::EDGE_COLOR;

/// A wire from a `children` port to a `parent` port, shaped as egui_node_editor shapes
/// its own.
fn wire(from: Pos2, to: Pos2, zoom: f32, stroke: Stroke) -> Shape {
    let control = ((to.x - from.x) * zoom / 2.0).max(30.0 * zoom);
    Shape::CubicBezier(CubicBezierShape::from_points_stroke(
        [
            from,
            from + egui::vec2(control, 0.0),
            to - egui::vec2(control, 0.0),
            to,
        ],
        false,
        Color32::TRANSPARENT,
        stroke,
    ))
}

impl Canvas {
    /// Every connection the widget graph holds, in the live status colour of its child if
    /// the preview just visited it.
    pub(super) fn wire_shapes(&self) -> Vec<Shape> {
        let zoom = self.zoom();
        let rest = Stroke::new(5.0 * zoom, WIRE_COLOR);
        let mut shapes = Vec::new();
        let graph = &self.cache.state.graph;
        for (input, output) in graph.iter_connections() {
            let Some(child) = self.cache.owner_of_input(input) else {
                continue;
            };
            let Some(to) = self.drawn(child).and_then(|d| d.input_port()) else {
                continue;
            };
            let live = self
                .user
                .preview_active
                .then(|| self.user.live.get(child))
                .flatten()
                .and_then(|l| Some((l.status?, freshness(l))))
                .filter(|(_, f)| *f > 0.0);
            let stroke = match live {
                Some((status, f)) => Stroke::new(
                    if status == Status::Running { 5.0 } else { 4.0 } * zoom,
                    status_color(status).gamma_multiply(0.3 + 0.7 * f),
                ),
                None => rest,
            };
            let from = self
                .cache
                .owner_of_output(output)
                .and_then(|parent| self.drawn(parent))
                .and_then(|d| d.output_port());
            if let Some(from) = from {
                shapes.push(wire(from, to, zoom, stroke));
            }
        }
        shapes
    }

    /// The role of each child whose parent's type names one, written on its wire just
    /// before the child's parent port.
    pub(super) fn draw_roles(&self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let doc = cx.session.document();
        let types = cx.session.types();
        let size = arbor_viewer::legible::screen_size(13.0, self.zoom());
        let font = egui::FontId::proportional(size);
        let color = ui.visuals().strong_text_color();
        for (input, output) in self.cache.state.graph.iter_connections() {
            let (Some(child), Some(parent)) = (
                self.cache.owner_of_input(input),
                self.cache.owner_of_output(output),
            ) else {
                continue;
            };
            let Some(role) = role_label(doc, types, parent, child) else {
                continue;
            };
            let Some(port) = self.drawn(child).and_then(|d| d.input_port()) else {
                continue;
            };
            let at = port - egui::vec2(8.0 * self.zoom().max(0.5), 2.0);
            ui.painter()
                .text(at, egui::Align2::RIGHT_BOTTOM, role, font.clone(), color);
        }
    }

    /// The ports of the node widgets, over the wires, white under the pointer; and the
    /// connection being dragged from one, to the pointer.
    pub(super) fn draw_ports(&self, ui: &egui::Ui) {
        let zoom = self.zoom();
        let painter = ui.painter();
        let pointer = ui.input(|i| i.pointer.hover_pos());
        let radius = 5.0 * zoom;
        let dot = |p: Pos2| {
            let near = pointer.is_some_and(|q| q.distance(p) < 10.0 * zoom);
            let color = if near { Color32::WHITE } else { WIRE_COLOR };
            painter.circle_filled(p, radius, color);
        };
        for (guid, id) in &self.cache.ids {
            let Some(d) = self.drawn(guid) else {
                continue;
            };
            if self.cache.inputs.contains_key(id) {
                d.input_port().map(dot);
            }
            if self.cache.outputs.contains_key(id) {
                d.output_port().map(dot);
            }
        }
        let Some((node, port)) = self.cache.state.connection_in_progress else {
            return;
        };
        let Some(d) = self.cache.guid(node).and_then(|g| self.drawn(g)) else {
            return;
        };
        let start = match port {
            AnyParameterId::Output(_) => d.output_port(),
            AnyParameterId::Input(_) => d.input_port(),
        };
        if let (Some(start), Some(end)) = (start, pointer) {
            let (from, to) = match port {
                AnyParameterId::Output(_) => (start, end),
                AnyParameterId::Input(_) => (end, start),
            };
            painter.add(wire(from, to, zoom, Stroke::new(5.0 * zoom, WIRE_COLOR)));
        }
    }
}

/// The label of `child`'s wire under `parent`: the role the parent's type gives its place,
/// or, for a role naming a parameter the parent sets (a Switch case), that value quoted.
pub fn role_label(doc: &Document, types: &NodeTypes, parent: &str, child: &str) -> Option<String> {
    let node = doc.node(parent)?;
    let ty = types.node(&node.kind)?;
    let index = node.children.iter().position(|c| c == child)?;
    let role = ty.child_role(index, node.children.len())?;
    if ty.param_spec(role).is_some() {
        return Some(match node.params.get(role) {
            Some(v) => format!("= {}", crate::view::short(v)),
            None => role.to_owned(),
        });
    }
    Some(role.to_owned())
}
