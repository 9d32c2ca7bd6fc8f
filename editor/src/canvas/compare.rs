//! The canvas's side of a comparison (Compare with…): the [`Comparison`] is view state
//! kept here, brought up to date when the document changes; node widgets read its marks
//! (view.rs outlines and badges them), and the nodes only the other version has are
//! painted as faded ghost cards at their old places, behind the nodes. Closing it leaves
//! the document as it was: nothing here issues a command.

use egui::{Color32, Rect, Stroke};

use arbor_viewer::legible;

use super::camera::DEFAULT_NODE_SIZE;
use super::Canvas;
use crate::compare::{Comparison, Target};
use crate::document::Selection;
use crate::i18n::t;
use crate::view::diff_colors::REMOVED;
use crate::Session;

impl Canvas {
    /// Shows `comparison` over the document from the next frame on.
    pub fn start_compare(&mut self, comparison: Comparison, session: &Session) {
        self.compare = Some((comparison, session.generation()));
    }

    /// Ends the comparison; the document is untouched.
    pub fn close_compare(&mut self) {
        self.compare = None;
    }

    /// The comparison shown, if any (as of the last time it was brought up to date).
    pub fn compare(&self) -> Option<&Comparison> {
        self.compare.as_ref().map(|(c, _)| c)
    }

    /// The comparison shown, brought up to date with the document first.
    pub fn compare_for(&mut self, session: &Session) -> Option<&mut Comparison> {
        let (c, seen) = self.compare.as_mut()?;
        if *seen != session.generation() {
            c.update(&session.document().to_tree_file());
            *seen = session.generation();
        }
        Some(c)
    }

    /// Frames what a step of the comparison points at: a node (selected too), or a ghost's
    /// old place.
    pub fn go_to(&mut self, target: &Target, selection: &mut Selection) {
        match target {
            Target::Node(guid) => {
                *selection = Selection::of_nodes([guid.clone()]);
                self.frame(std::slice::from_ref(guid));
            }
            Target::Ghost(guid) => {
                let at = self
                    .compare()
                    .and_then(|c| c.ghosts().iter().find(|g| &g.guid == guid)?.pos);
                if let Some([x, y]) = at {
                    let size = DEFAULT_NODE_SIZE;
                    self.pending_area = Some(Rect::from_min_size(
                        egui::pos2(x as f32, y as f32),
                        egui::vec2(size[0] as f32, size[1] as f32),
                    ));
                }
            }
            Target::None => {}
        }
    }

    /// The nodes only the other version has, faded, at their old places (those in view).
    pub(super) fn paint_ghosts(&self, ui: &egui::Ui) {
        let Some(c) = self.compare() else {
            return;
        };
        let cam = self.cam();
        let painter = ui.painter();
        let size = DEFAULT_NODE_SIZE;
        for ghost in c.ghosts().iter() {
            let Some(pos) = ghost.pos else {
                continue;
            };
            let r = cam.rect(pos, size);
            if !r.intersects(self.view) {
                continue;
            }
            painter.rect(
                r,
                6.0 * cam.zoom,
                REMOVED.gamma_multiply(0.12),
                Stroke::new(1.5, REMOVED.gamma_multiply(0.7)),
                egui::StrokeKind::Middle,
            );
            let pad = 10.0 * cam.zoom;
            let text_size = legible::annotation_size(14.0, cam.zoom);
            let width = r.width() - 2.0 * pad;
            let faded = Color32::from_gray(170);
            legible::line(
                painter,
                &format!("{} ({})", ghost.name, ghost.kind),
                r.left_top() + egui::vec2(pad, pad + text_size / 2.0),
                text_size,
                (width, r.height()),
                (faded, Color32::from_black_alpha(120)),
            );
            legible::line(
                painter,
                t("removed"),
                r.left_top() + egui::vec2(pad, 2.0 * pad + text_size * 1.5),
                legible::annotation_size(12.0, cam.zoom),
                (width, r.height()),
                (REMOVED, Color32::from_black_alpha(120)),
            );
        }
    }
}
