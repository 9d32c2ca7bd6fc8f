//! The camera: the document holds canvas coordinates only; the view shows them scaled by
//! the zoom and shifted by the pan. egui_node_graph2 zooms about the centre of the view and
//! rescales its own node positions; the canvas rewrites positions from the document every
//! frame, so it moves the pan to keep the same point under the centre instead.
//!
//! Stage 1 of a canvas frame ([`Canvas::place_camera`]): a pending "frame these nodes" or
//! zoom is applied before anything is placed. Also the geometry the later stages share:
//! [`Cam`], and the sizes of the handles on notes and groups.

use egui::{Pos2, Rect};

use super::sync::ViewCache;
use super::Canvas;
use crate::document::Group;
use crate::view::UiCx;

/// Height of a note's header and a group's title bar, in canvas units.
pub(super) const STRIP: f32 = 26.0;
/// Size of the resize handle in a note's or group's corner, in canvas units.
pub(super) const HANDLE: f32 = 14.0;

/// Bounds used for nodes not drawn yet.
pub const DEFAULT_NODE_SIZE: [f64; 2] = [200.0, 90.0];

/// After egui_node_graph2 changed the zoom by `factor` about the view centre.
pub fn follow_zoom(cache: &mut ViewCache, factor: f32) {
    let half = cache.state.pan_zoom.clip_rect.size() / 2.0;
    let pan = cache.state.pan_zoom.pan;
    cache.state.pan_zoom.pan = (pan - half) * factor + half;
}

/// Zooms and pans so that the document rect `bounds` fills `view` (zoom at most 1).
pub fn frame(cache: &mut ViewCache, ui: &egui::Ui, view: Rect, bounds: Rect) {
    let margin = 80.0;
    let fit = ((view.width() - margin) / bounds.width().max(1.0))
        .min((view.height() - margin) / bounds.height().max(1.0));
    let target = fit.clamp(0.2, 1.0);
    let current = cache.state.pan_zoom.zoom;
    if (target - current).abs() > f32::EPSILON {
        cache.state.zoom(ui, target / current);
    }
    let zoom = cache.state.pan_zoom.zoom;
    cache.state.pan_zoom.pan = view.size() / 2.0 - bounds.center().to_vec2() * zoom;
}

/// Document point under a screen position.
pub fn to_doc(cache: &ViewCache, view: Rect, screen: Pos2) -> [f64; 2] {
    let zoom = cache.state.pan_zoom.zoom.max(0.01);
    let v = (screen - view.min - cache.state.pan_zoom.pan) / zoom;
    [f64::from(v.x), f64::from(v.y)]
}

/// Maps document coordinates to the screen (the canvas camera).
#[derive(Clone, Copy)]
pub struct Cam {
    pub origin: Pos2,
    pub zoom: f32,
}

impl Cam {
    pub fn rect(&self, pos: [f64; 2], size: [f64; 2]) -> Rect {
        Rect::from_min_size(
            self.pos(pos),
            egui::vec2(size[0] as f32, size[1] as f32) * self.zoom,
        )
    }

    pub fn pos(&self, p: [f64; 2]) -> Pos2 {
        self.origin + egui::vec2(p[0] as f32, p[1] as f32) * self.zoom
    }
}

/// A collapsed group is drawn as a small box at its frame's top-left corner.
pub fn collapsed_rect(cam: Cam, group: &Group) -> Rect {
    cam.rect([group.rect[0], group.rect[1]], [220.0, 64.0])
}

pub(super) fn corner_rect(r: Rect, zoom: f32) -> Rect {
    Rect::from_min_max(r.max - egui::vec2(HANDLE, HANDLE) * zoom, r.max)
}

impl Canvas {
    /// Stage 1: applies a pending "frame these nodes" or zoom (keeping the view's centre).
    pub(super) fn place_camera(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>) {
        if let Some(guids) = self.pending_frame.take() {
            self.apply_frame(ui, cx, &guids);
        }
        if let Some(zoom) = self.pending_zoom.take() {
            let centre = to_doc(&self.cache, self.view, self.view.center());
            let factor = zoom / self.cache.state.pan_zoom.zoom;
            self.cache.state.zoom(ui, factor);
            let zoom = self.cache.state.pan_zoom.zoom;
            self.cache.state.pan_zoom.pan =
                self.view.size() / 2.0 - egui::vec2(centre[0] as f32, centre[1] as f32) * zoom;
        }
    }

    pub(super) fn cam(&self) -> Cam {
        Cam {
            origin: self.view.min + self.cache.state.pan_zoom.pan,
            zoom: self.cache.state.pan_zoom.zoom,
        }
    }

    fn apply_frame(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>, guids: &[String]) {
        let doc = cx.session.document();
        let wanted: Vec<&str> = if guids.is_empty() {
            doc.nodes().map(|n| n.guid.as_str()).collect()
        } else {
            guids.iter().map(String::as_str).collect()
        };
        let mut bounds: Option<Rect> = None;
        for guid in wanted {
            let Some(p) = doc.position(guid) else {
                continue;
            };
            let size = self.sizes.get(guid).copied().unwrap_or(DEFAULT_NODE_SIZE);
            let r = Rect::from_min_size(
                Pos2::new(p[0] as f32, p[1] as f32),
                egui::vec2(size[0] as f32, size[1] as f32),
            );
            bounds = Some(bounds.map_or(r, |b| b.union(r)));
        }
        if guids.is_empty() {
            // Framing everything includes the notes and group frames around the tree.
            let extra = doc.notes().iter().map(|n| (n.pos, n.size)).chain(
                doc.groups()
                    .iter()
                    .map(|g| ([g.rect[0], g.rect[1]], [g.rect[2], g.rect[3]])),
            );
            for (p, size) in extra {
                let r = Rect::from_min_size(
                    Pos2::new(p[0] as f32, p[1] as f32),
                    egui::vec2(size[0] as f32, size[1] as f32),
                );
                bounds = Some(bounds.map_or(r, |b| b.union(r)));
            }
        }
        if let Some(bounds) = bounds {
            frame(&mut self.cache, ui, self.view, bounds);
        }
    }
}
