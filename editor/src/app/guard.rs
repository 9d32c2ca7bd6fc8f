//! Guard: a panic inside a frame is caught at the top level instead of closing the
//! window. Every unsaved document is written to the recovery folder at once, and a dialog
//! says what happened and where the copies are; later frames go on as before.
//!
//! [`ArborApp::frame_guarded`] is what `eframe::App::update` calls; [`ArborApp::ui`] stays
//! unguarded so tests see their own panics. A panic hook (installed once, chaining the
//! previous one so the message still reaches stderr) records the message and location for
//! the dialog, per thread.
//!
//! Limitations: this needs `panic = "unwind"` (the default; the workspace does not change
//! it). The state a panicking frame left half-updated is kept as it is: the document is
//! only ever changed by whole commands, so it stays consistent, while view state (a drag
//! in progress) may be off until the next gesture. Panics outside a frame (in eframe's
//! painting) are not caught; autosave bounds what they can lose to a few seconds.

use crate::i18n::t;

use crate::words;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;

use super::ArborApp;

/// What the last caught panic did.
#[derive(Clone, Debug, PartialEq)]
pub struct Crash {
    /// The panic message and where it happened.
    pub message: String,
    /// Panics caught since the dialog was last dismissed.
    pub count: u32,
    /// Recovery copies written after the first of them.
    pub saved: Vec<PathBuf>,
    /// Copies that could not be written, and why.
    pub failed: Vec<String>,
    /// The recovery folder (`None`: autosave is off).
    pub folder: Option<PathBuf>,
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Guard {
    /// The panic being reported, until the user dismisses the dialog.
    crash: Option<Crash>,
    /// The user chose Quit in the dialog: close without asking about unsaved changes, and
    /// keep their recovery copies for the next start.
    quitting: bool,
}

impl Guard {
    /// The panic being reported, until the user dismisses the dialog.
    pub fn crash(&self) -> Option<&Crash> {
        self.crash.as_ref()
    }

    /// Whether the user chose Quit after a panic.
    pub fn quitting(&self) -> bool {
        self.quitting
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Records each panic's message and location for this thread, then runs the previous
/// hook (which prints it).
fn install_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned());
            let message = match info.location() {
                Some(at) => format!("{payload}\n  at {}:{}", at.file(), at.line()),
                None => payload,
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(message));
            previous(info);
        }));
    });
}

impl ArborApp {
    /// One frame, with a panic caught, the documents copied to the recovery folder and the
    /// user told (see the module documentation).
    pub fn frame_guarded(&mut self, ui: &mut egui::Ui) {
        self.frame_guarded_with(ui, |_| {});
    }

    /// As [`ArborApp::frame_guarded`], with `also` run inside the guard after the frame's
    /// own drawing: how tests make a frame panic as a widget's bug would. The hook is a
    /// parameter rather than a field, so the frame loop eframe runs carries no test state.
    #[doc(hidden)]
    pub fn frame_guarded_with(&mut self, ui: &mut egui::Ui, also: impl FnOnce(&mut egui::Ui)) {
        let ctx = &ui.ctx().clone();
        install_hook();
        LAST_PANIC.with(|last| last.borrow_mut().take());
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            self.ui(ui);
            also(ui);
        }));
        if let Err(payload) = result {
            let message = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned());
            self.caught(message);
        }
        self.crash_dialog(ctx);
    }

    fn caught(&mut self, message: String) {
        if let Some(crash) = &mut self.guard.crash {
            // A panic every frame must not mean a write every frame: the copies made after
            // the first one stay, and autosave keeps them current.
            crash.count += 1;
            crash.message = message;
            return;
        }
        let sessions = super::sessions(&self.tabs);
        let (saved, failed) = self.recovery.flush(&sessions);
        self.guard.crash = Some(Crash {
            message,
            count: 1,
            saved,
            failed,
            folder: self.recovery.dir().map(|d| d.to_path_buf()),
        });
    }

    fn crash_dialog(&mut self, ctx: &egui::Context) {
        let Some(crash) = &self.guard.crash else {
            return;
        };
        let mut dismiss = false;
        let mut quit = false;
        egui::Window::new("Arbor hit an internal error")
            .collapsible(false)
            .default_width(560.0)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(
                    "Something inside the editor failed (a bug, not something you did). \
                     It stopped what it was doing instead of closing the window.",
                );
                egui::ScrollArea::vertical()
                    .max_height(160.0)
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(&crash.message).monospace());
                    });
                if crash.count > 1 {
                    ui.label(format!(
                        "It happened {}.",
                        words::count(crash.count as usize, "time")
                    ));
                }
                match (&crash.folder, crash.saved.len()) {
                    (None, _) => {
                        ui.label(t("Autosave is off: save your work now."));
                    }
                    (Some(_), 0) if crash.failed.is_empty() => {
                        ui.label(t("There were no unsaved changes."));
                    }
                    (Some(folder), n) => {
                        ui.label(format!(
                            "{} copied to {}. If Arbor closes, they are \
                             offered when it starts again.",
                            words::count_as(n, "unsaved document was", "unsaved documents were"),
                            folder.display()
                        ));
                    }
                }
                for failure in &crash.failed {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 90, 90),
                        format!("Not copied: {failure}"),
                    );
                }
                ui.label(t("You can keep working; saving soon is a good idea."));
                ui.horizontal(|ui| {
                    if ui.button(t("Continue")).clicked() {
                        dismiss = true;
                    }
                    if ui.button(t("Quit")).clicked() {
                        quit = true;
                    }
                });
            });
        if dismiss {
            self.guard.crash = None;
        }
        if quit {
            // The copies are written: closing now loses nothing, and they are offered on
            // the next start.
            let sessions = super::sessions(&self.tabs);
            self.recovery.flush(&sessions);
            self.guard.quitting = true;
            self.files.close_confirmed = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}
