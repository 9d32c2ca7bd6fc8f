//! Stage 4 of a canvas frame: everything drawn, back to front.
//!
//! 1. Notes and groups, behind the nodes; the ghosts of a comparison's removed nodes.
//! 2. The nodes: egui_node_editor's widgets (it calls view.rs for each node and reports what
//!    the pointer did to them), or, below [`LOD_ZOOM`], the level of detail: each visible
//!    node as a plain box with straight lines to its parent and children, straight from
//!    the scene, since widget text is unreadable that small anyway. Boxes keep the live
//!    status colours, breakpoints, problems and the selection; names are written where
//!    they are legible.
//! 3. The wires, under the node widgets, and the ports over them (wires.rs); the edges into
//!    collapsed groups.

use std::collections::{BTreeSet, HashMap, HashSet};

use arbor_runtime::Severity;
use arbor_viewer::{legible, BoxNode, Boxes, LodBox};
use egui::{Color32, Pos2, Rect, Stroke};

use super::camera::{collapsed_rect, follow_zoom, Cam, STRIP};
use super::scene::Scene;
use super::view::{fill, NoTemplates, Response, FOUND_COLOR};
use super::Canvas;
use crate::compare::NodeMark;
use crate::live::LiveSource;
use crate::view::diff_colors::mark_color;
use crate::view::UiCx;

/// Below this zoom the canvas draws boxes instead of node widgets: a widget's small text
/// (9 points at 100 %) would be under 5 points, while a box writes its name at 11 or more
/// (legible.rs).
pub const LOD_ZOOM: f32 = 0.55;

/// The scene as the painter reads it: rects from the sizes nodes were last drawn at.
struct SceneBoxes<'a> {
    scene: &'a Scene,
    sizes: &'a HashMap<String, [f64; 2]>,
}

impl Boxes for SceneBoxes<'_> {
    fn node(&self, i: u32) -> BoxNode<'_> {
        let n = self.scene.node(i);
        BoxNode {
            guid: &n.guid,
            label: &n.label,
            category: n.category,
            rect: self.scene.rect(i, self.sizes),
            children: &n.children,
            parent: n.parent,
            hidden: n.hidden,
        }
    }
}

/// What outlines a box: the selection, the find bar's matches, a comparison's marks.
type Outlined<'a> = (
    &'a BTreeSet<String>,
    &'a BTreeSet<String>,
    Option<&'a HashMap<String, NodeMark>>,
);

/// Paints the nodes in `view` and the edges that touch them, with arbor-viewer's painter
/// (the in-game viewer's), outlined by selection, find match, comparison or problem; returns their
/// boxes.
pub(super) fn paint_boxes(
    painter: &egui::Painter,
    scene: &Scene,
    cam: Cam,
    view: Rect,
    sizes: &HashMap<String, [f64; 2]>,
    (selected, found, compared): Outlined<'_>,
    preview: &dyn LiveSource,
) -> Vec<LodBox> {
    let zoom = cam.zoom.max(0.01);
    let to_doc = |p: Pos2| ((p - cam.origin) / zoom).to_pos2();
    // The margin catches nodes drawn taller than the size they were indexed with.
    let area = Rect::from_min_max(to_doc(view.min), to_doc(view.max)).expand(150.0);
    let visible: Vec<u32> = scene
        .query(area)
        .into_iter()
        .filter(|&i| !scene.node(i).hidden)
        .collect();
    let outline = |node: &BoxNode<'_>| {
        if selected.contains(node.guid) {
            return Some(Stroke::new(2.5, Color32::WHITE));
        }
        if found.contains(node.guid) {
            return Some(Stroke::new(3.0, FOUND_COLOR));
        }
        if let Some(mark) = compared.and_then(|m| m.get(node.guid)) {
            return Some(Stroke::new(3.0, mark_color(mark.kind)));
        }
        let problem = scene.index(node.guid).and_then(|i| scene.node(i).problem);
        match problem? {
            Severity::Error => Some(Stroke::new(2.0, Color32::from_rgb(240, 90, 90))),
            Severity::Warning => Some(Stroke::new(2.0, Color32::from_rgb(220, 180, 60))),
        }
    };
    let boxes = SceneBoxes { scene, sizes };
    arbor_viewer::paint_boxes(painter, &boxes, &visible, cam, preview, &outline)
}

impl Canvas {
    /// Stage 4: notes and groups behind, then the node widgets (or, zoomed out, boxes),
    /// then the overlays. Returns what the library reported about its widgets.
    pub(super) fn paint(
        &mut self,
        ui: &mut egui::Ui,
        cx: &UiCx<'_>,
        live: &dyn LiveSource,
        lod: bool,
    ) -> Vec<Response> {
        self.paint_annotations(ui, cx);
        self.paint_ghosts(ui);
        self.lod_boxes = if lod {
            paint_boxes(
                ui.painter(),
                &self.scene,
                self.cam(),
                self.view,
                &self.sizes,
                (
                    &cx.selection.nodes,
                    &self.user.found,
                    self.user.compare.as_deref(),
                ),
                live,
            )
        } else {
            Vec::new()
        };

        // The wires go under the nodes (egui_node_editor would draw them over): a slot
        // taken before the nodes are drawn, filled once their ports are known.
        let wires = ui.painter().add(egui::Shape::Noop);
        let zoom_before = self.cache.state.pan_zoom.zoom;
        let wire_before = self.cache.state.connection_in_progress;
        let response =
            self.cache
                .state
                .draw_graph_editor(ui, NoTemplates, &mut self.user, Vec::new());
        let zoom_after = self.cache.state.pan_zoom.zoom;
        self.ctrl_pan(ui);
        self.remember_sizes(zoom_before);
        if (zoom_after - zoom_before).abs() > f32::EPSILON {
            follow_zoom(&mut self.cache, zoom_after / zoom_before);
        }
        ui.painter()
            .set(wires, egui::Shape::Vec(self.wire_shapes()));
        let mut responses = response.node_responses;
        if !lod {
            self.port_input(ui, &mut responses, wire_before);
        }
        self.draw_ports(ui);
        self.draw_roles(ui, cx);
        self.draw_collapsed_edges(ui, cx);
        responses
    }

    /// Ctrl+drag on the background pans, as a middle-drag does: egui_node_editor pans on
    /// the middle button only and would start a box selection instead, which is dropped
    /// in the frame it starts.
    fn ctrl_pan(&mut self, ui: &egui::Ui) {
        let (command, primary, delta) = ui.input(|i| {
            (
                i.modifiers.command_only(),
                i.pointer.primary_down(),
                i.pointer.delta(),
            )
        });
        let state = &mut self.cache.state;
        if command && state.ongoing_box_selection.is_some() {
            state.ongoing_box_selection = None;
            self.panning = true;
        } else if self.panning && primary {
            state.pan_zoom.pan += delta;
        }
        if !primary {
            self.panning = false;
        }
    }

    /// Notes and groups: groups, then notes, behind the graph.
    pub(super) fn paint_annotations(&self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let (cam, scene) = (self.cam(), &self.scene);
        let painter = ui.painter();
        let doc = cx.session.document();
        for group in doc.groups() {
            let selected = cx.selection.groups.contains(&group.guid);
            let color = fill(group.color);
            let outline = Stroke::new(
                if selected { 2.5 } else { 1.0 },
                if selected { Color32::WHITE } else { color },
            );
            if group.collapsed {
                let r = collapsed_rect(cam, group);
                painter.rect(
                    r,
                    6.0,
                    color.gamma_multiply(0.55),
                    outline,
                    egui::StrokeKind::Middle,
                );
                let pad = 10.0 * cam.zoom;
                let size = legible::annotation_size(15.0, cam.zoom);
                legible::line(
                    painter,
                    &group.title,
                    r.left_top() + egui::vec2(pad, pad + size / 2.0),
                    size,
                    (r.width() - 2.0 * pad, r.height()),
                    (Color32::WHITE, color.gamma_multiply(0.8)),
                );
                let count = group
                    .members
                    .iter()
                    .filter(|m| scene.index(m).is_some())
                    .count();
                let size = legible::annotation_size(12.0, cam.zoom);
                if r.height() > 3.0 * size {
                    legible::line(
                        painter,
                        &format!("{count} nodes (double-click to expand)"),
                        r.left_bottom() + egui::vec2(pad, -pad - size / 2.0),
                        size,
                        (r.width() - 2.0 * pad, r.height()),
                        (Color32::from_gray(235), color),
                    );
                }
                continue;
            }
            let r = cam.rect(
                [group.rect[0], group.rect[1]],
                [group.rect[2], group.rect[3]],
            );
            painter.rect(
                r,
                8.0,
                color.gamma_multiply(0.16),
                outline,
                egui::StrokeKind::Middle,
            );
            let title = Rect::from_min_size(r.min, egui::vec2(r.width(), STRIP * cam.zoom));
            painter.rect_filled(
                title,
                egui::CornerRadius {
                    nw: 8,
                    ne: 8,
                    sw: 0,
                    se: 0,
                },
                color.gamma_multiply(0.6),
            );
            let size = legible::annotation_size(15.0, cam.zoom);
            legible::line(
                painter,
                &group.title,
                title.left_center() + egui::vec2(10.0 * cam.zoom, 0.0),
                size,
                (r.width() - 20.0 * cam.zoom, title.height()),
                (Color32::WHITE, color.gamma_multiply(0.8)),
            );
            resize_mark(painter, r, cam.zoom, color);
        }
        let hidden = super::input::hidden_notes(doc);
        for note in doc
            .notes()
            .iter()
            .filter(|n| !hidden.contains(n.guid.as_str()))
        {
            let r = cam.rect(note.pos, note.size);
            let selected = cx.selection.notes.contains(&note.guid);
            let color = fill(note.color);
            painter.rect(
                r,
                4.0,
                color.gamma_multiply(0.92),
                Stroke::new(if selected { 2.5 } else { 0.0 }, Color32::WHITE),
                egui::StrokeKind::Middle,
            );
            let header = Rect::from_min_size(r.min, egui::vec2(r.width(), STRIP * 0.6 * cam.zoom));
            painter.rect_filled(header, 4.0, color.gamma_multiply(0.75));
            if self.annotations.editing_note.as_deref() != Some(note.guid.as_str()) {
                // Whole lines at a readable size: at a low zoom fewer lines fit, the
                // last one ends in an ellipsis, and a note too small for one line is blank.
                let area = Rect::from_min_max(
                    header.left_bottom() + egui::vec2(8.0, 4.0) * cam.zoom,
                    r.max - egui::vec2(8.0, 4.0) * cam.zoom,
                );
                let size = legible::annotation_size(14.0, cam.zoom);
                legible::block(painter, &note.text, area, size, Color32::from_gray(30));
            }
            resize_mark(painter, r, cam.zoom, Color32::from_gray(90));
        }
    }

    /// Keeps the size each drawn node had, in canvas units, for culling and layout.
    fn remember_sizes(&mut self, zoom: f32) {
        let zoom = f64::from(zoom.max(0.01));
        for (id, d) in &self.user.drawn {
            let Some(guid) = self.cache.guids.get(id) else {
                continue;
            };
            let r = d.rect();
            let size = [f64::from(r.width()) / zoom, f64::from(r.height()) / zoom];
            match self.sizes.get_mut(guid) {
                Some(s) => *s = size,
                None => {
                    self.sizes.insert(guid.clone(), size);
                }
            }
        }
    }

    /// Edges between a visible node and one hidden in a collapsed group end at the group's box.
    fn draw_collapsed_edges(&self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let doc = cx.session.document();
        let cam = self.cam();
        let stroke = egui::Stroke::new(3.0 * cam.zoom, egui::Color32::from_rgb(140, 150, 165));
        let scene = &self.scene;
        for group in doc.groups().iter().filter(|g| g.collapsed) {
            let r = collapsed_rect(cam, group);
            let members: HashSet<u32> = group
                .members
                .iter()
                .filter_map(|m| scene.index(m))
                .collect();
            // Only edges that leave the group; their other end is drawn only if in view.
            for &m in &members {
                let node = scene.node(m);
                if let Some(p) = node.parent.filter(|p| !members.contains(p)) {
                    if let Some(from) = self
                        .drawn(&scene.node(p).guid)
                        .and_then(|d| d.output_port())
                    {
                        ui.painter().line_segment([from, r.left_center()], stroke);
                    }
                }
                for &c in node.children.iter().filter(|c| !members.contains(c)) {
                    if let Some(to) = self.drawn(&scene.node(c).guid).and_then(|d| d.input_port()) {
                        ui.painter().line_segment([r.right_center(), to], stroke);
                    }
                }
            }
        }
    }
}

fn resize_mark(painter: &egui::Painter, r: Rect, zoom: f32, color: Color32) {
    let c = r.max - egui::vec2(3.0, 3.0) * zoom;
    for k in 1..=3 {
        let d = 4.0 * k as f32 * zoom;
        painter.line_segment(
            [c - egui::vec2(d, 0.0), c - egui::vec2(0.0, d)],
            Stroke::new(1.0, color.gamma_multiply(0.8)),
        );
    }
}
