//! File handling: New, Open, Save, Save As and recent files, with the question every
//! editor must ask before unsaved changes would be lost (Save / Discard / Cancel).
//!
//! Native dialogs come from `rfd`. On a desktop without a portal service they cannot open
//! and `rfd` returns at once as if cancelled; a "cancel" faster than a person can click is
//! taken as that failure, and the user gets an in-app path field instead of nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Write the branch under this node to a new subtree file.
    ExportSubtree(String),
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
    let began = Instant::now();
    let picked = if saving {
        dialog.save_file()
    } else {
        dialog.pick_file()
    };
    match picked {
        Some(path) => Picked::Path(path),
        None if began.elapsed() < Duration::from_millis(150) => Picked::Unavailable,
        None => Picked::Cancelled,
    }
}

/// A new, empty session with a Sequence root to start from.
pub fn new_session(types: &arbor_runtime::NodeTypes) -> Session {
    let mut session = Session::with_types(Document::new("Untitled"), types.clone());
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
