//! Worlds: each sample's world drawn with egui's painter (one file per sample, reached
//! through [`SampleMut`], which names the running sample's type: a new sample does not
//! build until it is drawn here), the stand-ins' statuses, and the simulation's log.

use crate::i18n::t;

mod card_duel;
mod counting;
mod guard;
mod stand_ins;
mod villager;

use arbor_samples::{SampleMut, Simulation};
use egui::{Color32, Pos2, Rect};

use crate::preview::runner::Runner;

use crate::words;
pub use stand_ins::node_ui as stand_in_node_ui;

/// Draws the running simulation's world. Returns a message for the user when one of its
/// controls refused an action (the duel's move buttons).
pub fn world_ui(ui: &mut egui::Ui, runner: &mut Runner) -> Option<String> {
    if let Some(plain) = runner.stand_ins_mut() {
        stand_ins::ui(ui, plain);
        return None;
    }
    let sim = runner.sim_mut();
    match sim.sample_mut() {
        Some(SampleMut::CardDuel(duel)) => return card_duel::ui(ui, duel),
        Some(SampleMut::Villager(villager)) => villager::ui(ui, villager),
        Some(SampleMut::Guard(guard)) => guard::ui(ui, guard),
        Some(SampleMut::Counting(counting)) => counting::ui(ui, counting),
        None => {
            ui.label(sim.summary());
        }
    }
    None
}

/// Log lines shown at most, the newest: wrapped lines have different heights, so every
/// line shown is laid out each frame.
const LOG_SHOWN: usize = 200;

/// The simulation's log, newest at the bottom, following new lines; a long line wraps
/// under its time.
pub fn log_ui(ui: &mut egui::Ui, sim: &dyn Simulation) {
    ui.strong(t("Log"));
    let log = sim.log();
    let total = log.lines().count();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            if total > LOG_SHOWN {
                ui.weak(format!(
                    "… {} before",
                    words::count(total - LOG_SHOWN, "line")
                ));
            }
            for line in log.lines().skip(total.saturating_sub(LOG_SHOWN)) {
                ui.horizontal_top(|ui| {
                    ui.monospace(format!("{:>7.2}", line.time));
                    ui.add(egui::Label::new(&line.text).wrap());
                });
            }
        });
}

/// Maps a sample's map coordinates (y down, like the screen) into a screen rectangle,
/// keeping the aspect ratio and centring.
pub(crate) struct Fit {
    origin: Pos2,
    scale: f32,
}

impl Fit {
    pub fn new(rect: Rect, size: arbor_samples::Vec2) -> Fit {
        let (w, h) = (size.x.max(1.0) as f32, size.y.max(1.0) as f32);
        let scale = (rect.width() / w).min(rect.height() / h).max(0.01);
        let used = egui::vec2(w * scale, h * scale);
        Fit {
            origin: rect.center() - used / 2.0,
            scale,
        }
    }

    pub fn pos(&self, p: arbor_samples::Vec2) -> Pos2 {
        self.origin + egui::vec2(p.x as f32, p.y as f32) * self.scale
    }

    pub fn len(&self, d: f64) -> f32 {
        d as f32 * self.scale
    }

    /// The whole map on screen.
    pub fn rect(&self, size: arbor_samples::Vec2) -> Rect {
        Rect::from_min_max(self.pos(arbor_samples::Vec2::new(0.0, 0.0)), self.pos(size))
    }
}

pub(crate) fn rgb([r, g, b]: [u8; 3]) -> Color32 {
    Color32::from_rgb(r, g, b)
}

/// A horizontal bar filled to `fraction` (0–1).
pub(crate) fn bar(painter: &egui::Painter, rect: Rect, fraction: f32, fill: Color32) {
    painter.rect_filled(rect, 2.0, Color32::from_gray(45));
    let mut filled = rect;
    filled.set_width(rect.width() * fraction.clamp(0.0, 1.0));
    painter.rect_filled(filled, 2.0, fill);
}

/// Small text anchored by `align` at `pos`, wrapped at `width` and moved inside `bounds`
/// (a status longer than its panel wraps instead of running past its edge). Returns the
/// rect it took.
pub(crate) fn text_within(
    painter: &egui::Painter,
    place: (Pos2, egui::Align2),
    text: impl ToString,
    color: Color32,
    bounds: Rect,
) -> Rect {
    text_clear_of(painter, &[place], text, color, bounds, &[])
}

/// [`text_within`] at the first of `places` where the text stays clear of `taken` (the
/// rects of labels already written), or at the first place if none is clear.
pub(crate) fn text_clear_of(
    painter: &egui::Painter,
    places: &[(Pos2, egui::Align2)],
    text: impl ToString,
    color: Color32,
    bounds: Rect,
    taken: &[Rect],
) -> Rect {
    let galley = painter.layout(
        text.to_string(),
        egui::FontId::proportional(11.0),
        color,
        bounds.width().max(20.0),
    );
    let inside = |(pos, align): (Pos2, egui::Align2)| {
        let rect = align.anchor_size(pos, galley.size());
        // Inside the bounds when it fits; its top-left corner wins when it does not.
        let rect = rect.translate(egui::vec2(
            (bounds.right() - rect.right()).min(0.0),
            (bounds.bottom() - rect.bottom()).min(0.0),
        ));
        rect.translate(egui::vec2(
            (bounds.left() - rect.left()).max(0.0),
            (bounds.top() - rect.top()).max(0.0),
        ))
    };
    let candidates: Vec<Rect> = places.iter().map(|&p| inside(p)).collect();
    let rect = candidates
        .iter()
        .find(|r| !taken.iter().any(|t| t.intersects(**r)))
        .or(candidates.first())
        .copied()
        .unwrap_or(Rect::NOTHING);
    painter.galley(rect.min, galley, color);
    rect
}

/// Small text at `pos`, anchored by `align`.
pub(crate) fn text(
    painter: &egui::Painter,
    pos: Pos2,
    align: egui::Align2,
    text: impl ToString,
    color: Color32,
) {
    painter.text(pos, align, text, egui::FontId::proportional(11.0), color);
}
