//! Documents in and out: opening (into a tab), saving, closing with the question every
//! editor must ask before unsaved changes are lost, and those dialogs.

use crate::i18n::t;

use crate::words;
use std::path::{Path, PathBuf};

use super::files::{self, Picked};
use super::recovery;
use super::{ArborApp, Pending, Purpose};
use crate::Session;

impl ArborApp {
    /// Starts an action that would replace or close the document: asks first if there are
    /// unsaved changes.
    pub fn request(&mut self, pending: Pending) {
        if self.session().is_modified() {
            self.files.confirm = Some(pending);
        } else {
            self.proceed(pending);
        }
    }

    fn proceed(&mut self, pending: Pending) {
        match pending {
            // The last tab gets a new blank document.
            Pending::CloseTab => self.discard_tab(self.active),
            Pending::Close => {
                if self.tabs.len() > 1 {
                    self.discard_tab(self.active);
                    self.ask_before_closing();
                } else {
                    self.files.close_confirmed = true;
                }
            }
        }
    }

    /// Opens a file in a new tab (or switches to it if it is open already); on failure
    /// nothing changes and the problems are shown.
    pub fn open(&mut self, path: &Path) {
        if super::replay::is_log(path) {
            self.open_log(path);
            return;
        }
        let target = path.canonicalize().ok();
        let same =
            |p: Option<&Path>| target.is_some() && p.and_then(|p| p.canonicalize().ok()) == target;
        if let Some(i) = self.tabs.iter().position(|t| same(t.session().path())) {
            self.switch_to(i);
            return;
        }
        match Session::open(path) {
            Ok(mut session) => {
                if let Some(project) = self.project_for(path) {
                    session.set_project(Some(project));
                }
                self.prefs.remember(path);
                self.show_in_tab(session);
                self.show_notes("Imported");
                self.files.failed = None;
                self.offer_stale_save(path);
            }
            Err(e) => {
                self.files.error = Some(format!("Could not open {}:\n\n{e}", path.display()));
                self.files.failed = Some(path.to_owned());
            }
        }
    }

    /// Saves to the current file, or asks where. Returns whether it saved.
    pub fn save(&mut self) -> bool {
        if self.session().path().is_none() {
            return self.save_as();
        }
        if self.save_would_overwrite() {
            return false;
        }
        self.secure_before_save();
        match self.session_mut().save() {
            Ok(()) => {
                self.saved_message();
                true
            }
            Err(e) => {
                self.shared.toasts.error(recovery::not_saved_message(&e));
                false
            }
        }
    }

    pub fn save_as(&mut self) -> bool {
        match self.pick(true) {
            Picked::Path(path) => self.save_to(&path),
            Picked::Cancelled => false,
            Picked::Unavailable => {
                self.prompt_path(Purpose::SaveAs);
                false
            }
        }
    }

    pub fn save_to(&mut self, path: &Path) -> bool {
        self.secure_before_save();
        match self.session_mut().save_as(path) {
            Ok(()) => {
                self.prefs.remember(path);
                self.saved_message();
                true
            }
            Err(e) => {
                self.shared.toasts.error(recovery::not_saved_message(&e));
                false
            }
        }
    }

    /// What an XML open or save approximated, as one toast (`what` says which).
    pub fn show_notes(&mut self, what: &str) {
        let notes = self.session().notes();
        if notes.is_empty() {
            return;
        }
        let mut text = format!("{what} with {}:", words::count(notes.len(), "note"));
        for note in notes.iter().take(6) {
            text.push_str("\n• ");
            text.push_str(note);
        }
        if notes.len() > 6 {
            text.push_str(&format!("\n… and {} more", notes.len() - 6));
        }
        self.shared.toasts.info(text);
    }

    pub(super) fn saved_message(&mut self) {
        // Whether the file written has errors: the report of what was written, not of an
        // earlier state still being checked in the background.
        self.tab_mut().settle_report();
        let problems = self.tab().error_count();
        let path = self
            .session()
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if problems > 0 {
            self.shared.toasts.info(format!(
                "Saved {path} — work in progress: {} to fix before it can run",
                words::count(problems, "problem")
            ));
        } else {
            self.shared.toasts.info(format!("Saved {path}"));
        }
        self.show_notes("Saved as BehaviorTree.CPP XML");
    }

    pub(super) fn pick(&mut self, saving: bool) -> Picked {
        if !self.native_dialogs {
            return Picked::Unavailable;
        }
        // A document never saved starts in its project's trees folder.
        let start = self.session().path().map(Path::to_path_buf).or_else(|| {
            let name = format!("{}.json", self.session().document().name());
            self.session().folder().map(|f| f.join(name))
        });
        files::pick(saving, start.as_deref())
    }

    pub(super) fn prompt_path(&mut self, purpose: Purpose) {
        let folder = self.session().path().and_then(Path::parent);
        let text = match &purpose {
            Purpose::ExportSubtree(_) => {
                folder.map(|d| d.join("subtree.json").display().to_string())
            }
            _ => self.session().path().map(|p| p.display().to_string()),
        };
        self.files.path_prompt = Some(files::PathPrompt {
            purpose,
            text: text.unwrap_or_default(),
            why: "The system file dialog is not available on this desktop (no file-chooser portal service). Type a path instead:".to_owned(),
        });
    }

    pub(super) fn export_subtree(&mut self, guid: &str, path: &Path) {
        match self.session_mut().export_subtree(guid, path) {
            Ok(()) => self.shared.toasts.info(format!(
                "Wrote {} and replaced the branch by a Subtree node. Undo restores the branch; the file stays on disk.",
                path.display()
            )),
            Err(e) => self.shared.toasts.error(format!("Not exported: {e}")),
        }
    }

    pub(super) fn open_subtree(&mut self, guid: &str) {
        let Some(node) = self.session().document().node(guid) else {
            return;
        };
        let Some(rel) = node.params.get("path").and_then(|v| v.as_str()) else {
            self.shared
                .toasts
                .error("This Subtree node has no path yet");
            return;
        };
        let base = self
            .session()
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path: PathBuf = base.join(rel);
        self.open(&path);
    }

    /// Closing the window with unsaved changes asks first, document by document.
    pub(super) fn close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && !self.files.close_confirmed
            && self.any_modified()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.ask_before_closing();
        }
        if self.files.close_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn any_modified(&self) -> bool {
        self.tabs.iter().any(|t| t.session().is_modified())
    }

    /// Shows the next document with unsaved changes and asks about it; closes the window
    /// when none is left.
    fn ask_before_closing(&mut self) {
        if self.session().is_modified() {
            self.files.confirm = Some(Pending::Close);
        } else if let Some(i) = self.tabs.iter().position(|t| t.session().is_modified()) {
            self.switch_to(i);
            self.files.confirm = Some(Pending::Close);
        } else {
            self.files.close_confirmed = true;
        }
    }

    pub(super) fn update_title(&mut self, ctx: &egui::Context) {
        let title = files::title(self.session());
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    pub(super) fn dialogs(&mut self, ctx: &egui::Context) {
        if let Some(pending) = self.files.confirm.clone() {
            let mut choice = None;
            egui::Window::new("Unsaved changes")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.label(format!(
                        "Save the changes to {} first?",
                        files::described(self.session())
                    ));
                    ui.horizontal(|ui| {
                        if ui.button(t("Save")).clicked() {
                            choice = Some(0);
                        }
                        if ui.button(t("Discard")).clicked() {
                            choice = Some(1);
                        }
                        if ui.button(t("Cancel")).clicked() {
                            choice = Some(2);
                        }
                    });
                });
            match choice {
                Some(0) => {
                    self.files.confirm = None;
                    if self.save() {
                        self.proceed(pending);
                    }
                }
                Some(1) => {
                    self.files.confirm = None;
                    self.proceed(pending);
                }
                Some(_) => self.files.confirm = None,
                None => {}
            }
        }
        if let Some(mut prompt) = self.files.path_prompt.take() {
            let mut done = None;
            let title = match prompt.purpose {
                Purpose::Open => "Open",
                Purpose::SaveAs => "Save as",
                Purpose::OpenProject => "Open project",
                Purpose::ExportSubtree(_) => "Export as subtree",
                Purpose::CompareWith => "Compare with",
            };
            egui::Window::new(title)
                .collapsible(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.label(&prompt.why);
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut prompt.text)
                            .desired_width(420.0)
                            .hint_text("/path/to/tree.json"),
                    );
                    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    ui.horizontal(|ui| {
                        if ui.button(title).clicked() || enter {
                            done = Some(true);
                        }
                        if ui.button(t("Cancel")).clicked() {
                            done = Some(false);
                        }
                    });
                });
            match done {
                Some(true) => {
                    let path = PathBuf::from(prompt.text.trim());
                    match prompt.purpose.clone() {
                        Purpose::SaveAs => {
                            if !self.save_to(&path) {
                                self.files.path_prompt = Some(prompt);
                            }
                        }
                        Purpose::Open => self.open(&path),
                        Purpose::OpenProject => self.open_project(&path),
                        Purpose::ExportSubtree(guid) => self.export_subtree(&guid, &path),
                        Purpose::CompareWith => self.compare_with_file(&path),
                    }
                }
                Some(false) => {}
                None => self.files.path_prompt = Some(prompt),
            }
        }
        if let Some(error) = self.files.error.clone() {
            let mut open = true;
            let mut retry = None;
            egui::Window::new("Could not open the file")
                .open(&mut open)
                .collapsible(false)
                .default_width(640.0)
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(380.0)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new(&error).monospace());
                        });
                    ui.label(t("The document you were editing is unchanged."));
                    if let Some(path) = self.files.failed.clone() {
                        if ui
                            .button(format!("Retry opening {}", path.display()))
                            .clicked()
                        {
                            retry = Some(path);
                        }
                    }
                });
            if !open {
                self.files.error = None;
                self.files.failed = None;
            }
            if let Some(path) = retry {
                self.files.error = None;
                self.open(&path);
            }
        }
    }
}
