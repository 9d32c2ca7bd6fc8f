//! Arbor's behavior-tree editor.
//!
//! # Brief overview
//! - The model lives in the `arbor-editor-model` crate, re-exported here: [`document`] (the
//!   tree being edited and its queries, the clipboard format, auto-layout, load/save),
//!   [`commands`] (every change, each an `undo::Edit`, gathered in
//!   [`commands::Command`]) and [`Session`] (a document, its node types and its undo
//!   history). That crate depends on no UI crate.
//! - [`app`]: the eframe application: [`app::ArborApp`] holds [`app::Tab`]s, each one
//!   document with its own views, and routes input to the active one.
//! - The views: [`canvas`] (egui_node_editor as a view of the document), [`panels`]
//!   (inspector, blackboard, problems, history, palette), [`preview`] (a sample agent
//!   running the tree being edited), [`remote`] (attached to a running program's debug
//!   server). They import neither `app` nor each other.
//! - [`viewer`]: the in-game tree viewer, an egui widget for games, composed of the
//!   canvas's overview drawing and the preview's live statuses (like `app`, it sits above
//!   the views).
//! - The contracts below the views: [`view`] (what a view gets each frame and may ask of
//!   the app) and [`live`] (how the canvas reads what a running tree did, whoever runs it).

pub mod app;
pub mod canvas;
pub mod live;
pub mod panels;
pub mod preview;
pub mod remote;
pub mod replay;
pub mod view;
pub mod viewer;

pub use arbor_editor_model::{
    commands, document, words, History, PasteError, Session, Step, SubtreeError, HISTORY_LIMIT,
};
