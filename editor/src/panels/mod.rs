//! Side panels: each a struct with `ui(&mut self, ui, cx)` (the egui demo's `View` pattern:
//! window chrome stays with the app, contents here).
//!
//! # Brief overview
//! - [`Inspector`]: the selected node (name, parameters, attached decorators) or the tree.
//! - [`BlackboardPanel`]: the declared keys; renames rewrite references, deleting a used
//!   key asks first.
//! - [`ProblemsPanel`]: the validation report; a click frames the node concerned.
//! - [`HistoryPanel`]: the undo history; a click goes to that step.
//! - [`ComparePanel`]: the parts that differ from the version the document is compared
//!   with, stepped through; [`ConflictsPanel`]: a merged file's conflicts, each resolved
//!   by taking a side.
//! - [`Palette`]: the node finder popup the app opens over the canvas.
//! - [`PaletteDock`]: the same listing docked beside the canvas, its rows dragged onto it.
//! - [`ProjectPanel`]: the game project open in the editor, and manifests that could not
//!   be used; [`DeclareForm`]: the form that declares a placeholder action.
//! - [`widgets`]: the value widgets the inspector and the blackboard share.
//! - [`script_field`]: the code editor of script parameters, checked as you type.
//!
//! Panels read the session every frame and change it only with commands, each tagged with
//! the gesture of the widget it came from, so typing in one field is one undo step.

mod blackboard;
mod compare;
mod conflicts;
mod declare_form;
mod history;
mod inspector;
mod palette;
mod palette_dock;
mod problems;
mod project_panel;
pub mod script_field;
#[cfg(test)]
mod testing;
pub mod widgets;

pub use blackboard::BlackboardPanel;
pub use compare::{CompareAction, ComparePanel};
pub use conflicts::ConflictsPanel;
pub use declare_form::DeclareForm;
pub use history::HistoryPanel;
pub use inspector::Inspector;
pub use palette::Palette;
pub use palette_dock::{dropped_on, DraggedType, PaletteDock};
pub use problems::ProblemsPanel;
pub use project_panel::{ProjectAction, ProjectPanel};

use crate::commands::{Command, CommandError};
use crate::view::UiCx;

/// Applies a command a panel built, through [`UiCx::apply`]; a refusal when building it
/// becomes an error toast as well. Returns whether the document changed.
fn apply<C: Into<Command>>(cx: &mut UiCx<'_>, cmd: Result<C, CommandError>) -> bool {
    match cmd {
        Ok(cmd) => cx.apply(cmd),
        Err(e) => {
            cx.toasts.error(e.to_string());
            false
        }
    }
}
