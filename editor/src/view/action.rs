//! [`Action`]: something a shortcut, a menu-bar item or a canvas context-menu item does.
//! It lives here, below its users, so the canvas's menus name the very actions the app's
//! menus and shortcuts run (one implementation: `app::actions`), without importing the app.

/// Something a shortcut (or the matching menu item) does.
/// The app routes each to its owner (`ArborApp::act`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    New,
    Open,
    Save,
    SaveAs,
    Undo,
    Redo,
    Delete,
    SelectAll,
    Duplicate,
    FrameSelection,
    FrameAll,
    ResetZoom,
    Find,
    Palette,
    Breakpoint,
    AutoLayout,
    PlayPause,
    Step,
    Group,
    Ungroup,
    AddNote,
    CloseTab,
    InlineSubtree,
    ExportSubtree,
    Cut,
    Copy,
}
