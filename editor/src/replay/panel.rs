//! The Replay panel: where in the log the canvas is, a slider over every step, and buttons
//! to step one transition (or one tick of changes) back and forth.

use crate::i18n::t;

use egui::RichText;

use super::Replay;
use crate::live::status_color;

/// What the user asked of the panel that the app must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayAction {
    Close,
}

/// The panel's own state.
#[derive(Default)]
pub struct ReplayPanel;

impl ReplayPanel {
    /// Draws the panel; `names` gives a node's name by GUID for the step shown.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        replay: &mut Replay,
        names: &dyn Fn(&str) -> Option<String>,
    ) -> Option<ReplayAction> {
        let mut action = None;
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("Replay: {}", replay.title)).strong());
            ui.weak(format!("{} transitions", replay.len()));
            if replay.unknown > 0 {
                ui.weak(format!(
                    "({} name nodes the tree does not have)",
                    replay.unknown
                ));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(t("Close replay")).clicked() {
                    action = Some(ReplayAction::Close);
                }
            });
        });
        if replay.is_empty() {
            ui.weak(t("The log holds no transitions."));
            return action;
        }
        let last = replay.len() - 1;
        ui.horizontal(|ui| {
            if ui
                .button("⏮")
                .on_hover_text(t("First transition"))
                .clicked()
            {
                replay.seek(0);
            }
            if ui
                .button("◀")
                .on_hover_text(t("Previous transition"))
                .clicked()
            {
                replay.step(-1);
            }
            if ui.button("▶").on_hover_text(t("Next transition")).clicked() {
                replay.step(1);
            }
            if ui.button("⏭").on_hover_text(t("Last transition")).clicked() {
                replay.seek(last);
            }
            let mut at = replay.position();
            ui.spacing_mut().slider_width = (ui.available_width() - 120.0).max(100.0);
            if ui
                .add(egui::Slider::new(&mut at, 0..=last).text("transition"))
                .changed()
            {
                replay.seek(at);
            }
        });
        if let Some(step) = replay.step_at(replay.position()).cloned() {
            ui.horizontal(|ui| {
                let when = if replay.in_ticks {
                    format!("tick {}", step.at)
                } else {
                    format!("{:.3} s", step.at)
                };
                ui.label(when);
                let name = names(&step.node)
                    .or_else(|| replay.node_name(&step.node))
                    .unwrap_or_else(|| step.node.clone());
                ui.label(RichText::new(name).strong());
                match step.state.status() {
                    Some(s) if step.state.is_current() => {
                        ui.colored_label(status_color(s), format!("{s:?}").to_lowercase());
                    }
                    _ => {
                        ui.weak(t("idle"));
                    }
                }
            });
        }
        action
    }
}
