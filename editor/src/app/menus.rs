//! The menu bar and the tab bar.

use crate::i18n::{self, t, Lang};

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
        let mut compare = None;
        let mut detach = false;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button(t("File"), |ui| {
                chosen.extend(item(ui, t("New"), Action::New, true));
                chosen.extend(item(ui, t("Open…"), Action::Open, true));
                ui.menu_button(t("Open Recent"), |ui| {
                    if self.prefs.recent.is_empty() {
                        ui.label(t("No recent files"));
                    }
                    for path in &self.prefs.recent {
                        if ui.button(path.display().to_string()).clicked() {
                            open_recent = Some(path.clone());
                            ui.close();
                        }
                    }
                });
                ui.separator();
                if ui.button(t("Open Project…")).clicked() {
                    open_project = Some(None);
                    ui.close();
                }
                ui.menu_button(t("Open Recent Project"), |ui| {
                    if self.prefs.recent_projects.is_empty() {
                        ui.label(t("No recent projects"));
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
                    .add_enabled(in_project, egui::Button::new(t("Declare Action…")))
                    .clicked()
                {
                    project_menu = Some(true);
                    ui.close();
                }
                if ui
                    .add_enabled(in_project, egui::Button::new(t("Close Project")))
                    .clicked()
                {
                    project_menu = Some(false);
                    ui.close();
                }
                ui.separator();
                chosen.extend(item(ui, t("Save"), Action::Save, true));
                chosen.extend(item(ui, t("Save As…"), Action::SaveAs, true));
                ui.separator();
                if ui.button(t("Compare with File…")).clicked() {
                    compare = Some(false);
                    ui.close();
                }
                let saved = self.session().path().is_some();
                if ui
                    .add_enabled(saved, egui::Button::new(t("Compare with HEAD")))
                    .on_disabled_hover_text(t("Only a saved file has versions in git"))
                    .clicked()
                {
                    compare = Some(true);
                    ui.close();
                }
                ui.separator();
                chosen.extend(item(ui, t("Close Tab"), Action::CloseTab, true));
            });
            ui.menu_button(t("Edit"), |ui| {
                let undo = self
                    .session()
                    .undo_text()
                    .unwrap_or_else(|| t("Undo").to_owned());
                let redo = self
                    .session()
                    .redo_text()
                    .unwrap_or_else(|| t("Redo").to_owned());
                chosen.extend(item(ui, &undo, Action::Undo, self.session().can_undo()));
                chosen.extend(item(ui, &redo, Action::Redo, self.session().can_redo()));
                ui.separator();
                let some = !self.selection().is_empty();
                chosen.extend(item(ui, t("Duplicate"), Action::Duplicate, some));
                chosen.extend(item(ui, t("Delete"), Action::Delete, some));
                chosen.extend(item(ui, t("Select All"), Action::SelectAll, true));
                ui.label(
                    egui::RichText::new(t("Cut, copy, paste: Ctrl+X, Ctrl+C, Ctrl+V"))
                        .size(crate::fonts::SMALL_TEXT)
                        .weak(),
                );
                ui.separator();
                chosen.extend(item(ui, t("Add Node…"), Action::Palette, true));
                let one = self.selection().nodes.len() == 1;
                chosen.extend(item(ui, t("Add Child…"), Action::AddChild, one));
                chosen.extend(item(ui, t("Add Sibling…"), Action::AddSibling, one));
                chosen.extend(item(ui, t("Rename Node"), Action::Rename, one));
                chosen.extend(item(ui, t("Add Note"), Action::AddNote, true));
                chosen.extend(item(ui, t("Group Selection"), Action::Group, some));
                chosen.extend(item(
                    ui,
                    t("Ungroup"),
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
                chosen.extend(item(
                    ui,
                    t("Inline Subtree"),
                    Action::InlineSubtree,
                    subtree,
                ));
                chosen.extend(item(
                    ui,
                    t("Export as Subtree…"),
                    Action::ExportSubtree,
                    one,
                ));
                chosen.extend(item(ui, t("Auto Layout"), Action::AutoLayout, true));
            });
            ui.menu_button(t("View"), |ui| {
                chosen.extend(item(ui, t("Frame Selection"), Action::FrameSelection, true));
                chosen.extend(item(ui, t("Frame All"), Action::FrameAll, true));
                chosen.extend(item(ui, t("Reset Zoom"), Action::ResetZoom, true));
                chosen.extend(item(ui, t("Find in Tree…"), Action::Find, true));
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
                let focus = egui::Button::selectable(panels.focus, t("Focus Mode"))
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
                    ui.label(t("Theme"));
                    ui.selectable_value(&mut self.prefs.theme, Theme::Dark, t("Dark"));
                    ui.selectable_value(&mut self.prefs.theme, Theme::Light, t("Light"));
                });
                ui.horizontal(|ui| {
                    ui.label(t("Language"));
                    for lang in Lang::ALL {
                        if ui
                            .selectable_label(self.lang == lang, lang.native_name())
                            .clicked()
                        {
                            self.set_language(lang);
                        }
                    }
                });
                ui.menu_button(t("Source Editor"), |ui| {
                    ui.label("Command that opens a node type's source ({file}, {line}):");
                    ui.text_edit_singleline(&mut self.prefs.source_command);
                });
            });
            ui.menu_button(t("Preview"), |ui| {
                chosen.extend(item(
                    ui,
                    t("Toggle Breakpoint"),
                    Action::Breakpoint,
                    !self.selection().nodes.is_empty(),
                ));
                ui.separator();
                if ui.button(t("Attach to Program…")).clicked() {
                    self.attach.open = true;
                    ui.close();
                }
                if ui
                    .add_enabled(
                        self.remote.is_some() || self.groot2.is_some(),
                        egui::Button::new(t("Detach")),
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
                        format!("⚠ {}", i18n::count(errors, t("problem"))),
                    );
                }
                ui.label(i18n::count(
                    self.session().document().node_count(),
                    t("node"),
                ));
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
        match compare {
            Some(true) => self.compare_with_revision("HEAD"),
            Some(false) => self.pick_compare_file(),
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
