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
//! - The contracts below the views: [`view`] (what a view gets each frame and may ask of
//!   the app) and [`live`] (how the canvas reads what a running tree did, whoever runs it).
//! - Below them all, the `arbor-viewer` crate: the tree painter (boxes, edges, the status
//!   and category palette) that the canvas draws its zoomed-out view with, and the in-game
//!   tree viewer a game links without the editor.

pub mod app;
pub mod canvas;
pub mod fonts;
pub mod i18n;
pub mod live;
pub mod panels;
pub mod preview;
pub mod remote;
pub mod replay;
pub mod view;

pub use arbor_editor_model::{
    commands, compare, document, words, History, PasteError, Session, Step, SubtreeError,
    HISTORY_LIMIT,
};
