//! The Groot2 panel: the connection to a BT.CPP program, the node waiting at a
//! breakpoint with Continue / Succeed / Fail, forced results for the selected nodes, every
//! hook at once (disable, enable, remove), the blackboards (read-only: the protocol cannot
//! write them) and the connection's log.

use crate::i18n::t;

use arbor_runtime::Status;
use egui::Color32;

use super::protocol::ROOT;
use super::state::{Groot2, NodeHook};
use crate::live::status_color;
use crate::remote::panel::{connection_line, log_column};
use crate::remote::RemoteAction;

/// The panel (no state of its own yet: everything it shows is the attachment's).
#[derive(Default)]
pub struct Groot2Panel;

impl Groot2Panel {
    /// Draws the panel for the nodes `selected` on the canvas (`names` gives a node's name
    /// by GUID, from the document shown); returns Detach when asked.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        g: &mut Groot2,
        selected: &[String],
        names: &dyn Fn(&str) -> Option<String>,
    ) -> Option<RemoteAction> {
        let mut action = None;
        ui.horizontal(|ui| {
            connection_label(ui, g);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(t("Detach")).clicked() {
                    action = Some(RemoteAction::Detach);
                }
            });
        });
        ui.horizontal(|ui| match g.waiting {
            Some(uid) => {
                let name = g
                    .guid(uid)
                    .and_then(names)
                    .unwrap_or_else(|| format!("node {uid}"));
                ui.colored_label(
                    Color32::from_rgb(230, 170, 60),
                    format!("waiting at the breakpoint before {name} (BT.CPP UID {uid})"),
                );
                if ui
                    .button(t("Continue"))
                    .on_hover_text(t("F5: tick the node as usual"))
                    .clicked()
                {
                    g.resume(None);
                }
                if ui
                    .button(t("Step"))
                    .on_hover_text(t("F10: tick the node, stop before the next node ticked"))
                    .clicked()
                {
                    g.step();
                }
                if ui
                    .button(t("Succeed"))
                    .on_hover_text(t("Skip the node: it returns SUCCESS"))
                    .clicked()
                {
                    g.resume(Some(Status::Success));
                }
                if ui
                    .button(t("Fail"))
                    .on_hover_text(t("Skip the node: it returns FAILURE"))
                    .clicked()
                {
                    g.resume(Some(Status::Failure));
                }
            }
            None => {
                ui.weak(
                    "Running. F9 on a node sets a breakpoint; BT.CPP cannot pause between ticks.",
                );
            }
        });
        self.forcing(ui, g, selected);
        all_hooks(ui, g);
        ui.separator();
        ui.columns(2, |cols| {
            self.blackboards(&mut cols[0], g);
            log_column(&mut cols[1], "groot2-log", &g.log);
        });
        action
    }

    /// Fault injection: the selected nodes return a result without running.
    fn forcing(&mut self, ui: &mut egui::Ui, g: &mut Groot2, selected: &[String]) {
        let nodes: Vec<&String> = selected.iter().filter(|s| g.uid(s).is_some()).collect();
        ui.horizontal(|ui| {
            ui.label(t("Selected nodes:"));
            if nodes.is_empty() {
                ui.weak(t(
                    "select nodes of the program's tree to force their result",
                ));
                return;
            }
            for (label, result) in [
                ("Force success", Some(Status::Success)),
                ("Force failure", Some(Status::Failure)),
                ("Run normally", None),
            ] {
                if ui.button(label).clicked() {
                    for guid in &nodes {
                        g.force(guid, result);
                    }
                }
            }
        });
        let forced: Vec<(u16, Status)> = g
            .hooks
            .iter()
            .filter_map(|(uid, h)| match h {
                NodeHook::Force(s) => Some((*uid, *s)),
                NodeHook::Breakpoint => None,
            })
            .collect();
        if !forced.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.label(t("Forced:"));
                for (uid, status) in forced {
                    ui.colored_label(status_color(status), format!("node {uid} → {status:?}"));
                }
            });
        }
    }

    /// Every blackboard the program exposes, key by key. Read-only: BT.CPP's protocol
    /// has no request to write one.
    fn blackboards(&mut self, ui: &mut egui::Ui, g: &Groot2) {
        ui.label(egui::RichText::new(t("Blackboards")).strong());
        // The root blackboard first, under a name no tree of the program can have.
        let root = g.root_blackboard().map(|b| ("(root)".to_owned(), b));
        let trees = g
            .blackboards
            .iter()
            .filter(|(board, _)| board.as_str() != ROOT)
            .map(|(board, keys)| (board.clone(), keys));
        let entries: Vec<(String, String)> = root
            .into_iter()
            .chain(trees)
            .flat_map(|(board, keys)| {
                let keys = keys.as_object().cloned().unwrap_or_default();
                keys.into_iter()
                    .map(move |(key, value)| (format!("{board}/{key}"), value.to_string()))
            })
            .collect();
        if entries.is_empty() {
            ui.weak(t("The program exposes no entries (yet)."));
            return;
        }
        egui::ScrollArea::vertical()
            .id_salt("groot2-blackboards")
            .show(ui, |ui| {
                egui::Grid::new("groot2-blackboard-grid")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        for (key, value) in entries {
                            ui.label(key);
                            ui.monospace(value);
                            ui.end_row();
                        }
                    });
            });
    }
}

/// Every hook at once: how many there are, Disable all / Enable all / Remove all.
fn all_hooks(ui: &mut egui::Ui, g: &mut Groot2) {
    let (set, off) = (g.hooks.len(), g.disabled.len());
    if set + off == 0 {
        return;
    }
    ui.horizontal(|ui| {
        ui.label(format!("Hooks: {set} set, {off} disabled"));
        if set > 0
            && ui
                .button(t("Disable all"))
                .on_hover_text(t(
                    "Keep every breakpoint and forced result, but switch them off",
                ))
                .clicked()
        {
            g.disable_all_hooks();
        }
        if off > 0 && ui.button(t("Enable all")).clicked() {
            g.enable_all_hooks();
        }
        if ui
            .button(t("Remove all"))
            .on_hover_text(t(
                "Remove every breakpoint and forced result from the program",
            ))
            .clicked()
        {
            g.remove_all_hooks();
        }
    });
}

fn connection_label(ui: &mut egui::Ui, g: &Groot2) {
    connection_line(ui, &g.connection, &g.address.to_string());
}
