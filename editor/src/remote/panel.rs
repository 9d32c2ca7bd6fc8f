//! The remote debugging UI: the Attach… dialog (address, token, the server's instances)
//! and the Remote panel (instance picker, pause/step, the focused instance's blackboard,
//! the connection's log). Everything it does goes through [`Remote`]'s methods.

use crate::i18n::t;

use crate::words;
use arbor_runtime::debug::{PauseReason, DEFAULT_ADDR};
use egui::{Color32, RichText};

use super::state::{Connection, Remote};
use crate::live::{parse_value, Entry, LiveBlackboard};

/// The Attach… dialog's fields.
pub struct AttachDialog {
    pub open: bool,
    pub addr: String,
    pub token: String,
    /// When the list was last asked for, in the UI's clock.
    listed_at: f64,
}

/// Seconds between two requests for the list while the dialog is open.
const LIST_EVERY: f64 = 1.0;

impl Default for AttachDialog {
    fn default() -> Self {
        AttachDialog {
            open: false,
            addr: DEFAULT_ADDR.to_owned(),
            token: String::new(),
            listed_at: f64::NEG_INFINITY,
        }
    }
}

/// What the user asked of the dialog or the panel that the app must do.
#[derive(Clone, Debug, PartialEq)]
pub enum RemoteAction {
    Connect { addr: String, token: String },
    Detach,
}

impl AttachDialog {
    /// Shows the dialog while open.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        remote: &mut Option<Remote>,
    ) -> Option<RemoteAction> {
        if !self.open {
            return None;
        }
        if let Some(remote) = remote.as_mut() {
            // The listing's tick counts and paused flags change all the time; the server
            // only sends a new list unasked when instances come or go.
            let now = ctx.input(|i| i.time);
            if now - self.listed_at >= LIST_EVERY {
                remote.refresh_list();
                self.listed_at = now;
            }
        }
        let mut action = None;
        let mut open = self.open;
        egui::Window::new("Attach to a running program")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_width(420.0)
            // Where the user looks after the menu; it grows downwards as instances come.
            .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
            .show(ctx, |ui| {
                egui::Grid::new("attach-fields").num_columns(2).show(ui, |ui| {
                    ui.label(t("Address"));
                    ui.add(egui::TextEdit::singleline(&mut self.addr).hint_text(DEFAULT_ADDR));
                    ui.end_row();
                    ui.label(t("Token"));
                    ui.add(
                        egui::TextEdit::singleline(&mut self.token)
                            .password(true)
                            .hint_text(t("only if the program asks for one")),
                    );
                    ui.end_row();
                });
                ui.horizontal(|ui| {
                    let same = remote.as_ref().is_some_and(|r| r.addr == self.addr.trim());
                    let label = if same { "Reconnect" } else { "Connect" };
                    if ui.button(label).clicked() {
                        action = Some(RemoteAction::Connect {
                            addr: self.addr.trim().to_owned(),
                            token: self.token.clone(),
                        });
                    }
                    if remote.is_some() && ui.button(t("Detach")).clicked() {
                        action = Some(RemoteAction::Detach);
                    }
                });
                ui.separator();
                match remote {
                    None => {
                        ui.weak(t("Start your program with the debug server (see docs/embedding.md), then connect."));
                        ui.weak(t("A BehaviorTree.CPP program with a Groot2Publisher: type groot2://127.0.0.1:1667 (its port)."));
                    }
                    Some(remote) => instances(ui, remote),
                }
            });
        self.open = open;
        action
    }
}

/// The server's instances, each with a box to attach to it.
fn instances(ui: &mut egui::Ui, remote: &mut Remote) {
    connection_label(ui, remote);
    if remote.listed.is_empty() {
        return;
    }
    ui.label(t("Instances (tick the ones to watch):"));
    let mut toggled = Vec::new();
    egui::ScrollArea::vertical()
        .max_height(300.0)
        .show(ui, |ui| {
            egui::Grid::new("attach-instances")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for info in &remote.listed {
                        let mut on = remote.attached.contains_key(&info.name);
                        if ui.checkbox(&mut on, &info.name).changed() {
                            toggled.push((info.name.clone(), on));
                        }
                        ui.label(&info.tree.name).on_hover_text(&info.tree.guid);
                        let state = if info.paused { "paused" } else { "running" };
                        ui.weak(format!(
                            "{state}, {}",
                            words::count(info.ticks as usize, "tick")
                        ));
                        ui.end_row();
                    }
                });
        });
    for (name, on) in toggled {
        if on {
            remote.attach(&name);
        } else {
            remote.detach_instance(&name);
        }
    }
}

fn connection_label(ui: &mut egui::Ui, remote: &Remote) {
    connection_line(ui, &remote.connection, &remote.addr);
}

/// The state of a connection to `addr`, coloured; shared by the Arbor and BT.CPP panels.
pub(crate) fn connection_line(ui: &mut egui::Ui, connection: &Connection, addr: &str) {
    let (color, text) = match connection {
        Connection::Connecting => (Color32::GRAY, format!("Connecting to {addr}…")),
        Connection::Connected { server } => (
            Color32::from_rgb(110, 200, 120),
            format!("Connected to {addr} ({server})"),
        ),
        Connection::Lost(why) => (
            Color32::from_rgb(230, 170, 60),
            format!("{why}; reconnecting…"),
        ),
        Connection::Refused(why) => (Color32::from_rgb(230, 90, 90), format!("Refused: {why}")),
    };
    ui.colored_label(color, text);
}

/// A connection's log, newest at the bottom; shared by the Arbor and BT.CPP panels.
pub(crate) fn log_column(ui: &mut egui::Ui, id_salt: &str, log: &[String]) {
    ui.label(RichText::new(t("Log")).strong());
    egui::ScrollArea::vertical()
        .id_salt(id_salt)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            if log.is_empty() {
                ui.weak(t("Nothing to report."));
            }
            for line in log {
                ui.label(line);
            }
        });
}

/// The Remote panel's own state: the blackboard being edited.
#[derive(Default)]
pub struct RemotePanel {
    blackboard: LiveBlackboard,
}

impl RemotePanel {
    /// Draws the panel; returns an action for the app (detach).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        remote: &mut Remote,
        shown_here: bool,
    ) -> Option<RemoteAction> {
        let mut action = None;
        ui.horizontal(|ui| {
            connection_label(ui, remote);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button(t("Detach")).clicked() {
                    action = Some(RemoteAction::Detach);
                }
            });
        });
        if remote.attached.is_empty() {
            ui.weak(
                "No instance attached: open Preview > Attach to Program… and tick the instances to watch.",
            );
            return action;
        }
        ui.horizontal(|ui| {
            let current = remote.focus.clone().unwrap_or_default();
            egui::ComboBox::from_id_salt("remote-instance")
                .selected_text(&current)
                .width(220.0)
                .show_ui(ui, |ui| {
                    for (name, view) in &remote.attached {
                        let label = if view.is_running() {
                            name.clone()
                        } else {
                            format!("{name} (not running)")
                        };
                        if ui.selectable_label(current == *name, label).clicked() {
                            remote.focus = Some(name.clone());
                        }
                    }
                });
            let Some((_, view)) = remote.focused() else {
                return;
            };
            let running = view.is_running();
            let paused = view.paused.is_some();
            if paused {
                if ui.add_enabled(running, egui::Button::new(t("Resume"))).clicked() {
                    remote.resume();
                }
            } else if ui.add_enabled(running, egui::Button::new(t("Pause"))).clicked() {
                remote.pause();
            }
            if ui
                .add_enabled(running && paused, egui::Button::new(t("Step")))
                .on_hover_text(t("Run exactly one tick of the paused instance"))
                .clicked()
            {
                remote.step();
            }
            ui.separator();
            ui.label(format!("tick {}, t = {:.2} s", view.tick, view.time));
            if let Some(root) = view.root {
                ui.label(t("root:"));
                ui.colored_label(crate::live::status_color(root), format!("{root:?}").to_lowercase());
            }
            if let Some(pause) = &view.paused {
                let why = match pause.reason {
                    PauseReason::Breakpoint => "paused at a breakpoint",
                    PauseReason::Step => "paused after a step",
                    PauseReason::Request => "paused",
                };
                ui.colored_label(Color32::from_rgb(230, 170, 60), why);
            }
            if view.dropped > 0 {
                ui.weak(format!("{} dropped (the editor read too slowly)", words::count(view.dropped as usize, "frame")))
                    .on_hover_text(t("The program never waits for the editor: when the editor falls behind, the server drops tick frames and says how many."));
            }
        });
        if !shown_here {
            ui.weak(t("The tree of this instance is not the document shown: its statuses are drawn on its own tab."));
        }
        ui.separator();
        ui.columns(2, |cols| {
            self.blackboard(&mut cols[0], remote);
            log_column(&mut cols[1], "remote-log", &remote.log);
        });
        action
    }

    /// The focused instance's blackboard; a value can be edited while the instance is
    /// paused, and the program checks its type (a refusal arrives in the log).
    fn blackboard(&mut self, ui: &mut egui::Ui, remote: &mut Remote) {
        let Some((_, view)) = remote.focused() else {
            return;
        };
        let editable = view.paused.is_some() && view.is_running();
        let entries: Vec<Entry> = view
            .blackboard
            .iter()
            .map(|(key, value)| Entry {
                key: key.clone(),
                ty: None,
                value: Some(value.clone()).filter(|v| !v.is_null()),
                expires_in: None,
                sensed: false,
            })
            .collect();
        if let Some((key, text)) = self
            .blackboard
            .ui(ui, "remote-blackboard", &entries, editable)
        {
            remote.set_value(&key, parse_value(&text));
            self.blackboard.edited(&key, Ok(()));
        }
    }
}
