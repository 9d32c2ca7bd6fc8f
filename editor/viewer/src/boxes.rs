//! The box painter: a tree's nodes as boxes with straight edges between them, their names
//! written where they are legible, coloured by category, ringed in their live status
//! while a tree runs. The editor's canvas draws its zoomed-out level of detail with it, and the
//! [`crate::TreeViewer`] draws whole trees with it.
//!
//! The painter reads nodes through [`Boxes`] (the editor's scene, the viewer's
//! [`crate::PlacedTree`]) and statuses through [`crate::LiveSource`]; what only an editor
//! marks (the selection, find matches, problems) comes in as an outline per node.

use std::collections::HashMap;

use arbor_runtime::Category;
use egui::{Color32, Pos2, Rect, Stroke};

use crate::legible;
use crate::palette::{
    category_color, freshness, live_fill, status_color, status_ring, EDGE_COLOR, PORT_COLOR,
};
use crate::LiveSource;

/// A node's size in canvas units until it has been drawn at another.
pub const DEFAULT_NODE_SIZE: [f64; 2] = arbor_runtime::format::layout::DEFAULT_CARD;

/// A name is written in the top of its box at a readable screen size (legible.rs), in
/// whole words, running past the box's right edge by at most this many canvas units (into
/// the gap before the next column) on a backing of the box's colour; a box too small for
/// even its first word shows no name.
const LABEL_OVERFLOW: f32 = 70.0;

/// Maps canvas coordinates to the screen: scaled by `zoom`, then shifted to `origin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cam {
    /// Where the canvas origin lands on the screen.
    pub origin: Pos2,
    pub zoom: f32,
}

impl Cam {
    /// The screen rect of a canvas rect given by its top-left corner and size.
    pub fn rect(&self, pos: [f64; 2], size: [f64; 2]) -> Rect {
        Rect::from_min_size(
            self.pos(pos),
            egui::vec2(size[0] as f32, size[1] as f32) * self.zoom,
        )
    }

    /// The screen point of a canvas point.
    pub fn pos(&self, p: [f64; 2]) -> Pos2 {
        self.origin + egui::vec2(p[0] as f32, p[1] as f32) * self.zoom
    }

    /// `bounds` (canvas units) fitted into `rect` (screen), centred, aspect kept, never
    /// larger than 100 %.
    pub fn fit(bounds: Rect, rect: Rect) -> Cam {
        let zoom = (rect.width() / bounds.width())
            .min(rect.height() / bounds.height())
            .clamp(0.01, 1.0);
        let top_left = rect.center() - bounds.size() * zoom / 2.0;
        Cam {
            origin: top_left - bounds.min.to_vec2() * zoom,
            zoom,
        }
    }
}

/// One node as the painter reads it.
#[derive(Clone, Copy, Debug)]
pub struct BoxNode<'a> {
    pub guid: &'a str,
    /// Its name, or its type when unnamed.
    pub label: &'a str,
    pub category: Option<Category>,
    /// Where it lies, in canvas units.
    pub rect: Rect,
    /// Indices of its children, in order.
    pub children: &'a [u32],
    /// The first node listing it as a child.
    pub parent: Option<u32>,
    /// Not drawn (inside a collapsed group in the editor); edges to it are not drawn either.
    pub hidden: bool,
}

/// The nodes a painter draws, by index.
pub trait Boxes {
    /// Node `i`; the painter asks only for indices it was given or that nodes link to.
    fn node(&self, i: u32) -> BoxNode<'_>;
}

/// A node drawn as a box (screen coordinates), for hit tests.
#[derive(Clone, Copy, Debug)]
pub struct LodBox {
    pub node: u32,
    pub rect: Rect,
}

/// Whether a node has a children port: composites and decorators do, and a node of an
/// unknown type that has children.
pub fn takes_children(category: Option<Category>, has_children: bool) -> bool {
    match category {
        Some(Category::Composite | Category::Decorator) => true,
        Some(_) => false,
        None => has_children,
    }
}

/// Where a box's children port is, and how large (screen points).
pub fn port(rect: Rect) -> (Pos2, f32) {
    (rect.right_center(), (rect.height() * 0.18).clamp(3.0, 7.0))
}

/// Paints the `visible` nodes of `boxes` through `cam`, with the edges that touch them,
/// and returns their boxes. Boxes are filled by category; statuses come from `live`: while
/// any visible node has one, each visited box is ringed in its status colour
/// ([`crate::palette::status_ring`]) and the boxes not visited are dimmed.
/// `outline` gives a node's outline, `None` for the plain one.
pub fn paint_boxes(
    painter: &egui::Painter,
    boxes: &dyn Boxes,
    visible: &[u32],
    cam: Cam,
    live: &dyn LiveSource,
    outline: &dyn Fn(&BoxNode<'_>) -> Option<Stroke>,
) -> Vec<LodBox> {
    let zoom = cam.zoom.max(0.01);
    let screen =
        |r: Rect| Rect::from_min_size(cam.origin + r.min.to_vec2() * zoom, r.size() * zoom);
    let lives: Vec<_> = visible
        .iter()
        .map(|&i| live.node_live(boxes.node(i).guid))
        .collect();
    let live_active = lives.iter().any(Option::is_some);
    let shown: HashMap<u32, usize> = visible.iter().enumerate().map(|(at, &i)| (i, at)).collect();

    let edge = Stroke::new((3.0 * zoom).max(1.0), EDGE_COLOR);
    let line = |from: Rect, to: Rect, stroke: Stroke| {
        painter.line_segment([from.right_center(), to.left_center()], stroke);
    };
    for &i in visible {
        let node = boxes.node(i);
        let here = screen(node.rect);
        for &c in node.children {
            let child = boxes.node(c);
            if child.hidden {
                continue;
            }
            // An edge into a node just visited takes its status colour, fading out.
            let stroke = shown
                .get(&c)
                .and_then(|&at| lives[at].as_ref())
                .and_then(|l| Some((l.status?, freshness(l))))
                .filter(|(_, f)| *f > 0.0)
                .map_or(edge, |(status, f)| {
                    Stroke::new(
                        edge.width * 1.5,
                        status_color(status).gamma_multiply(0.3 + 0.7 * f),
                    )
                });
            line(here, screen(child.rect), stroke);
        }
        // Edges from parents outside the view (inside it, the parent draws them).
        if let Some(parent) = node.parent.filter(|p| !shown.contains_key(p)) {
            let parent = boxes.node(parent);
            if !parent.hidden {
                line(screen(parent.rect), here, edge);
            }
        }
    }

    let mut drawn = Vec::with_capacity(visible.len());
    for (&i, live_node) in visible.iter().zip(&lives) {
        let node = boxes.node(i);
        let r = screen(node.rect);
        let fill = if live_active {
            live_fill(node.category, live_node.as_ref())
        } else {
            category_color(node.category)
        };
        let stroke = outline(&node).unwrap_or(Stroke::new(1.0, Color32::from_gray(25)));
        let rounding = 6.0 * zoom;
        painter.rect(r, rounding, fill, stroke, egui::StrokeKind::Middle);
        if live.has_breakpoint(node.guid) {
            let d = (r.height() * 0.12).clamp(2.0, 6.0);
            painter.circle_filled(
                r.right_top() + egui::vec2(-2.0 * d, 2.0 * d),
                d,
                Color32::from_rgb(230, 60, 60),
            );
        }
        if let Some(ring) = status_ring(live_node.as_ref()) {
            painter.rect_stroke(
                r.expand(2.0),
                rounding + 2.0,
                Stroke::new(3.0, ring),
                egui::StrokeKind::Outside,
            );
        }
        // The port under the name: a name running past the box covers it.
        if takes_children(node.category, !node.children.is_empty()) && r.height() >= 10.0 {
            let (centre, radius) = port(r);
            painter.circle_filled(centre, radius, PORT_COLOR);
        }
        label(painter, node.label, r, zoom);
        drawn.push(LodBox { node: i, rect: r });
    }
    drawn
}

/// Writes a node's name in its box, legibly or not at all: whole on one line when it fits
/// (running past the box by at most [`LABEL_OVERFLOW`]), else whole on as many lines as
/// the box holds, else on one line cut after a word with an ellipsis.
fn label(painter: &egui::Painter, label: &str, r: Rect, zoom: f32) {
    let size = legible::name_size(16.0, zoom);
    if r.height() < size * 1.1 {
        return;
    }
    let pad = (size * 0.4).min(r.width() * 0.1);
    let font = egui::FontId::proportional(size);
    let width_of = |t: &str| {
        painter
            .layout_no_wrap(t.to_owned(), font.clone(), Color32::WHITE)
            .size()
            .x
    };
    let max = r.width() - 2.0 * pad + LABEL_OVERFLOW * zoom;
    let row = painter.fonts_mut(|f| f.row_height(&font));
    let rows = ((r.height() - 2.0) / row).floor().max(1.0) as usize;
    let text = if width_of(label) <= max {
        Some(label.to_owned())
    } else {
        legible::fit_lines(label, r.width() - 2.0 * pad, rows, width_of)
            .or_else(|| legible::fit_words(label, max, width_of))
    };
    let Some(text) = text else {
        return;
    };
    let galley = painter.layout_no_wrap(text, font, Color32::WHITE);
    // One line sits in the upper part of the box, several are centred in it.
    let top = if galley.rows.len() > 1 {
        (r.height() - galley.size().y) / 2.0
    } else {
        r.height() * 0.3 - galley.size().y / 2.0
    }
    .max(1.0);
    let at = r.left_top() + egui::vec2(pad, top);
    // On a dark backing, whatever the box's colour (a bright status or category fill
    // would leave small white text hard to read), and over a name running past the box.
    let text_rect = Rect::from_min_size(at, galley.size());
    painter.rect_filled(
        text_rect.expand2(egui::vec2(3.0, 1.0)),
        3.0,
        Color32::from_black_alpha(220),
    );
    painter.galley(at, galley, Color32::WHITE);
}
