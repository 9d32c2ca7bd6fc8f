//! Which panels share the window with the canvas. Each side panel (the node palette, the
//! blackboard and history on the left, the inspector and problems on the right, the
//! preview at the bottom) can be collapsed to a thin strip with a button that brings it
//! back; focus mode hides them all, strips included, so the canvas has the window below
//! the menu bar. The layout is a preference (it persists between runs) and is shared by
//! the tabs.
//!
//! The default gives the canvas most of the window: the palette and the inspector are
//! open, the blackboard and history and the preview are collapsed (the preview opens by
//! itself when it is played).

use crate::i18n::t;

use serde::{Deserialize, Serialize};

/// One of the collapsible panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The node palette docked left of the canvas.
    Palette,
    /// The blackboard and the history.
    Left,
    /// The inspector and the problems.
    Right,
    /// The preview (and the replay and remote views that share its place).
    Bottom,
}

impl Panel {
    pub const ALL: [Panel; 4] = [Panel::Palette, Panel::Left, Panel::Right, Panel::Bottom];

    /// The panel's name in the View menu.
    pub fn title(self) -> &'static str {
        match self {
            Panel::Palette => t("Node Palette"),
            Panel::Left => t("Blackboard and History"),
            Panel::Right => t("Inspector and Problems"),
            Panel::Bottom => t("Preview"),
        }
    }
}

/// See the module documentation. `#[serde(default)]`: preferences written before a field
/// existed read with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Panels {
    pub palette: bool,
    pub left: bool,
    pub right: bool,
    pub bottom: bool,
    /// Focus mode: every panel hidden, whatever the switches above say (they are what
    /// leaving focus mode restores).
    pub focus: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            palette: true,
            left: false,
            right: true,
            bottom: false,
            focus: false,
        }
    }
}

impl Panels {
    /// Every panel open (not focused).
    pub fn all() -> Panels {
        Panels {
            palette: true,
            left: true,
            right: true,
            bottom: true,
            focus: false,
        }
    }

    fn switch(&mut self, panel: Panel) -> &mut bool {
        match panel {
            Panel::Palette => &mut self.palette,
            Panel::Left => &mut self.left,
            Panel::Right => &mut self.right,
            Panel::Bottom => &mut self.bottom,
        }
    }

    /// Whether `panel` is drawn open this frame.
    pub fn shown(&self, panel: Panel) -> bool {
        !self.focus
            && match panel {
                Panel::Palette => self.palette,
                Panel::Left => self.left,
                Panel::Right => self.right,
                Panel::Bottom => self.bottom,
            }
    }

    /// Opens or collapses `panel`. In focus mode it leaves focus mode and opens the panel
    /// (the user asked to see it).
    pub fn toggle(&mut self, panel: Panel) {
        if self.focus {
            self.focus = false;
            *self.switch(panel) = true;
        } else {
            let on = self.switch(panel);
            *on = !*on;
        }
    }

    /// Opens `panel` (leaving focus mode).
    pub fn open(&mut self, panel: Panel) {
        if !self.shown(panel) {
            self.toggle(panel);
        }
    }

    /// Collapses `panel` to its strip.
    pub fn collapse(&mut self, panel: Panel) {
        *self.switch(panel) = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn focus_hides_every_panel_and_leaving_it_restores_the_layout() {
        let mut panels = Panels::all();
        panels.focus = true;
        assert!(Panel::ALL.iter().all(|p| !panels.shown(*p)));
        panels.focus = false;
        assert!(Panel::ALL.iter().all(|p| panels.shown(*p)));
    }

    #[test]
    fn toggling_a_panel_in_focus_mode_leaves_it_and_shows_that_panel() {
        let mut panels = Panels {
            focus: true,
            ..Panels::default()
        };
        panels.toggle(Panel::Bottom);
        assert!(!panels.focus);
        assert!(panels.shown(Panel::Bottom));
        panels.toggle(Panel::Bottom);
        assert!(!panels.shown(Panel::Bottom));
    }

    #[test]
    fn older_preferences_read_with_the_default_layout() {
        let panels: Panels = serde_json::from_str("{\"left\": true}").unwrap();
        assert!(panels.left && panels.palette && panels.right && !panels.bottom);
    }
}
