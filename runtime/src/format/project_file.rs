//! ProjectFile: `arbor-project.json`, what makes a folder a game project for the editor and
//! the `arbor` tool. It names the game's node-types manifests and the folder its trees live
//! in, both relative to the project file's folder (docs/format.md, "Project files"; schema
//! docs/arbor-project.schema.json).
//!
//! A folder without the file is a project too, with the defaults: every `*.json` of its
//! `manifests/` folder, trees in `trees/` ([`ProjectFile::default`]). Listing that folder is
//! the opener's job; this type only says what the file holds.

use serde::{Deserialize, Serialize};

/// The file name a project folder holds.
pub const PROJECT_FILE_NAME: &str = "arbor-project.json";

/// The value of a project file's `format` field.
pub const PROJECT_FORMAT: &str = "arbor-project";

/// The manifests folder of a project without a project file (and of one whose file lists
/// no manifests).
pub const DEFAULT_MANIFESTS_DIR: &str = "manifests";

/// The trees folder of a project that names none.
pub const DEFAULT_TREES_DIR: &str = "trees";

/// See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectFile {
    /// Always [`PROJECT_FORMAT`].
    pub format: String,
    /// `1`.
    pub version: u64,
    /// The game's name, for the editor's title and menus; the folder's name when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Node-types manifests, relative to the project file's folder, in merge order (a later
    /// manifest's type replaces an earlier one of the same name). Empty: every `*.json` of
    /// [`DEFAULT_MANIFESTS_DIR`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub manifests: Vec<String>,
    /// The folder new trees are saved in, relative to the project file's folder.
    #[serde(default = "default_trees")]
    pub trees: String,
    /// The manifest that types declared in the editor (placeholders) are added to; the
    /// first manifest when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholders: Option<String>,
}

fn default_trees() -> String {
    DEFAULT_TREES_DIR.to_owned()
}

impl Default for ProjectFile {
    fn default() -> Self {
        ProjectFile {
            format: PROJECT_FORMAT.to_owned(),
            version: 1,
            name: String::new(),
            manifests: Vec::new(),
            trees: default_trees(),
            placeholders: None,
        }
    }
}

impl ProjectFile {
    /// Reads a project file's text. The error names the line and column, and what is
    /// wrong (`3:5: unknown field "manifest", expected one of …`).
    pub fn parse(text: &str) -> Result<ProjectFile, String> {
        let file: ProjectFile =
            serde_json::from_str(text).map_err(|e| format!("{}:{}: {e}", e.line(), e.column()))?;
        if file.format != PROJECT_FORMAT {
            return Err(format!(
                "`format` is \"{}\", expected \"{PROJECT_FORMAT}\"",
                file.format
            ));
        }
        if file.version != 1 {
            return Err(format!(
                "project version {} is not supported (this build reads version 1)",
                file.version
            ));
        }
        Ok(file)
    }

    /// The file's text, pretty-printed.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a project file always serializes") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_fields_and_defaults_the_rest() {
        let file = ProjectFile::parse(
            r#"{"format": "arbor-project", "version": 1, "manifests": ["game.json"]}"#,
        )
        .unwrap();
        assert_eq!(file.manifests, ["game.json"]);
        assert_eq!(file.trees, "trees");
        assert_eq!(ProjectFile::parse(&file.to_json_pretty()).unwrap(), file);
    }

    #[test]
    fn bad_files_say_where_and_why() {
        let e = ProjectFile::parse(
            "{\"format\": \"arbor-project\",\n \"version\": 1,\n \"manifest\": []}",
        )
        .unwrap_err();
        assert!(e.starts_with("3:"), "{e}");
        assert!(e.contains("unknown field `manifest`"), "{e}");
        let e = ProjectFile::parse(r#"{"format": "arbor-tree", "version": 1}"#).unwrap_err();
        assert!(e.contains("expected \"arbor-project\""), "{e}");
        let e = ProjectFile::parse(r#"{"format": "arbor-project", "version": 2}"#).unwrap_err();
        assert!(e.contains("version 2 is not supported"), "{e}");
    }
}
