//! The counting tree's "world": `current` and `target` after the last tick, and what each
//! branch of the root (AddTen, Inverter(NotEqualToTarget), AddTen) returned.

use crate::i18n::t;

use arbor_samples::counting::Counting;

use crate::preview::controls::status_color;

pub fn ui(ui: &mut egui::Ui, sim: &Counting) {
    let w = &sim.world;
    let show = |v: Option<i64>| v.map_or_else(|| "—".to_owned(), |v| v.to_string());
    ui.horizontal(|ui| {
        ui.label(t("current"));
        ui.heading(show(w.current));
        ui.label(t("target"));
        ui.heading(show(w.target));
    });
    if let (Some(current), Some(target)) = (w.current, w.target) {
        if target > 0 {
            let fraction = (current as f32 / target as f32).clamp(0.0, 1.0);
            ui.add(egui::ProgressBar::new(fraction).desired_width(240.0));
        }
    }
    ui.add_space(4.0);
    match w.result {
        None => {
            ui.weak(t("Not run yet."));
        }
        Some(result) => {
            ui.label(t("Branches that completed in the last tick:"));
            for (name, status) in &w.branches {
                ui.horizontal(|ui| {
                    ui.label(name);
                    ui.colored_label(status_color(*status), status.as_str());
                });
            }
            ui.horizontal(|ui| {
                ui.strong(t("root:"));
                ui.colored_label(status_color(result), result.as_str());
            });
        }
    }
    ui.weak(t(
        "Edit `current` or `target` in the blackboard (paused) to try other cases.",
    ));
}
