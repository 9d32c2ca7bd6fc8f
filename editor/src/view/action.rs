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
    /// The node finder, for a child of the selected node (the finder alone when no single
    /// node is selected).
    AddChild,
    /// The node finder, for a sibling right after the selected node.
    AddSibling,
    /// Renames the selected node on the canvas.
    Rename,
    Breakpoint,
    AutoLayout,
    /// The file's tree laid out left to right (children right of their parent).
    LayoutLeftToRight,
    /// The file's tree laid out top down (children below their parent).
    LayoutTopDown,
    /// Turns the file's "keep arranged" on or off.
    KeepArranged,
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
    /// Focus mode: every panel hidden, or the layout before it back.
    FocusMode,
    /// Opens or collapses one panel (see `app::Panel`).
    TogglePalette,
    ToggleLeftPanel,
    ToggleRightPanel,
    TogglePreviewPanel,
}

/// The layout items of the Edit menu and the empty canvas's menu: whether each is on (the
/// file's direction, its "keep arranged"), its label in the interface language, and the
/// action it runs.
pub fn layout_choices(
    settings: crate::document::LayoutSettings,
) -> [(bool, &'static str, Action); 3] {
    use crate::i18n::t;
    use arbor_runtime::format::layout::LayoutDirection;
    let down = settings.direction == LayoutDirection::TopDown;
    [
        (!down, t("Layout Left to Right"), Action::LayoutLeftToRight),
        (down, t("Layout Top Down"), Action::LayoutTopDown),
        (
            settings.keep_arranged,
            t("Keep Arranged"),
            Action::KeepArranged,
        ),
    ]
}
