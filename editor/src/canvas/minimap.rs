//! The minimap: an overview of the whole document in the canvas's bottom-right corner,
//! every node as a small rect in its category colour (selected ones white, matches of the
//! find bar yellow), groups as outlines, notes as faint rects, and the view as a white
//! frame. Pressing or dragging on it centres the view on that point, at the same zoom.
//!
//! Drawn after everything else on the canvas, so it is on top and takes presses first.
//! Its scale fits the document and the view together, so the view's frame is always on it.
//!
//! It never covers a node: framing leaves its corner clear (camera.rs), and when the view
//! puts a node under it, it moves to another corner of the canvas, or, when every corner
//! holds a node, is not drawn until one is clear. It stays put while the pointer is on it,
//! so a drag along it is not cut short.

use crate::i18n::t;

use std::collections::BTreeSet;

use egui::{Color32, Pos2, Rect, Sense, Stroke};

use super::camera::look_at;
use super::view::{fill, FOUND_COLOR};
use super::Canvas;
use crate::view::UiCx;
use arbor_viewer::category_color;

/// Size of the minimap, in screen points.
const SIZE: egui::Vec2 = egui::vec2(220.0, 150.0);
/// Gap between the minimap and the canvas's edges.
const MARGIN: f32 = 12.0;
/// Room left under the minimap in the bottom-left corner for the zoom level badge.
const BADGE_ROOM: f32 = 36.0;

/// Where the minimap is drawn in a canvas covering `view`; `None` when the canvas is too
/// small to hold it without covering most of the view.
pub fn rect(view: Rect) -> Option<Rect> {
    if view.width() < SIZE.x * 2.5 || view.height() < SIZE.y * 2.5 {
        return None;
    }
    Some(Rect::from_min_size(
        view.max - SIZE - egui::vec2(MARGIN, MARGIN),
        SIZE,
    ))
}

/// The places the minimap may take in `view`, in order of preference: `home` (bottom
/// right), top right, top left, bottom left (above the zoom level badge).
pub fn corners(view: Rect, home: Rect) -> [Rect; 4] {
    let (left, top) = (view.min.x + MARGIN, view.min.y + MARGIN);
    [
        home,
        Rect::from_min_size(Pos2::new(home.min.x, top), SIZE),
        Rect::from_min_size(Pos2::new(left, top), SIZE),
        Rect::from_min_size(Pos2::new(left, home.min.y - BADGE_ROOM), SIZE),
    ]
}

/// What the minimap keeps between frames: the document's extent (per generation and set
/// of measured sizes) and its nodes as one mesh (per mapping).
#[derive(Default)]
pub struct MiniCache {
    doc_key: Option<(Option<u64>, usize)>,
    doc_world: Option<Rect>,
    mesh_key: Option<(Rect, Rect)>,
    mesh: std::sync::Arc<egui::Mesh>,
}

/// Maps document coordinates into the minimap: `world` scaled uniformly and centred.
#[derive(Clone, Copy, Debug)]
pub struct MiniCam {
    world: Rect,
    screen: Rect,
    scale: f32,
}

impl MiniCam {
    pub fn new(world: Rect, screen: Rect) -> MiniCam {
        let inner = screen.shrink(6.0);
        let scale =
            (inner.width() / world.width().max(1.0)).min(inner.height() / world.height().max(1.0));
        MiniCam {
            world,
            screen: inner,
            scale,
        }
    }

    pub fn to_screen(self, p: Pos2) -> Pos2 {
        let offset = (self.screen.size() - self.world.size() * self.scale) / 2.0;
        self.screen.min + offset + (p - self.world.min) * self.scale
    }

    pub fn to_world(self, p: Pos2) -> Pos2 {
        let offset = (self.screen.size() - self.world.size() * self.scale) / 2.0;
        self.world.min + (p - self.screen.min - offset) / self.scale
    }

    pub fn rect(self, r: Rect) -> Rect {
        Rect::from_min_max(self.to_screen(r.min), self.to_screen(r.max))
    }
}

impl Canvas {
    /// The document rect the visible canvas shows.
    fn visible_world(&self) -> Rect {
        let cam = self.cam();
        let zoom = cam.zoom.max(0.01);
        let to_doc = |p: Pos2| ((p - cam.origin) / zoom).to_pos2();
        Rect::from_min_max(to_doc(self.view.min), to_doc(self.view.max))
    }

    /// Where the minimap is this frame, if shown.
    pub fn minimap_rect(&self) -> Option<Rect> {
        self.minimap_at.filter(|_| self.show_minimap)
    }

    /// Where the minimap goes this frame: where it was while the pointer is on it, else
    /// the first corner of the view (bottom right, top right, top left, bottom left) where
    /// it covers no node; `None` when every corner would.
    fn place_minimap(&self, ui: &egui::Ui) -> Option<Rect> {
        let home = rect(self.view).filter(|_| self.show_minimap)?;
        let pointer = ui.input(|i| i.pointer.latest_pos());
        if let Some(now) = self.minimap_at.filter(|r| r.size() == home.size()) {
            if pointer.is_some_and(|p| now.contains(p)) && self.view.contains_rect(now) {
                return Some(now);
            }
        }
        corners(self.view, home)
            .into_iter()
            .find(|r| !self.covers_a_node(*r))
    }

    /// Whether the screen rect `area` is over a node drawn on the canvas.
    fn covers_a_node(&self, area: Rect) -> bool {
        let cam = self.cam();
        let zoom = cam.zoom.max(0.01);
        let to_doc = |p: Pos2| ((p - cam.origin) / zoom).to_pos2();
        let doc_area = Rect::from_min_max(to_doc(area.min), to_doc(area.max));
        self.scene.query(doc_area).into_iter().any(|i| {
            !self.scene.node(i).hidden && self.scene.rect(i, &self.sizes).intersects(doc_area)
        })
    }

    /// Shows or hides the minimap (the "Map" button beside the zoom level).
    pub fn set_minimap(&mut self, shown: bool) {
        self.show_minimap = shown;
    }

    /// Draws the minimap and moves the view when it is pressed or dragged.
    pub(super) fn minimap(&mut self, ui: &egui::Ui, cx: &UiCx<'_>, highlighted: &BTreeSet<String>) {
        self.minimap_at = self.place_minimap(ui);
        let Some(area) = self.minimap_rect() else {
            return;
        };
        let doc = cx.session.document();
        let visible = self.visible_world();
        let doc_key = (self.scene.generation, self.sizes.len());
        if self.minimap_cache.doc_key != Some(doc_key) {
            let mut world = Rect::NOTHING;
            for i in 0..self.scene.nodes.len() as u32 {
                world = world.union(self.scene.rect(i, &self.sizes));
            }
            for g in doc.groups() {
                world = world.union(Rect::from_min_size(
                    Pos2::new(g.rect[0] as f32, g.rect[1] as f32),
                    egui::vec2(g.rect[2] as f32, g.rect[3] as f32),
                ));
            }
            self.minimap_cache = MiniCache {
                doc_key: Some(doc_key),
                doc_world: Some(world),
                ..MiniCache::default()
            };
        }
        let world = self
            .minimap_cache
            .doc_world
            .map_or(visible, |w| w.union(visible));
        let mini = MiniCam::new(world.expand(40.0), area);
        let scene = &self.scene;

        let response = ui.interact(area, egui::Id::new("minimap"), Sense::click_and_drag());
        // The primary button moves the view; a right-click here is not a canvas gesture.
        let primary = ui.input(|i| i.pointer.primary_down());
        if (response.is_pointer_button_down_on() && primary) || response.clicked() {
            if let Some(p) = response.interact_pointer_pos() {
                let zoom = self.zoom();
                look_at(&mut self.cache, ui, self.view, mini.to_world(p), zoom);
            }
        }
        let response = response.on_hover_cursor(egui::CursorIcon::Move);

        let painter = ui.painter().with_clip_rect(area);
        painter.rect(
            area,
            6.0,
            Color32::from_rgba_unmultiplied(20, 22, 26, 248),
            Stroke::new(
                1.0,
                Color32::from_gray(if response.hovered() { 140 } else { 80 }),
            ),
            egui::StrokeKind::Middle,
        );
        for g in doc.groups() {
            let r = mini.rect(Rect::from_min_size(
                Pos2::new(g.rect[0] as f32, g.rect[1] as f32),
                egui::vec2(g.rect[2] as f32, g.rect[3] as f32),
            ));
            painter.rect(
                r,
                2.0,
                fill(g.color).gamma_multiply(0.15),
                Stroke::new(1.0, fill(g.color)),
                egui::StrokeKind::Middle,
            );
        }
        for n in doc.notes() {
            let r = mini.rect(Rect::from_min_size(
                Pos2::new(n.pos[0] as f32, n.pos[1] as f32),
                egui::vec2(n.size[0] as f32, n.size[1] as f32),
            ));
            painter.rect_filled(r, 1.0, fill(n.color).gamma_multiply(0.5));
        }
        // Every node at least 2 points, so a large tree's small nodes stay visible: one
        // mesh, kept while the document, the node sizes and the mapping stay the same (a
        // large tree's thousands of rects are not tessellated again every frame).
        let node_rect = |i: u32| {
            let r = mini.rect(scene.rect(i, &self.sizes));
            Rect::from_center_size(r.center(), r.size().max(egui::vec2(2.0, 2.0)))
        };
        let mesh_key = (world, area);
        if self.minimap_cache.mesh_key != Some(mesh_key) {
            let mut mesh = egui::Mesh::default();
            for (i, node) in scene.nodes.iter().enumerate() {
                if !node.hidden {
                    let color = category_color(node.category).gamma_multiply(1.6);
                    mesh.add_colored_rect(node_rect(i as u32), color);
                }
            }
            self.minimap_cache.mesh = std::sync::Arc::new(mesh);
            self.minimap_cache.mesh_key = Some(mesh_key);
        }
        painter.add(egui::Shape::mesh((*self.minimap_cache.mesh).clone()));
        // The selection and the find bar's matches over them (a few nodes).
        let marked = cx
            .selection
            .nodes
            .iter()
            .map(|g| (g, Color32::WHITE))
            .chain(highlighted.iter().map(|g| (g, FOUND_COLOR)));
        for (guid, color) in marked {
            if let Some(i) = scene.index(guid).filter(|&i| !scene.node(i).hidden) {
                painter.rect_filled(node_rect(i), 0.0, color);
            }
        }
        painter.rect_stroke(
            mini.rect(visible).intersect(area),
            1.0,
            Stroke::new(1.5, Color32::WHITE),
            egui::StrokeKind::Middle,
        );
    }

    /// The zoom level in the canvas's bottom-left corner; a click goes back to 100 %. Beside
    /// it, the switch that hides or shows the minimap.
    pub(super) fn zoom_badge(&mut self, ui: &mut egui::Ui) {
        let text = format!("{:.0}%", self.zoom() * 100.0);
        let at = self.view.left_bottom() + egui::vec2(MARGIN, -MARGIN);
        let galley = ui.painter().layout_no_wrap(
            text,
            egui::FontId::proportional(13.0),
            Color32::from_gray(220),
        );
        let r = Rect::from_min_size(at - egui::vec2(0.0, galley.size().y), galley.size())
            .expand2(egui::vec2(8.0, 4.0))
            .translate(egui::vec2(8.0, -4.0));
        let response = ui
            .interact(r, egui::Id::new("zoom badge"), Sense::click())
            .on_hover_text(t("Zoom level: click for 100 % (Ctrl+0)"));
        let fill = if response.hovered() { 70 } else { 40 };
        ui.painter().rect(
            r,
            4.0,
            Color32::from_rgba_unmultiplied(fill, fill, fill + 6, 220),
            Stroke::new(1.0, Color32::from_gray(90)),
            egui::StrokeKind::Middle,
        );
        ui.painter().galley(
            r.min + egui::vec2(8.0, 4.0),
            galley,
            Color32::from_gray(220),
        );
        if response.clicked() {
            self.set_zoom(1.0);
        }
        // The minimap's switch, right of the zoom level.
        let map = Rect::from_min_size(
            r.right_top() + egui::vec2(6.0, 0.0),
            egui::vec2(40.0, r.height()),
        );
        let response = ui
            .interact(map, egui::Id::new("minimap switch"), Sense::click())
            .on_hover_text(if self.show_minimap {
                "Hide the minimap"
            } else {
                "Show the minimap"
            });
        let fill = if response.hovered() { 70 } else { 40 };
        ui.painter().rect(
            map,
            4.0,
            Color32::from_rgba_unmultiplied(fill, fill, fill + 6, 220),
            Stroke::new(
                1.0,
                Color32::from_gray(if self.show_minimap { 160 } else { 90 }),
            ),
            egui::StrokeKind::Middle,
        );
        ui.painter().text(
            map.center(),
            egui::Align2::CENTER_CENTER,
            t("Map"),
            egui::FontId::proportional(13.0),
            Color32::from_gray(if self.show_minimap { 230 } else { 150 }),
        );
        if response.clicked() {
            self.show_minimap = !self.show_minimap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minicam_maps_both_ways_and_keeps_the_world_inside() {
        let world = Rect::from_min_max(Pos2::new(-500.0, 0.0), Pos2::new(1500.0, 400.0));
        let screen = Rect::from_min_size(Pos2::new(1000.0, 700.0), SIZE);
        let mini = MiniCam::new(world, screen);
        for p in [world.min, world.max, world.center(), Pos2::new(10.0, 300.0)] {
            let back = mini.to_world(mini.to_screen(p));
            assert!((back - p).length() < 0.01, "{p:?} -> {back:?}");
            assert!(screen.contains(mini.to_screen(p)));
        }
        // Uniform scale: a square stays square.
        let sq = mini.rect(Rect::from_min_size(Pos2::ZERO, egui::vec2(100.0, 100.0)));
        assert!((sq.width() - sq.height()).abs() < 0.01);
    }

    #[test]
    fn no_minimap_on_a_tiny_canvas() {
        assert!(rect(Rect::from_min_size(Pos2::ZERO, egui::vec2(300.0, 200.0))).is_none());
        let big = Rect::from_min_size(Pos2::ZERO, egui::vec2(1000.0, 600.0));
        assert!(big.contains_rect(rect(big).unwrap()));
    }
}
