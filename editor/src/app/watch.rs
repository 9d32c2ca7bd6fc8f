//! Watch: notices when another program changes the active document's file, and asks
//! before a save would overwrite such a change.
//!
//! Every [`CHECK_EVERY`] seconds while the window has focus (and at the first frame after
//! it regains focus) the file's time and length are compared with the session's
//! [`DiskStamp`]; only if they differ is the file read and hashed, so a `touch` is not a
//! change. A real change asks: Reload (after a second confirmation if there are unsaved
//! changes) or Keep mine (the document counts as modified, and the next save overwrites
//! the file without asking again). A deleted file is reported once; Save recreates it.
//!
//! Each tab keeps its own question ([`Tab::conflict`](super::Tab::conflict)), so a question
//! about one file is never shown over another; background tabs are checked when they
//! become active.

use crate::i18n::t;

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::ArborApp;
use crate::document::{DiskChange, DiskStamp, Selection};

/// Seconds between two checks of the active file.
pub const CHECK_EVERY: f64 = 1.0;

/// A question about the file on disk, waiting for the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Conflict {
    /// Another program changed the file. `confirm_reload`: the user chose Reload while
    /// having unsaved changes, and is asked to confirm discarding them.
    Changed {
        path: PathBuf,
        disk: DiskStamp,
        confirm_reload: bool,
    },
    /// The file was deleted or can no longer be read.
    Missing { path: PathBuf },
    /// Save was asked for, but the file changed since it was read or written.
    Overwrite { path: PathBuf },
}

impl Conflict {
    pub fn path(&self) -> &Path {
        match self {
            Conflict::Changed { path, .. }
            | Conflict::Missing { path }
            | Conflict::Overwrite { path } => path,
        }
    }
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Watch {
    next_check: f64,
    was_focused: bool,
}

impl ArborApp {
    /// The active tab's question about its file.
    fn conflict_slot(&mut self) -> &mut Option<Conflict> {
        self.tab_mut().conflict_slot()
    }

    /// Per frame: checks the active file when a check is due.
    pub(super) fn watch_disk(&mut self, ctx: &egui::Context) {
        let (now, focused) = ctx.input(|i| (i.time, i.focused));
        // A question about a file the document no longer has (saved elsewhere since) is
        // dropped.
        if self
            .conflict()
            .is_some_and(|c| self.session().path() != Some(c.path()))
        {
            *self.conflict_slot() = None;
        }
        let regained = focused && !self.watch.was_focused;
        self.watch.was_focused = focused;
        if focused {
            ctx.request_repaint_after(Duration::from_secs_f64(CHECK_EVERY));
        }
        if now < self.watch.next_check && !regained {
            return;
        }
        self.watch.next_check = now + CHECK_EVERY;
        self.check_disk();
    }

    /// Compares the active file with what the session last read or wrote, and asks the
    /// user if another program changed it.
    pub fn check_disk(&mut self) {
        if self.conflict().is_some() {
            return;
        }
        let (Some(path), Some(stamp)) = (self.session().path(), self.session().disk_stamp()) else {
            return;
        };
        let path = path.to_path_buf();
        match stamp.compare(&path) {
            DiskChange::Unchanged => {}
            DiskChange::Touched(disk) => self.session_mut().note_touched(disk),
            DiskChange::Changed(disk) => {
                *self.conflict_slot() = Some(Conflict::Changed {
                    path,
                    disk,
                    confirm_reload: false,
                });
            }
            DiskChange::Missing => *self.conflict_slot() = Some(Conflict::Missing { path }),
        }
    }

    /// Called before saving to the session's own file: true (and the question asked)
    /// when the file was changed by another program since it was read or written.
    pub(super) fn save_would_overwrite(&mut self) -> bool {
        let (Some(path), Some(stamp)) = (self.session().path(), self.session().disk_stamp()) else {
            return false;
        };
        if let DiskChange::Changed(_) = stamp.compare(path) {
            *self.conflict_slot() = Some(Conflict::Overwrite {
                path: path.to_path_buf(),
            });
            return true;
        }
        false
    }

    /// Replaces the active document by the file on disk (its history starts afresh).
    pub fn reload_from_disk(&mut self) {
        *self.conflict_slot() = None;
        let Some(path) = self.session().path().map(Path::to_path_buf) else {
            return;
        };
        match self.session_mut().open_file(&path) {
            Ok(()) => {
                self.set_selection(Selection::default());
                self.shared
                    .toasts
                    .info(format!("Reloaded {} from disk", path.display()));
            }
            Err(e) => {
                // The document stays; don't ask again about this same version of the file.
                self.session_mut()
                    .keep_over_disk(DiskStamp::read(&path).ok());
                self.files.error = Some(format!(
                    "Could not reload {}:\n\n{e}\n\nYour version is kept, unsaved.",
                    path.display()
                ));
            }
        }
    }

    /// Keeps the document in memory over the changed (or deleted) file.
    pub fn keep_mine(&mut self) {
        let disk = match self.conflict_slot().take() {
            Some(Conflict::Changed { disk, .. }) => Some(disk),
            Some(Conflict::Overwrite { path }) => DiskStamp::read(&path).ok(),
            Some(Conflict::Missing { .. }) | None => None,
        };
        self.session_mut().keep_over_disk(disk);
    }

    /// Saves over a file another program changed, as the user confirmed.
    pub fn overwrite(&mut self) {
        *self.conflict_slot() = None;
        match self.session_mut().save() {
            Ok(()) => self.saved_message(),
            Err(e) => self
                .shared
                .toasts
                .error(super::recovery::not_saved_message(&e)),
        }
    }

    /// The question about the file on disk, if one is waiting.
    pub(super) fn disk_dialog(&mut self, ctx: &egui::Context) {
        let Some(conflict) = self.conflict().cloned() else {
            return;
        };
        let name = conflict.path().file_name().map_or_else(
            || conflict.path().display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let modified = self.session().is_modified();
        let mut choice: Option<Choice> = None;
        let title = match conflict {
            Conflict::Changed { .. } => "The file changed on disk",
            Conflict::Missing { .. } => "The file is gone",
            Conflict::Overwrite { .. } => "Overwrite changes made on disk?",
        };
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| match &conflict {
                Conflict::Changed {
                    confirm_reload: false,
                    ..
                } => {
                    ui.label(format!(
                        "“{name}” was changed by another program.\n{}",
                        conflict.path().display()
                    ));
                    if modified {
                        ui.label(t("You also have unsaved changes to it here."));
                    }
                    ui.horizontal(|ui| {
                        if ui.button(t("Reload")).clicked() {
                            choice = Some(Choice::Reload);
                        }
                        if ui.button(t("Keep mine")).clicked() {
                            choice = Some(Choice::Keep);
                        }
                    });
                }
                Conflict::Changed { .. } => {
                    ui.label(format!(
                        "Discard your unsaved changes to “{name}” and load the version on disk?"
                    ));
                    ui.horizontal(|ui| {
                        if ui.button(t("Discard and reload")).clicked() {
                            choice = Some(Choice::ConfirmReload);
                        }
                        if ui.button(t("Cancel")).clicked() {
                            choice = Some(Choice::Back);
                        }
                    });
                }
                Conflict::Missing { .. } => {
                    ui.label(format!(
                        "“{name}” was deleted or moved by another program.\nYour document is still open here; Save writes it again."
                    ));
                    if ui.button(t("OK")).clicked() {
                        choice = Some(Choice::Keep);
                    }
                }
                Conflict::Overwrite { .. } => {
                    ui.label(format!(
                        "“{name}” was changed by another program since you opened it. Saving replaces those changes with yours."
                    ));
                    ui.horizontal(|ui| {
                        if ui.button(t("Overwrite")).clicked() {
                            choice = Some(Choice::Overwrite);
                        }
                        if ui.button(t("Cancel")).clicked() {
                            choice = Some(Choice::Cancel);
                        }
                    });
                }
            });
        match choice {
            Some(Choice::Reload) => self.choose_reload(),
            Some(Choice::ConfirmReload) => self.reload_from_disk(),
            Some(Choice::Back) => {
                if let Some(Conflict::Changed { confirm_reload, .. }) = self.conflict_slot() {
                    *confirm_reload = false;
                }
            }
            Some(Choice::Keep) => self.keep_mine(),
            Some(Choice::Overwrite) => self.overwrite(),
            Some(Choice::Cancel) => *self.conflict_slot() = None,
            None => {}
        }
    }

    /// Reload: at once if nothing would be lost, else after a confirmation.
    pub fn choose_reload(&mut self) {
        if self.session().is_modified() {
            if let Some(Conflict::Changed { confirm_reload, .. }) = self.conflict_slot() {
                *confirm_reload = true;
                return;
            }
        }
        self.reload_from_disk();
    }
}

enum Choice {
    Reload,
    ConfirmReload,
    Back,
    Keep,
    Overwrite,
    Cancel,
}
