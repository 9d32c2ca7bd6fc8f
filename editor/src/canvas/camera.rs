//! The camera: the document holds canvas coordinates only; the view shows them scaled by
//! the zoom and shifted by the pan. egui_node_graph2 zooms about the centre of the view and
//! rescales its own node positions; the canvas rewrites positions from the document every
//! frame, so it moves the pan to keep the same point under the centre instead.

use egui::{Pos2, Rect};

use super::sync::ViewCache;

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
