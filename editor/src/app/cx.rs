//! UiCx: what a panel gets each frame. Panels read the session and change it only through
//! commands (`session.apply`), so every change is undoable and the canvas, preview and
//! problem list all follow through `Session::generation`. What only the app can do (move
//! the camera, open files, ask the user) is requested, not done.

use crate::document::Selection;
use crate::Session;
use arbor_runtime::Report;

use super::gestures::Gestures;
use super::toasts::Toasts;

/// Per-frame context handed to panels.
pub struct UiCx<'a> {
    pub session: &'a mut Session,
    pub selection: &'a mut Selection,
    pub toasts: &'a mut Toasts,
    pub gestures: &'a mut Gestures,
    pub requests: &'a mut Vec<Request>,
    /// The document's validation report, recomputed when the document changes.
    pub report: &'a Report,
}

impl UiCx<'_> {
    /// Applies a command; a refusal is shown as an error toast. Returns whether the
    /// document changed.
    pub fn apply(&mut self, command: impl Into<crate::commands::Command>) -> bool {
        match self.session.apply(command) {
            Ok(changed) => changed,
            Err(e) => {
                self.toasts.error(e.to_string());
                false
            }
        }
    }
}

/// Things a panel asks the app to do after the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Centre the canvas on these nodes (and select them).
    Frame(Vec<String>),
    /// Toggle the preview breakpoint on this node.
    ToggleBreakpoint(String),
    /// Open the file a Subtree node refers to, in a new tab.
    OpenSubtree(String),
}
