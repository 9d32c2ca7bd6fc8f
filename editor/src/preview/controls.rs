//! Controls: the preview panel's top rows: which simulation runs, Play / Pause / Step /
//! Reset, the speed, what the root returned; the timeline slider; and the messages (why
//! the tree does not load, dropped keys, breakpoints, the end of a run).

use crate::i18n::t;

use crate::words;
use egui::Color32;

use super::runner::{choices, NONE};
use super::{Preview, Tone, SPEED_RANGE};
use crate::view::UiCx;

/// Problems listed in the panel; the Problems panel has them all.
const PROBLEMS_SHOWN: usize = 4;

// `worlds/` imports the status colour from here.
pub use crate::live::status_color;

fn tone_color(tone: Tone, ui: &egui::Ui) -> Color32 {
    match tone {
        Tone::Info => ui.visuals().text_color(),
        Tone::Warning => ui.visuals().warn_fg_color,
        Tone::Error => ui.visuals().error_fg_color,
    }
}

impl Preview {
    pub(super) fn controls_ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>) {
        ui.horizontal_wrapped(|ui| {
            let current = self.sample().unwrap_or(NONE);
            let title = |name: &str| {
                choices()
                    .iter()
                    .find(|c| c.name == name)
                    .map_or(NONE, |c| c.title)
            };
            let mut chosen = None;
            egui::ComboBox::from_id_salt("arbor_preview_sample")
                .selected_text(title(current))
                .width(220.0)
                .show_ui(ui, |ui| {
                    for choice in choices() {
                        if ui
                            .selectable_label(choice.name == current, choice.title)
                            .clicked()
                        {
                            chosen = Some(choice.name);
                        }
                    }
                })
                .response
                .on_hover_text(t("The world the tree's agent lives in"));
            if let Some(name) = chosen.filter(|&n| n != current) {
                self.select_sample(name, cx.session);
            }
            ui.separator();

            let (label, hint) = if self.playing {
                (t("Pause"), t("Stop ticking"))
            } else {
                (t("Play"), t("Tick continuously at the chosen speed"))
            };
            if ui.button(label).on_hover_text(hint).clicked() {
                if self.playing {
                    self.pause();
                } else {
                    self.play();
                }
            }
            if ui
                .button(t("Step"))
                .on_hover_text(t("Run one tick"))
                .clicked()
                && !self.step(cx)
            {
                let why = self.simulation().map_or_else(
                    || "no tree is running".to_owned(),
                    |sim| format!("no tick ran: {}", sim.summary()),
                );
                self.note.get_or_insert((Tone::Info, why));
            }
            if ui
                .button(t("Reset"))
                .on_hover_text(t("A fresh world and agent, from the seed"))
                .clicked()
            {
                self.reset();
            }
            let mut speed = self.speed;
            ui.add(
                egui::Slider::new(&mut speed, SPEED_RANGE)
                    .logarithmic(true)
                    .max_decimals(0)
                    .suffix(" ticks/s"),
            )
            .on_hover_text(t("Ticks per second of wall-clock time"));
            self.set_speed(speed);
            ui.separator();

            let now = self.simulation().map_or(0.0, |s| s.now());
            ui.label(format!("tick {}, t = {now:.2} s", self.seq));
            if let Some(status) = self.last_root {
                ui.label(t("root:"));
                ui.colored_label(status_color(status), status.as_str());
            }
            if !self.breakpoints.is_empty() {
                let n = self.breakpoints.len();
                let text = format!("{} ×", words::count(n, "breakpoint"));
                if ui
                    .small_button(text)
                    .on_hover_text(t(
                        "Clear every breakpoint (F9 toggles one on the selected node)",
                    ))
                    .clicked()
                {
                    self.clear_breakpoints();
                }
            }
        });
    }

    /// The timeline slider, then the latest message, on one row.
    pub(super) fn timeline_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            self.slider_ui(ui);
            if let Some((tone, text)) = &self.note {
                ui.separator();
                let color = tone_color(*tone, ui);
                ui.add(egui::Label::new(egui::RichText::new(text).color(color)).truncate());
            }
        });
    }

    fn slider_ui(&mut self, ui: &mut egui::Ui) {
        let Some((first, last)) = self.timeline.range() else {
            ui.weak(t("Timeline: no ticks yet"));
            return;
        };
        let scrubbed = self.timeline.scrubbed();
        let mut at = scrubbed.unwrap_or(last);
        ui.spacing_mut().slider_width = (ui.available_width() * 0.4).clamp(120.0, 420.0);
        let slider = ui
            .add(egui::Slider::new(&mut at, first..=last).text(t("tick")))
            .on_hover_text(t("Drag back to see the statuses of an earlier tick"));
        if slider.changed() {
            self.scrub_to(at);
        }
        if ui
            .add_enabled(scrubbed.is_some(), egui::Button::new(t("Live")))
            .on_hover_text(t("Back to the latest tick"))
            .clicked()
        {
            self.go_live();
        }
        if let Some(record) = scrubbed.and_then(|seq| self.timeline.get(seq)) {
            ui.label(format!("t = {:.2} s, root", record.now));
            ui.colored_label(status_color(record.root), record.root.as_str());
        }
    }

    /// Why the tree does not load, and the load warnings.
    pub(super) fn problems_ui(&mut self, ui: &mut egui::Ui) {
        let error = ui.visuals().error_fg_color;
        for problem in self.problems.iter().take(PROBLEMS_SHOWN) {
            let first = problem.lines().next().unwrap_or_default();
            ui.colored_label(error, format!("• {first}"));
        }
        if self.problems.len() > PROBLEMS_SHOWN {
            ui.weak(format!(
                "… and {} more (see the Problems panel)",
                self.problems.len() - PROBLEMS_SHOWN
            ));
        }
        if !self.warnings.is_empty() {
            egui::CollapsingHeader::new(words::count(self.warnings.len(), "load warning"))
                .id_salt("arbor_preview_warnings")
                .show(ui, |ui| {
                    for warning in &self.warnings {
                        ui.weak(warning);
                    }
                });
        }
    }
}
