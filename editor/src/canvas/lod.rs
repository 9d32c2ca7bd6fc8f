//! Level of detail (issue 9): below `LOD_ZOOM` the canvas draws each visible node as a plain
//! box with straight lines to its parent and children, straight from the scene, instead of
//! egui_node_graph2's widgets, whose text is unreadable that small anyway. Boxes keep the
//! preview's status colours, breakpoints, problems and the selection; names are written
//! where they are legible.
//!
//! Input in this mode: a click selects the node under it (Shift/Ctrl toggles), a
//! double-click zooms in to it at 100 %, a drag on the background box-selects, and panning
//! and zooming are egui_node_graph2's, as at any zoom. Nodes cannot be dragged or connected
//! until zoomed in.

use std::collections::{BTreeSet, HashMap, HashSet};

use arbor_runtime::{Severity, Status};
use egui::{Color32, Pos2, Rect, Stroke};

use super::annotations::Cam;
use super::scene::Scene;
use super::view::{category_color, freshness, lerp};
use crate::live::{status_color, LiveSource};

/// Below this zoom the canvas draws boxes instead of node widgets.
pub const LOD_ZOOM: f32 = 0.4;

/// Names smaller than this many points are not written.
const MIN_TEXT: f32 = 7.0;

/// A node drawn as a box this frame (screen coordinates), for hit tests.
#[derive(Clone, Copy, Debug)]
pub struct LodBox {
    pub node: u32,
    pub rect: Rect,
}

/// Paints the nodes in `view` and the edges that touch them; returns their boxes.
pub fn paint(
    painter: &egui::Painter,
    scene: &Scene,
    cam: Cam,
    view: Rect,
    sizes: &HashMap<String, [f64; 2]>,
    selected: &BTreeSet<String>,
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
    let screen = |i: u32| {
        let r = scene.rect(i, sizes);
        Rect::from_min_size(cam.origin + r.min.to_vec2() * zoom, r.size() * zoom)
    };
    let live: Vec<_> = visible
        .iter()
        .map(|&i| preview.node_live(&scene.node(i).guid))
        .collect();
    let preview_active = live.iter().any(Option::is_some);
    let shown: HashSet<u32> = visible.iter().copied().collect();

    let edge = Stroke::new((3.0 * zoom).max(1.0), Color32::from_rgb(140, 150, 165));
    let line = |from: Rect, to: Rect, stroke: Stroke| {
        painter.line_segment([from.right_center(), to.left_center()], stroke);
    };
    for &i in &visible {
        let node = scene.node(i);
        let here = screen(i);
        for &c in &node.children {
            if scene.node(c).hidden {
                continue;
            }
            let stroke = match shown.contains(&c) {
                true => visible
                    .binary_search(&c)
                    .ok()
                    .and_then(|at| live[at].as_ref())
                    .and_then(|l| Some((l.status?, freshness(l))))
                    .filter(|(_, f)| *f > 0.0)
                    .map_or(edge, |(status, f)| {
                        Stroke::new(
                            edge.width * 1.5,
                            status_color(status).gamma_multiply(0.3 + 0.7 * f),
                        )
                    }),
                false => edge,
            };
            line(here, screen(c), stroke);
        }
        // Edges from parents outside the view (inside it, the parent draws them).
        if let Some(p) = node
            .parent
            .filter(|p| !shown.contains(p) && !scene.node(*p).hidden)
        {
            line(screen(p), here, edge);
        }
    }

    let mut boxes = Vec::with_capacity(visible.len());
    for (&i, live) in visible.iter().zip(&live) {
        let node = scene.node(i);
        let r = screen(i);
        let base = category_color(node.category);
        let fill = if !preview_active {
            base
        } else {
            match live {
                Some(l) => match l.status {
                    Some(status) => lerp(
                        Color32::from_gray(60),
                        status_color(status),
                        0.35 + 0.65 * freshness(l),
                    ),
                    None => Color32::from_gray(60),
                },
                None => Color32::from_gray(55),
            }
        };
        let outline = if selected.contains(&node.guid) {
            Stroke::new(2.5, Color32::WHITE)
        } else {
            match node.problem {
                Some(Severity::Error) => Stroke::new(2.0, Color32::from_rgb(240, 90, 90)),
                Some(Severity::Warning) => Stroke::new(2.0, Color32::from_rgb(220, 180, 60)),
                None => Stroke::new(1.0, Color32::from_gray(25)),
            }
        };
        let rounding = 6.0 * zoom;
        painter.rect(r, rounding, fill, outline);
        if preview.has_breakpoint(&node.guid) {
            let d = (r.height() * 0.12).clamp(2.0, 6.0);
            painter.circle_filled(
                r.right_top() + egui::vec2(-2.0 * d, 2.0 * d),
                d,
                Color32::from_rgb(230, 60, 60),
            );
        }
        if live.as_ref().and_then(|l| l.status) == Some(Status::Running) {
            painter.rect_stroke(
                r.expand(2.0),
                rounding,
                Stroke::new(2.0, status_color(Status::Running)),
            );
        }
        let size = (r.height() * 0.3).min(16.0);
        if size >= MIN_TEXT {
            // Cut to the box's width (an estimate: text in a box this small is a hint).
            let fits = ((r.width() - size) / (size * 0.55)).max(0.0) as usize;
            let text: String = if node.label.chars().count() > fits {
                let mut t: String = node.label.chars().take(fits.saturating_sub(1)).collect();
                t.push('…');
                t
            } else {
                node.label.clone()
            };
            painter.text(
                r.left_center() + egui::vec2(size * 0.5, 0.0),
                egui::Align2::LEFT_CENTER,
                text,
                egui::FontId::proportional(size),
                Color32::WHITE,
            );
        }
        boxes.push(LodBox { node: i, rect: r });
    }
    boxes
}

/// The topmost box under `pos`.
pub fn hit(boxes: &[LodBox], pos: Pos2) -> Option<u32> {
    boxes
        .iter()
        .rev()
        .find(|b| b.rect.contains(pos))
        .map(|b| b.node)
}
