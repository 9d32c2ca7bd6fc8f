//! The colours of a comparison, shared by the canvas (marks and ghosts) and the compare
//! panel (its list), so a green node and a green row mean the same thing.

use arbor_editor_model::compare::{EntryKind, MarkKind};
use egui::Color32;

/// Only the document has it.
pub const ADDED: Color32 = Color32::from_rgb(90, 200, 110);
/// Both have it, different.
pub const CHANGED: Color32 = Color32::from_rgb(240, 170, 50);
/// Only the other version has it.
pub const REMOVED: Color32 = Color32::from_rgb(225, 95, 95);
/// Only its place differs.
pub const MOVED: Color32 = Color32::from_rgb(110, 170, 240);

/// A list entry's colour.
pub fn entry_color(kind: EntryKind) -> Color32 {
    match kind {
        EntryKind::Added => ADDED,
        EntryKind::Removed => REMOVED,
        EntryKind::Changed => CHANGED,
        EntryKind::Moved => MOVED,
    }
}

/// A node mark's colour.
pub fn mark_color(kind: MarkKind) -> Color32 {
    match kind {
        MarkKind::Added => ADDED,
        MarkKind::Changed => CHANGED,
        MarkKind::Moved => MOVED,
    }
}
