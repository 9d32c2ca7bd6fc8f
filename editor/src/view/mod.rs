//! The view contract: what a panel, the canvas or the preview gets each frame ([`UiCx`]),
//! what it may ask of the app ([`Request`]), and the two services every view shares
//! ([`Gestures`], [`Toasts`]), and the colours of a comparison ([`diff_colors`]), which
//! the canvas and the compare panel share.
//!
//! Views read the session and change it only through commands ([`UiCx::apply`]), so every
//! change is undoable and the canvas, preview and problem list all follow through
//! `Session::generation`. What only the app can do (move the camera, open files, ask the
//! user) is requested, not done.
//!
//! This module sits below its users: `canvas`, `panels` and `preview` import it, and the
//! app builds it (`app::Tab`); none of them imports `app` (editor/tests/editor/layers.rs
//! checks that), as egui keeps its `View` trait beside the widgets rather than in the app.

mod action;
pub mod diff_colors;
mod gestures;
mod toasts;

pub use action::Action;
pub use gestures::Gestures;
pub use toasts::Toasts;

use crate::document::Selection;
use crate::Session;
use arbor_runtime::Report;

/// A panel's contents, apart from the window chrome the app puts around it (the egui
/// demo's `View`: `show` stays with the app, `ui` lives here).
pub trait View {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>);
}

/// Per-frame context handed to panels.
pub struct UiCx<'a> {
    pub session: &'a mut Session,
    pub selection: &'a mut Selection,
    pub toasts: &'a mut Toasts,
    pub gestures: &'a mut Gestures,
    pub requests: &'a mut Vec<Request>,
    /// The document's validation report, recomputed when the document changes.
    pub report: &'a Report,
    /// The session generation `report` describes (it trails the session while a large
    /// document is checked in the background): what caches of the report are keyed on.
    pub checked: Option<u64>,
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
    /// Do what a shortcut or menu item does, on the current selection (context menus).
    Act(Action),
    /// Open the source where the host program registered this node type, in the user's
    /// editor.
    OpenSource(String),
}
