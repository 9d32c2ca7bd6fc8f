//! File handling: New, Open, Save, Save As and recent files, with the question every
//! editor must ask before unsaved changes would be lost (Save / Discard / Cancel).
//!
//! Native dialogs come from `rfd`. On a desktop without a portal service (and no zenity to
//! fall back on) they cannot open, and `rfd` returns `None` as if cancelled; it says why
//! only through the `log` crate, at error level. So the dialog runs under a logger that
//! counts `rfd`'s error records ([`watch`]): a `None` with one is "unavailable", and the
//! user gets an in-app path field instead of nothing; a `None` without one is a cancel,
//! however quickly it came. If another logger was installed first, failures cannot be
//! seen, and every `None` counts as a cancel.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::document::Document;
use crate::Session;

/// What the user asked for that would replace or close the document.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Close the current tab (the window, if it is the last).
    CloseTab,
    Close,
}

/// The file dialogs' state.
#[derive(Debug, Default)]
pub struct Files {
    /// Waiting for Save / Discard / Cancel before doing this.
    pub confirm: Option<Pending>,
    /// The in-app path field (no native dialog): for opening, or for saving as.
    pub path_prompt: Option<PathPrompt>,
    /// A file that failed to open: its problems, shown until dismissed.
    pub error: Option<String>,
    /// The file whose open failed, kept for the error window's Retry (the document shown
    /// meanwhile is unchanged, so Save never writes it anywhere unasked).
    pub failed: Option<PathBuf>,
    /// The user confirmed closing with unsaved changes discarded (or saved).
    pub close_confirmed: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PathPrompt {
    pub purpose: Purpose,
    pub text: String,
    pub why: String,
}

/// What a path is asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Purpose {
    Open,
    SaveAs,
    /// Open a game project: a folder or its `arbor-project.json`.
    OpenProject,
    /// Write the branch under this node to a new subtree file.
    ExportSubtree(String),
    /// Compare the document with another tree file.
    CompareWith,
}

/// Outcome of a native dialog.
pub enum Picked {
    Path(PathBuf),
    Cancelled,
    /// The dialog could not open.
    Unavailable,
}

/// Shows a native open or save dialog.
pub fn pick(saving: bool, start: Option<&Path>) -> Picked {
    let mut dialog = rfd::FileDialog::new()
        .add_filter("Arbor tree", &["json"])
        .add_filter("BehaviorTree.CPP XML", &["xml"])
        .add_filter(
            "Log to replay (BT.CPP .btlog, Arbor trace)",
            &["btlog", "jsonl"],
        );
    if let Some(dir) = start.and_then(Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(name) = start.and_then(Path::file_name) {
        dialog = dialog.set_file_name(name.to_string_lossy());
    }
    let (picked, failed) = watch(|| {
        if saving {
            dialog.save_file()
        } else {
            dialog.pick_file()
        }
    });
    outcome(picked, failed)
}

/// What a dialog's answer means, given whether `rfd` reported a failure meanwhile.
pub fn outcome(picked: Option<PathBuf>, failed: bool) -> Picked {
    match picked {
        Some(path) => Picked::Path(path),
        None if failed => Picked::Unavailable,
        None => Picked::Cancelled,
    }
}

/// Errors `rfd` logged since the process started.
static DIALOG_ERRORS: AtomicU64 = AtomicU64::new(0);

/// The logger that counts `rfd`'s errors and prints them, as a logger would.
struct DialogLog;

impl log::Log for DialogLog {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Error
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        if record.target().starts_with("rfd") {
            DIALOG_ERRORS.fetch_add(1, Ordering::SeqCst);
        }
        eprintln!("{}: {}", record.target(), record.args());
    }

    fn flush(&self) {}
}

/// Runs `f` (a dialog) and says whether `rfd` logged an error meanwhile. The UI thread
/// shows one dialog at a time, so a count taken around it is that dialog's.
pub fn watch<T>(f: impl FnOnce() -> T) -> (T, bool) {
    static INSTALLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let watching = *INSTALLED.get_or_init(|| {
        let ok = log::set_logger(&DialogLog).is_ok();
        if ok {
            log::set_max_level(log::LevelFilter::Error);
        }
        ok
    });
    let before = DIALOG_ERRORS.load(Ordering::SeqCst);
    let out = f();
    (
        out,
        watching && DIALOG_ERRORS.load(Ordering::SeqCst) > before,
    )
}

/// A new, empty session with a Selector root to start from.
pub fn new_session(types: &arbor_runtime::NodeTypes) -> Session {
    start(Session::with_types(
        Document::new("Untitled"),
        types.clone(),
    ))
}

/// `session` (a new, empty document) with a Selector root to start from, unmodified.
pub fn start(mut session: Session) -> Session {
    if let Ok(root) = session.add_node("Selector", [0.0, 0.0]) {
        if let Ok(cmd) = crate::commands::SetRoot::new(session.document(), Some(&root)) {
            let _ = session.apply(cmd);
        }
    }
    session.mark_saved();
    session
}

/// What marks a document with unsaved changes, in the window title and on its tab: a
/// bullet, which egui's own fonts have (a `●` is drawn as an empty box there).
pub const UNSAVED_MARK: &str = "•";

/// The window title: the tab's label and the app's name.
pub fn title(session: &Session) -> String {
    format!("{} — Arbor", tab_label(session))
}

/// A tab's label: the file name (the tree's name before the first save), the unsaved
/// mark, and whether the document is read-only.
pub fn tab_label(session: &Session) -> String {
    let dirty = if session.is_modified() {
        format!(" {UNSAVED_MARK}")
    } else {
        String::new()
    };
    let read_only = if session.read_only_reason().is_some() {
        " (read-only)"
    } else {
        ""
    };
    format!("{}{dirty}{read_only}", file_name(session))
}

/// The document's file name, or its tree's name if it was never saved.
fn file_name(session: &Session) -> String {
    session.path().and_then(Path::file_name).map_or_else(
        || session.document().name().to_owned(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// How the unsaved-changes question names a document: its file and its tree, so two
/// trees of the same name (or one file opened twice) are told apart.
pub fn described(session: &Session) -> String {
    let tree = session.document().name();
    match session.path() {
        Some(path) => format!("“{tree}” in {}", path.display()),
        None => format!("“{tree}” (never saved)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_reported_failure_makes_the_dialog_unavailable() {
        // An instant cancel is a cancel: no clock decides.
        let (picked, failed) = watch(|| None::<PathBuf>);
        assert!(matches!(outcome(picked, failed), Picked::Cancelled));
        let (picked, failed) = watch(|| {
            log::error!(target: "rfd::backend::xdg_desktop_portal", "Failed to pick file: no portal");
            None::<PathBuf>
        });
        assert!(matches!(outcome(picked, failed), Picked::Unavailable));
        let (picked, failed) = watch(|| Some(PathBuf::from("a.json")));
        assert!(matches!(outcome(picked, failed), Picked::Path(p) if p == Path::new("a.json")));
        // Other crates' errors are not the dialog's.
        let (picked, failed) = watch(|| {
            log::error!(target: "eframe", "something else");
            None::<PathBuf>
        });
        assert!(matches!(outcome(picked, failed), Picked::Cancelled));
    }
}
