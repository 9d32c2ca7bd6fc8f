//! Keyboard shortcuts, as one table (docs/editor.md lists the same). Canvas shortcuts act
//! only when no text field has the keyboard, so typing a name never deletes a node.

use egui::{Key, KeyboardShortcut, Modifiers};

pub use crate::view::Action;

const CMD: Modifiers = Modifiers::COMMAND;
const CMD_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};

/// (shortcut, action, works while typing in a field). Longer chords first: egui matches
/// Ctrl+Z on Ctrl+Shift+Z too.
pub const TABLE: &[(KeyboardShortcut, Action, bool)] = &[
    (
        KeyboardShortcut::new(CMD_SHIFT, Key::S),
        Action::SaveAs,
        true,
    ),
    (
        KeyboardShortcut::new(CMD_SHIFT, Key::Z),
        Action::Redo,
        false,
    ),
    (
        KeyboardShortcut::new(CMD_SHIFT, Key::G),
        Action::Ungroup,
        false,
    ),
    (KeyboardShortcut::new(CMD, Key::G), Action::Group, false),
    (KeyboardShortcut::new(CMD, Key::F), Action::Find, true),
    (
        KeyboardShortcut::new(CMD, Key::Num1),
        Action::TogglePalette,
        true,
    ),
    (
        KeyboardShortcut::new(CMD, Key::Num2),
        Action::ToggleLeftPanel,
        true,
    ),
    (
        KeyboardShortcut::new(CMD, Key::Num3),
        Action::ToggleRightPanel,
        true,
    ),
    (
        KeyboardShortcut::new(CMD, Key::Num4),
        Action::TogglePreviewPanel,
        true,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F11),
        Action::FocusMode,
        true,
    ),
    (KeyboardShortcut::new(CMD, Key::N), Action::New, true),
    (KeyboardShortcut::new(CMD, Key::O), Action::Open, true),
    (KeyboardShortcut::new(CMD, Key::S), Action::Save, true),
    (KeyboardShortcut::new(CMD, Key::W), Action::CloseTab, true),
    (KeyboardShortcut::new(CMD, Key::Z), Action::Undo, false),
    (KeyboardShortcut::new(CMD, Key::Y), Action::Redo, false),
    (KeyboardShortcut::new(CMD, Key::A), Action::SelectAll, false),
    (KeyboardShortcut::new(CMD, Key::D), Action::Duplicate, false),
    (
        KeyboardShortcut::new(CMD, Key::Num0),
        Action::ResetZoom,
        false,
    ),
    (
        KeyboardShortcut::new(CMD, Key::L),
        Action::AutoLayout,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::SHIFT, Key::F),
        Action::FrameAll,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F),
        Action::FrameSelection,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Delete),
        Action::Delete,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Backspace),
        Action::Delete,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Space),
        Action::Palette,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Tab),
        Action::AddChild,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::Enter),
        Action::AddSibling,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F2),
        Action::Rename,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F9),
        Action::Breakpoint,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::N),
        Action::AddNote,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F5),
        Action::PlayPause,
        false,
    ),
    (
        KeyboardShortcut::new(Modifiers::NONE, Key::F10),
        Action::Step,
        false,
    ),
];

/// The shortcut text for a menu item, e.g. "Ctrl+Shift+S".
pub fn label(ctx: &egui::Context, action: Action) -> String {
    TABLE
        .iter()
        .find(|(_, a, _)| *a == action)
        .map(|(s, _, _)| ctx.format_shortcut(s))
        .unwrap_or_default()
}

/// The actions whose shortcuts were pressed this frame (consumed from the input).
pub fn pressed(ctx: &egui::Context) -> Vec<Action> {
    let typing = ctx.egui_wants_keyboard_input();
    let mut actions = Vec::new();
    ctx.input_mut(|i| {
        for (shortcut, action, while_typing) in TABLE {
            if (typing && !while_typing) || !i.consume_shortcut(shortcut) {
                continue;
            }
            actions.push(*action);
        }
    });
    actions
}
