//! Arbor's behavior-tree editor, UI-free foundation.
//!
//! # Brief overview
//! - [`document`]: the tree being edited ([`document::Document`]) and its queries, the
//!   clipboard format, auto-layout, load/save. No UI types.
//! - [`commands`]: every change to a document, each an [`undo::Edit`], gathered in
//!   [`commands::Command`].
//! - [`Session`]: a document, its node types and its undo history ([`History`]); the app
//!   and the canvas talk to this.

pub mod commands;
pub mod document;
mod session;

pub use session::{History, PasteError, Session, Step, SubtreeError};
