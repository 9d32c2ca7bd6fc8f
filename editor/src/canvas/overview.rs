//! The canvas's zoomed-out drawing of a whole tree, fitted into a rectangle, on its own:
//! what the in-game tree viewer (`crate::viewer`) draws. It is the canvas's level of
//! detail ([`super::paint`]), not a copy of it: the same scene, boxes, edges and status
//! colours, so a game's viewer shows a tree exactly as the editor's overview does.

use std::collections::{BTreeSet, HashMap};

use arbor_runtime::{NodeTypes, Report};
use egui::{Pos2, Rect};

use super::camera::{Cam, DEFAULT_NODE_SIZE};
use super::paint::paint_boxes;
use super::scene::Scene;
use crate::document::Document;
use crate::live::LiveSource;

/// A document's nodes, placed and indexed once, drawn fitted into any rectangle.
pub struct Overview {
    scene: Scene,
    /// Where the nodes lie, in canvas units.
    bounds: Rect,
    sizes: HashMap<String, [f64; 2]>,
}

impl Overview {
    /// Places `doc`'s nodes (its stored positions; a document opened from a file without
    /// editor data was laid out when it loaded). `types` give the category colours.
    pub fn new(doc: &Document, types: &NodeTypes) -> Overview {
        let sizes = HashMap::new();
        let scene = Scene::build(doc, types, (&Report::default(), None), &sizes, 0);
        let bounds = doc
            .nodes()
            .filter_map(|n| scene.index(&n.guid))
            .map(|i| scene.rect(i, &sizes))
            .fold(Rect::NOTHING, |acc, r| acc.union(r));
        Overview {
            scene,
            bounds,
            sizes,
        }
    }

    /// Paints the tree fitted into `rect` (centred, aspect kept, never larger than 100 %),
    /// node colours from `live`.
    pub fn paint(&self, painter: &egui::Painter, rect: Rect, live: &dyn LiveSource) {
        if !self.bounds.is_positive() || !rect.is_positive() {
            return;
        }
        let margin = 8.0;
        let room = rect.shrink(margin);
        let zoom = (room.width() / self.bounds.width())
            .min(room.height() / self.bounds.height())
            .clamp(0.01, 1.0);
        let drawn = self.bounds.size() * zoom;
        let top_left = room.center() - drawn / 2.0;
        let cam = Cam {
            origin: Pos2::new(
                top_left.x - self.bounds.min.x * zoom,
                top_left.y - self.bounds.min.y * zoom,
            ),
            zoom,
        };
        let painter = painter.with_clip_rect(rect);
        paint_boxes(
            &painter,
            &self.scene,
            cam,
            rect,
            &self.sizes,
            (&BTreeSet::new(), &BTreeSet::new()),
            live,
        );
    }

    /// The size the tree takes at 100 %, in points (for a window's default size).
    pub fn natural_size(&self) -> egui::Vec2 {
        if self.bounds.is_positive() {
            self.bounds.size()
        } else {
            egui::vec2(DEFAULT_NODE_SIZE[0] as f32, DEFAULT_NODE_SIZE[1] as f32)
        }
    }
}
