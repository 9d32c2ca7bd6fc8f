//! The menu bar and the tab bar.

use crate::words;
use std::path::PathBuf;

use super::shortcuts;
use super::{files, Action, ArborApp, Panel, Theme};

impl ArborApp {
    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let item =
            |ui: &mut egui::Ui, text: &str, action: Action, enabled: bool| -> Option<Action> {
                let button = egui::Button::new(text).shortcut_text(shortcuts::label(&ctx, action));
                ui.add_enabled(enabled, button).clicked().then(|| {
                    ui.close();
                    action
                })
            };
        let mut chosen = Vec::new();
        let mut open_recent: Option<PathBuf> = None;
        let mut open_project: Option<Option<PathBuf>> = None;
        let mut project_menu = None;
        let mut detach = false;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                chosen.extend(item(ui, "New", Action::New, true));
                chosen.extend(item(ui, "Open…", Action::Open, true));
                ui.menu_button("Open Recent", |ui| {
                    if self.prefs.recent.is_empty() {
                        ui.label("No recent files");
                    }
                    for path in &self.prefs.recent {
                        if ui.button(path.display().to_string()).clicked() {
                            open_recent = Some(path.clone());
                            ui.close();
                        }
                    }
                });
                ui.separator();
                if ui.button("Open Project…").clicked() {
                    open_project = Some(None);
                    ui.close();
                }
                ui.menu_button("Open Recent Project", |ui| {
                    if self.prefs.recent_projects.is_empty() {
                        ui.label("No recent projects");
                    }
                    for path in &self.prefs.recent_projects {
                        if ui.button(path.display().to_string()).clicked() {
                            open_project = Some(Some(path.clone()));
                            ui.close();
                        }
                    }
                });
                let in_project = self.project.is_some();
                if ui
                    .add_enabled(in_project, egui::Button::new("Declare Action…"))
                    .clicked()
                {
                    project_menu = Some(true);
                    ui.close();
                }
                if ui
                    .add_enabled(in_project, egui::Button::new("Close Project"))
                    .clicked()
                {
                    project_menu = Some(false);
                    ui.close();
                }
                ui.separator();
                chosen.extend(item(ui, "Save", Action::Save, true));
                chosen.extend(item(ui, "Save As…", Action::SaveAs, true));
                ui.separator();
                chosen.extend(item(ui, "Close Tab", Action::CloseTab, true));
            });
            ui.menu_button("Edit", |ui| {
                let undo = self
                    .session()
                    .undo_text()
                    .unwrap_or_else(|| "Undo".to_owned());
                let redo = self
                    .session()
                    .redo_text()
                    .unwrap_or_else(|| "Redo".to_owned());
                chosen.extend(item(ui, &undo, Action::Undo, self.session().can_undo()));
                chosen.extend(item(ui, &redo, Action::Redo, self.session().can_redo()));
                ui.separator();
                let some = !self.selection().is_empty();
                chosen.extend(item(ui, "Duplicate", Action::Duplicate, some));
                chosen.extend(item(ui, "Delete", Action::Delete, some));
                chosen.extend(item(ui, "Select All", Action::SelectAll, true));
                ui.label(
                    egui::RichText::new("Cut, copy, paste: Ctrl+X, Ctrl+C, Ctrl+V")
                        .small()
                        .weak(),
                );
                ui.separator();
                chosen.extend(item(ui, "Add Node…", Action::Palette, true));
                let one = self.selection().nodes.len() == 1;
                chosen.extend(item(ui, "Add Child…", Action::AddChild, one));
                chosen.extend(item(ui, "Add Sibling…", Action::AddSibling, one));
                chosen.extend(item(ui, "Rename Node", Action::Rename, one));
                chosen.extend(item(ui, "Add Note", Action::AddNote, true));
                chosen.extend(item(ui, "Group Selection", Action::Group, some));
                chosen.extend(item(
                    ui,
                    "Ungroup",
                    Action::Ungroup,
                    !self.selection().groups.is_empty(),
                ));
                ui.separator();
                let one = self.selection().nodes.len() == 1;
                let subtree = one
                    && self.selection().nodes.iter().all(|g| {
                        self.session()
                            .document()
                            .node(g)
                            .is_some_and(|n| n.kind == "Subtree")
                    });
                chosen.extend(item(ui, "Inline Subtree", Action::InlineSubtree, subtree));
                chosen.extend(item(ui, "Export as Subtree…", Action::ExportSubtree, one));
                chosen.extend(item(ui, "Auto Layout", Action::AutoLayout, true));
            });
            ui.menu_button("View", |ui| {
                chosen.extend(item(ui, "Frame Selection", Action::FrameSelection, true));
                chosen.extend(item(ui, "Frame All", Action::FrameAll, true));
                chosen.extend(item(ui, "Reset Zoom", Action::ResetZoom, true));
                chosen.extend(item(ui, "Find in Tree…", Action::Find, true));
                ui.separator();
                let panels = self.prefs.panels;
                let toggles = [
                    (Panel::Palette, Action::TogglePalette),
                    (Panel::Left, Action::ToggleLeftPanel),
                    (Panel::Right, Action::ToggleRightPanel),
                    (Panel::Bottom, Action::TogglePreviewPanel),
                ];
                for (panel, action) in toggles {
                    let button = egui::Button::selectable(panels.shown(panel), panel.title())
                        .shortcut_text(shortcuts::label(&ctx, action));
                    if ui.add(button).clicked() {
                        ui.close();
                        chosen.push(action);
                    }
                }
                let focus = egui::Button::selectable(panels.focus, "Focus Mode")
                    .shortcut_text(shortcuts::label(&ctx, Action::FocusMode));
                if ui
                    .add(focus)
                    .on_hover_text("Every panel hidden: the canvas gets the window")
                    .clicked()
                {
                    ui.close();
                    chosen.push(Action::FocusMode);
                }
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("Theme");
                    ui.selectable_value(&mut self.prefs.theme, Theme::Dark, "Dark");
                    ui.selectable_value(&mut self.prefs.theme, Theme::Light, "Light");
                });
                ui.menu_button("Source Editor", |ui| {
                    ui.label("Command that opens a node type's source ({file}, {line}):");
                    ui.text_edit_singleline(&mut self.prefs.source_command);
                });
            });
            ui.menu_button("Preview", |ui| {
                chosen.extend(item(
                    ui,
                    "Toggle Breakpoint",
                    Action::Breakpoint,
                    !self.selection().nodes.is_empty(),
                ));
                ui.separator();
                if ui.button("Attach to Program…").clicked() {
                    self.attach.open = true;
                    ui.close();
                }
                if ui
                    .add_enabled(
                        self.remote.is_some() || self.groot2.is_some(),
                        egui::Button::new("Detach"),
                    )
                    .clicked()
                {
                    detach = true;
                    ui.close();
                }
            });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let errors = self.tab().error_count();
                if errors > 0 {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 90, 90),
                        format!("⚠ {}", words::count(errors, "problem")),
                    );
                }
                ui.label(words::count(self.session().document().node_count(), "node"));
            });
        });
        for action in chosen {
            self.act(&ctx, action);
        }
        if let Some(path) = open_recent {
            self.open(&path);
        }
        match open_project {
            Some(Some(path)) => self.open_project(&path),
            Some(None) => self.pick_project(),
            None => {}
        }
        match project_menu {
            Some(true) => self.declare.open(),
            Some(false) => self.close_project(),
            None => {}
        }
        if detach {
            self.detach();
        }
    }

    pub(super) fn tab_bar(&mut self, ui: &mut egui::Ui) {
        let mut switch = None;
        ui.horizontal(|ui| {
            for (i, tab) in self.tabs.iter().enumerate() {
                let name = files::tab_label(tab.session());
                if ui.selectable_label(i == self.active, name).clicked() {
                    switch = Some(i);
                }
            }
        });
        if let Some(i) = switch {
            self.switch_to(i);
        }
    }
}
