//! Arbor's behavior-tree editor.
//!
//! # Brief overview
//! - [`document`]: the tree being edited ([`document::Document`]) and its queries, the
//!   clipboard format, auto-layout, load/save. No UI types.
//! - [`commands`]: every change to a document, each an [`undo::Edit`], gathered in
//!   [`commands::Command`].
//! - [`Session`]: a document, its node types and its undo history ([`History`]); the app
//!   and the canvas talk to this.
//! - [`app`]: the eframe application; [`canvas`] (egui_node_graph2 as a view of the
//!   document), [`panels`] (inspector, blackboard, problems, history, palette) and
//!   [`preview`] (a sample agent running the tree being edited), [`remote`] (attached to
//!   a running program's debug server). Only these use egui;
//!   `document` and `commands` never do.

pub mod app;
pub mod canvas;
pub mod live;
pub mod panels;
pub mod preview;
pub mod remote;
pub mod view;

pub use arbor_editor_model::{
    commands, document, History, PasteError, Session, Step, SubtreeError, HISTORY_LIMIT,
};
