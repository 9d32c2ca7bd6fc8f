//! The editor's model: what is being edited and every way to change it, with no UI types.
//!
//! # Brief overview
//! - [`document`]: the tree being edited ([`document::Document`]) and its queries, the
//!   clipboard format, auto-layout, load/save.
//! - [`commands`]: every change to a document, each an [`undo::Edit`], gathered in
//!   [`commands::Command`].
//! - [`Session`]: a document, its node types and its undo history ([`History`]); the
//!   editor's views talk to this.
//! - [`project`]: a game's folder, whose node-types manifests a session's document is
//!   edited against, and the placeholder types a designer declares in it.
//! - [`compare`]: the document against another version of its tree (a file, or a git
//!   revision), as the compare view shows it; view state, never a document change.
//!
//! The arrows point one way: `document` ← `commands` ← `session`. This crate depends on no
//! UI crate (its Cargo.toml is the rule); `arbor-editor` builds the view on top of it.

pub mod commands;
pub mod compare;
pub mod document;
pub mod project;
mod session;
pub mod words;

pub use session::{History, PasteError, Session, Step, SubtreeError, HISTORY_LIMIT};
