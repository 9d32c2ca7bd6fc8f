//! The camera: the document holds canvas coordinates only; the view shows them scaled by
//! the zoom and shifted by the pan. egui_node_editor zooms about the centre of the view and
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

pub use arbor_viewer::{Cam, DEFAULT_NODE_SIZE};

/// After egui_node_editor changed the zoom by `factor` about the view centre.
pub fn follow_zoom(cache: &mut ViewCache, factor: f32) {
    let half = cache.state.pan_zoom.clip_rect.size() / 2.0;
    let pan = cache.state.pan_zoom.pan;
    cache.state.pan_zoom.pan = (pan - half) * factor + half;
}

/// The lowest zoom "frame these nodes" and "frame all" go to: the level of detail still
/// writes every name that fits its box at this zoom (see paint.rs), so framing never
/// leaves a view where no label can be read. A larger tree is centred, partly outside.
pub const FRAME_FLOOR: f32 = 0.3;

/// A first view fits the whole tree only if it can do so at this zoom or more, where every
/// node is still a box wide enough for a short name at the level of detail's legible text
/// size; otherwise it opens on the root at 100 %.
pub const FIRST_VIEW_FLOOR: f32 = 0.4;

/// The zoom that fits the document rect `bounds` into `view` with a margin.
pub fn fit_zoom(view: Rect, bounds: Rect) -> f32 {
    let margin = 80.0;
    ((view.width() - margin) / bounds.width().max(1.0))
        .min((view.height() - margin) / bounds.height().max(1.0))
}

/// Zooms to `zoom` and pans so that the document point `centre` is in the middle of `view`.
pub fn look_at(cache: &mut ViewCache, ui: &egui::Ui, view: Rect, centre: Pos2, zoom: f32) {
    look_at_in(cache, ui, view, view, centre, zoom);
}

/// [`look_at`], with `centre` put in the middle of `area`, a part of `view`.
fn look_at_in(
    cache: &mut ViewCache,
    ui: &egui::Ui,
    view: Rect,
    area: Rect,
    centre: Pos2,
    zoom: f32,
) {
    let current = cache.state.pan_zoom.zoom;
    if (zoom - current).abs() > f32::EPSILON {
        cache.state.zoom(ui, zoom / current);
    }
    let zoom = cache.state.pan_zoom.zoom;
    cache.state.pan_zoom.pan = (area.center() - view.min) - centre.to_vec2() * zoom;
}

/// Zooms and pans so that the document rect `bounds` fills `area`, a part of `view`
/// (zoom between [`FRAME_FLOOR`] and 1).
pub fn frame(cache: &mut ViewCache, ui: &egui::Ui, view: Rect, area: Rect, bounds: Rect) {
    let target = fit_zoom(area, bounds).clamp(FRAME_FLOOR, 1.0);
    look_at_in(cache, ui, view, area, bounds.center(), target);
}

/// The part of `view` that framing fills. The whole view when, framed there, `boxes`
/// (the screen-independent document rects of the nodes) leave one of the minimap's
/// corners free (it goes there); otherwise the part beside the minimap `mini` or the part
/// above it, whichever fits `bounds` larger, so the minimap never covers a framed node.
pub fn frame_area(view: Rect, mini: Option<Rect>, bounds: Rect, boxes: &[Rect]) -> Rect {
    let Some(mini) = mini else {
        return view;
    };
    let zoom = fit_zoom(view, bounds).clamp(FRAME_FLOOR, 1.0);
    let origin = view.center() - bounds.center().to_vec2() * zoom;
    let on_screen = |r: &Rect| {
        Rect::from_min_max(
            origin + r.min.to_vec2() * zoom,
            origin + r.max.to_vec2() * zoom,
        )
    };
    let free = |corner: &Rect| !boxes.iter().any(|b| on_screen(b).intersects(*corner));
    if super::minimap::corners(view, mini).iter().any(free) {
        return view;
    }
    let gap = view.max.x - mini.max.x;
    let beside = Rect::from_min_max(view.min, Pos2::new(mini.min.x - gap, view.max.y));
    let above = Rect::from_min_max(view.min, Pos2::new(view.max.x, mini.min.y - gap));
    if fit_zoom(beside, bounds) >= fit_zoom(above, bounds) {
        beside
    } else {
        above
    }
}

/// Document point under a screen position.
pub fn to_doc(cache: &ViewCache, view: Rect, screen: Pos2) -> [f64; 2] {
    let zoom = cache.state.pan_zoom.zoom.max(0.01);
    let v = (screen - view.min - cache.state.pan_zoom.pan) / zoom;
    [f64::from(v.x), f64::from(v.y)]
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
        if std::mem::take(&mut self.pending_first_view) {
            self.apply_first_view(ui, cx);
        } else if let Some(guids) = self.pending_frame.take() {
            self.apply_frame(ui, cx, &guids);
        } else if let Some(bounds) = self.pending_area.take() {
            let area = self.frame_area(cx, bounds);
            frame(&mut self.cache, ui, self.view, area, bounds);
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

    /// The view a document opens with: everything if that is readable, else the root at
    /// 100 %, placed near the left edge (the tree grows to the right of it).
    fn apply_first_view(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>) {
        let Some(bounds) = self.bounds(cx, &[]) else {
            return;
        };
        let area = self.frame_area(cx, bounds);
        if fit_zoom(area, bounds) >= FIRST_VIEW_FLOOR {
            frame(&mut self.cache, ui, self.view, area, bounds);
            return;
        }
        let doc = cx.session.document();
        let root = doc.root().and_then(|r| doc.position(r));
        let Some(p) = root else {
            frame(&mut self.cache, ui, self.view, area, bounds);
            return;
        };
        let size = doc
            .root()
            .and_then(|r| self.sizes.get(r))
            .copied()
            .unwrap_or(DEFAULT_NODE_SIZE);
        // The root's left edge a margin from the view's, vertically centred.
        let centre = Pos2::new(
            p[0] as f32 + self.view.width() / 2.0 - 60.0,
            p[1] as f32 + size[1] as f32 / 2.0,
        );
        look_at(&mut self.cache, ui, self.view, centre, 1.0);
    }

    fn apply_frame(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>, guids: &[String]) {
        if let Some(bounds) = self.bounds(cx, guids) {
            let area = self.frame_area(cx, bounds);
            frame(&mut self.cache, ui, self.view, area, bounds);
        }
    }

    /// Where framing puts `bounds`: clear of the minimap.
    fn frame_area(&self, cx: &UiCx<'_>, bounds: Rect) -> Rect {
        let Some(mini) = super::minimap::rect(self.view).filter(|_| self.show_minimap) else {
            return self.view;
        };
        // Every node drawn in the framed view, not only the framed ones.
        let doc = cx.session.document();
        let boxes: Vec<Rect> = doc
            .nodes()
            .filter_map(|n| {
                let p = doc.position(&n.guid)?;
                let size = self
                    .sizes
                    .get(&n.guid)
                    .copied()
                    .unwrap_or(DEFAULT_NODE_SIZE);
                Some(Rect::from_min_size(
                    Pos2::new(p[0] as f32, p[1] as f32),
                    egui::vec2(size[0] as f32, size[1] as f32),
                ))
            })
            .collect();
        frame_area(self.view, Some(mini), bounds, &boxes)
    }

    /// The document rect around these nodes (everything, notes and groups too, if empty).
    pub(super) fn bounds(&self, cx: &UiCx<'_>, guids: &[String]) -> Option<Rect> {
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
        bounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing_beside_or_above_the_minimap_keeps_bounds_clear_of_it() {
        let view = Rect::from_min_size(Pos2::new(100.0, 50.0), egui::vec2(1000.0, 800.0));
        let mini = Rect::from_min_max(Pos2::new(868.0, 688.0), Pos2::new(1088.0, 838.0));
        // A tree as tall as wide goes beside the minimap, a wide one above it.
        let tall = Rect::from_min_size(Pos2::ZERO, egui::vec2(1000.0, 1000.0));
        let wide = Rect::from_min_size(Pos2::ZERO, egui::vec2(2000.0, 1000.0));
        // Nodes in every corner of the framed bounds: the minimap has no free corner.
        let crowded = |b: Rect| {
            [
                b.left_top(),
                b.right_top(),
                b.left_bottom(),
                b.right_bottom(),
            ]
            .map(|p| Rect::from_center_size(p, egui::vec2(200.0, 200.0)))
        };
        let beside = frame_area(view, Some(mini), tall, &crowded(tall));
        let above = frame_area(view, Some(mini), wide, &crowded(wide));
        assert!(beside.max.x < mini.min.x && beside.height() == view.height());
        assert!(above.max.y < mini.min.y && above.width() == view.width());
        assert_eq!(frame_area(view, None, tall, &crowded(tall)), view);
        // A free corner: the whole view, and the minimap goes to that corner.
        let one = [Rect::from_min_size(Pos2::ZERO, egui::vec2(10.0, 10.0))];
        assert_eq!(frame_area(view, Some(mini), tall, &one), view);
    }
}
