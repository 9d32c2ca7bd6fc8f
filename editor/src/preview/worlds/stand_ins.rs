//! The "none" world: no map, but a row per host node with the status its stand-in returns,
//! so a designer can steer a tree whose program does not exist yet (an imported
//! BehaviorTree.CPP tree, a game's actions still to be written) down every branch.

use crate::i18n::t;

use arbor_runtime::Status;

use crate::preview::runner::PlainSim;

/// The status buttons of the stand-in for node `guid`, if the loaded tree runs it as one:
/// a heading that says it is a stand-in, and success / failure / running to pick.
pub fn node_ui(ui: &mut egui::Ui, sim: &mut PlainSim, guid: &str) {
    let Some(kind) = sim.stand_in_kind(guid).map(str::to_owned) else {
        return;
    };
    ui.separator();
    ui.label(egui::RichText::new("Stand-in (preview)").strong())
        .on_hover_text(format!(
            "The preview has no code for {kind}: this node returns the status picked here"
        ));
    status_buttons(ui, sim, guid);
}

fn status_buttons(ui: &mut egui::Ui, sim: &mut PlainSim, guid: &str) {
    let current = sim.stand_in(guid);
    ui.horizontal(|ui| {
        for status in [Status::Success, Status::Failure, Status::Running] {
            if ui
                .selectable_label(current == status, status.as_str())
                .clicked()
            {
                sim.set_stand_in(guid, status);
            }
        }
    });
}

pub fn ui(ui: &mut egui::Ui, sim: &mut PlainSim) {
    use arbor_samples::Simulation as _;
    ui.label(sim.summary());
    let hosts: Vec<(String, String)> = sim
        .host_nodes()
        .into_iter()
        .map(|info| {
            let label = if info.name.is_empty() || info.name == info.kind {
                info.kind.clone()
            } else {
                format!("{} ({})", info.name, info.kind)
            };
            (info.guid.clone(), label)
        })
        .collect();
    if hosts.is_empty() {
        ui.weak(t(
            "No world: the tree runs on built-in nodes (Scripted, Wait, Log, …).",
        ));
        ui.weak(t(
            "Choose a sample above to run its host actions and conditions.",
        ));
        return;
    }
    ui.weak(t("Host nodes run as stand-ins. Pick what each returns:"));
    egui::ScrollArea::vertical()
        .id_salt("stand-ins")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("stand-in grid")
                .num_columns(2)
                .min_col_width(180.0)
                .striped(true)
                .show(ui, |ui| {
                    for (guid, label) in &hosts {
                        ui.add(egui::Label::new(label.as_str()).truncate());
                        status_buttons(ui, sim, guid);
                        ui.end_row();
                    }
                });
        });
}
