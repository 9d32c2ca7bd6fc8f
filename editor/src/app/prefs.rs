//! Preferences that persist between runs (eframe's storage): theme, recent files, last
//! zoom, the command that opens a node type's source, which panels are open, the interface language. The window size is persisted by eframe itself (`persist_window`).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::layout::Panels;
use crate::i18n::Lang;

pub const STORAGE_KEY: &str = "arbor-prefs";
const MAX_RECENT: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

/// `#[serde(default)]`: fields added later get their defaults when reading older prefs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub theme: Theme,
    pub recent: Vec<PathBuf>,
    pub zoom: f32,
    /// Opens a source file at a line, for a node's "Open Source": `{file}` and `{line}`
    /// are replaced (see `source.rs`).
    pub source_command: String,
    /// Which panels share the window with the canvas.
    pub panels: Panels,
    /// Game project folders, newest first (File ▸ Open Recent Project).
    pub recent_projects: Vec<PathBuf>,
    /// The interface language; `None` follows the system's locale.
    pub language: Option<Lang>,
}

/// VS Code's "go to file:line"; set another in View ▸ Source Editor.
pub const DEFAULT_SOURCE_COMMAND: &str = "code -g {file}:{line}";

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            theme: Theme::Dark,
            recent: Vec::new(),
            zoom: 1.0,
            source_command: DEFAULT_SOURCE_COMMAND.to_owned(),
            panels: Panels::default(),
            recent_projects: Vec::new(),
            language: None,
        }
    }
}

impl Prefs {
    /// Moves `path` to the front of the recent files.
    pub fn remember(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }

    /// Moves the project folder `root` to the front of the recent projects.
    pub fn remember_project(&mut self, root: &Path) {
        let root = root.to_path_buf();
        self.recent_projects.retain(|p| *p != root);
        self.recent_projects.insert(0, root);
        self.recent_projects.truncate(MAX_RECENT);
    }

    pub fn apply_theme(&self, ctx: &egui::Context) {
        ctx.set_visuals(match self.theme {
            Theme::Dark => egui::Visuals::dark(),
            Theme::Light => egui::Visuals::light(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_unique_newest_first_and_bounded() {
        let mut prefs = Prefs::default();
        for i in 0..12 {
            prefs.remember(Path::new(&format!("/nowhere/{i}.json")));
        }
        prefs.remember(Path::new("/nowhere/5.json"));
        assert_eq!(prefs.recent.len(), MAX_RECENT);
        assert_eq!(prefs.recent[0], PathBuf::from("/nowhere/5.json"));
        assert_eq!(
            prefs
                .recent
                .iter()
                .filter(|p| p.ends_with("5.json"))
                .count(),
            1
        );
    }

    #[test]
    fn old_prefs_without_new_fields_still_read() {
        let prefs: Prefs = serde_json::from_str(r#"{"theme": "Light"}"#).unwrap();
        assert_eq!(prefs.theme, Theme::Light);
        assert_eq!(prefs.zoom, 1.0);
        assert_eq!(prefs.source_command, DEFAULT_SOURCE_COMMAND);
        assert_eq!(prefs.language, None);
    }
}
