//! Declaration: a new action or condition a designer declares from the editor, before the
//! game implements it. It is checked against the project's types, then written into the
//! project's placeholder manifest as a host type marked `"placeholder": true`, atomically,
//! keeping everything else the manifest declares (rewritten in the canonical form
//! `Registry::manifest` writes: types by name). The palette offers it at once, the preview
//! runs it as a stand-in, and `arbor stub TYPE` prints its Rust skeleton.
//!
//! The manifest is a file of the project, not part of a document, so a declaration is not
//! an undo step; nodes placed from it are.

use std::path::Path;

use arbor_runtime::{Category, Direction, NodeType, ParamSpec, ValueType};
use serde_json::Value as Json;

use super::Project;
use crate::document::io::read_text;

/// A port as the declaration form holds it: text fields, checked by
/// [`Declaration::node_type`].
#[derive(Clone, Debug, PartialEq)]
pub struct PortDraft {
    pub name: String,
    pub ty: ValueType,
    pub direction: Direction,
    /// A default, written as in a tree file (`1.5`, `[0, 2]`, `true`); text for a
    /// `string`, quoted or not. Empty: the port is required.
    pub default: String,
    pub description: String,
}

impl PortDraft {
    /// An input of type `float` named `name`, with no default.
    pub fn new(name: &str) -> PortDraft {
        PortDraft {
            name: name.to_owned(),
            ty: ValueType::Float,
            direction: Direction::In,
            default: String::new(),
            description: String::new(),
        }
    }
}

/// See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub name: String,
    /// [`Category::Action`] or [`Category::Condition`].
    pub category: Category,
    pub description: String,
    pub ports: Vec<PortDraft>,
}

impl Default for Declaration {
    fn default() -> Self {
        Declaration {
            name: String::new(),
            category: Category::Action,
            description: String::new(),
            ports: Vec::new(),
        }
    }
}

/// Why a declaration was not saved; the manifest is unchanged.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DeclareError {
    #[error("a type needs a name: letters, digits and `_`, starting with a letter")]
    BadName,
    #[error("`{0}` is already a node type")]
    Taken(String),
    #[error("only actions and conditions can be declared here")]
    Category,
    #[error("port {0}: a port needs a name")]
    EmptyPort(usize),
    #[error("port `{0}` is declared twice")]
    DuplicatePort(String),
    #[error("port `{port}`: the default {message}")]
    BadDefault { port: String, message: String },
    #[error("port `{0}`: an output has no default (it is always bound to a key)")]
    OutputDefault(String),
    #[error("{path}: {message}")]
    Manifest { path: String, message: String },
}

impl Declaration {
    /// The declared type, as the manifest will hold it, checked against `types`.
    pub fn node_type(&self, types: &arbor_runtime::NodeTypes) -> Result<NodeType, DeclareError> {
        let name = self.name.trim();
        let well_formed = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !well_formed {
            return Err(DeclareError::BadName);
        }
        if types.node(name).is_some() || types.renamed(name).is_some() {
            return Err(DeclareError::Taken(name.to_owned()));
        }
        let mut ty = match self.category {
            Category::Action => NodeType::action(name, self.description.trim()),
            Category::Condition => NodeType::condition(name, self.description.trim()),
            _ => return Err(DeclareError::Category),
        };
        for (i, draft) in self.ports.iter().enumerate() {
            let port = draft.name.trim();
            if port.is_empty() {
                return Err(DeclareError::EmptyPort(i + 1));
            }
            if ty.param_spec(port).is_some() {
                return Err(DeclareError::DuplicatePort(port.to_owned()));
            }
            let mut spec = ParamSpec::typed(port, draft.ty, draft.description.trim());
            spec.direction = draft.direction;
            let text = draft.default.trim();
            if !text.is_empty() {
                if draft.direction != Direction::In {
                    return Err(DeclareError::OutputDefault(port.to_owned()));
                }
                let json =
                    default_json(draft.ty, text).map_err(|message| DeclareError::BadDefault {
                        port: port.to_owned(),
                        message,
                    })?;
                spec = spec.default(json);
            } else if draft.direction == Direction::Out {
                spec.optional = true;
            }
            ty.params.push(spec);
        }
        ty.placeholder = true;
        Ok(ty)
    }
}

/// A default's text as the JSON a manifest holds, checked against the port's type.
fn default_json(ty: ValueType, text: &str) -> Result<Json, String> {
    let json = match serde_json::from_str::<Json>(text) {
        Ok(json) => json,
        // Text for a string port may be written without quotes.
        Err(_) if ty == ValueType::String => Json::String(text.to_owned()),
        Err(e) => return Err(format!("`{text}` is not a value: {e}")),
    };
    ty.coerce(&json)
        .map(|v| v.to_json())
        .map_err(|e| format!("`{text}`: {e}"))
}

impl Project {
    /// Checks `declaration` and adds it to the placeholder manifest (created if missing),
    /// atomically; then re-reads the manifests. Returns the type's name. On an error the
    /// manifest is unchanged.
    pub fn declare(&mut self, declaration: &Declaration) -> Result<String, DeclareError> {
        let ty = declaration.node_type(&self.types)?;
        let rel = self.placeholder_manifest();
        let path = self.root.join(&rel);
        let problem = |message: String| DeclareError::Manifest {
            path: rel.clone(),
            message,
        };
        // The manifest is read as the runtime reads it (what it would refuse is refused
        // here, so a declaration never breaks a working manifest) and written back in the
        // form `Registry::manifest` writes: types by name, every field kept.
        let mut manifest = arbor_runtime::NodeTypes::builtin();
        if path.exists() {
            let text = read_text(&path).map_err(|e| problem(format!("cannot read: {e}")))?;
            manifest.merge_manifest(&text).map_err(&problem)?;
        }
        manifest.insert(ty.clone());
        let text = manifest.manifest_where(|t| t.host);
        write(&path, &text).map_err(|e| problem(format!("cannot write: {e}")))?;
        self.reload();
        Ok(ty.name)
    }
}

/// Writes `text` to `path` atomically, making its folder if needed.
fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    arbor_runtime::files::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::super::tests::game_folder;
    use super::*;
    use serde_json::json;
    use std::fs;

    fn take_cover() -> Declaration {
        Declaration {
            name: "TakeCover".into(),
            category: Category::Action,
            description: "Hides from `threat`.".into(),
            ports: vec![
                PortDraft {
                    ty: ValueType::Entity,
                    ..PortDraft::new("threat")
                },
                PortDraft {
                    ty: ValueType::Vec2,
                    default: "[1, 2]".into(),
                    ..PortDraft::new("near")
                },
                PortDraft {
                    ty: ValueType::Bool,
                    direction: Direction::Out,
                    ..PortDraft::new("hidden")
                },
            ],
        }
    }

    #[test]
    fn a_declaration_is_added_to_the_manifest_as_a_placeholder() {
        let dir = game_folder();
        let mut project = Project::open(dir.path()).unwrap();
        assert_eq!(project.declare(&take_cover()).unwrap(), "TakeCover");
        let ty = project.types().node("TakeCover").expect("offered at once");
        assert!(ty.placeholder && ty.host);
        assert_eq!(ty.params.len(), 3);
        assert_eq!(ty.params[1].default, Some(json!([1.0, 2.0])));
        assert!(ty.params[2].optional);
        let text = fs::read_to_string(dir.path().join("manifests/game.json")).unwrap();
        assert!(text.contains("\"placeholder\": true"), "{text}");
        assert!(
            text.contains("\"stand_in\": \"fallback\""),
            "the rest is kept"
        );
        // And another project reading it sees the same.
        let again = Project::open(dir.path()).unwrap();
        assert_eq!(again.types().node("TakeCover"), Some(ty));
        assert_eq!(
            project.declare(&take_cover()),
            Err(DeclareError::Taken("TakeCover".into()))
        );
    }

    #[test]
    fn bad_declarations_are_refused_and_change_nothing() {
        let dir = game_folder();
        let mut project = Project::open(dir.path()).unwrap();
        let before = fs::read_to_string(dir.path().join("manifests/game.json")).unwrap();
        let with = |f: &dyn Fn(&mut Declaration)| {
            let mut d = take_cover();
            f(&mut d);
            d
        };
        let cases = [
            (
                with(&|d| d.name = "Take cover".into()),
                "a type needs a name",
            ),
            (with(&|d| d.name = "Sequence".into()), "already a node type"),
            (with(&|d| d.name = "Shoot".into()), "already a node type"),
            (
                with(&|d| d.ports[0].name = " ".into()),
                "port 1: a port needs a name",
            ),
            (
                with(&|d| d.ports[1].name = "threat".into()),
                "declared twice",
            ),
            (
                with(&|d| d.ports[1].default = "[1]".into()),
                "port `near`: the default",
            ),
            (
                with(&|d| d.ports[2].default = "true".into()),
                "an output has no default",
            ),
            (
                with(&|d| d.category = Category::Composite),
                "only actions and conditions",
            ),
        ];
        for (declaration, expected) in cases {
            let e = project.declare(&declaration).unwrap_err().to_string();
            assert!(e.contains(expected), "{e} (expected {expected})");
        }
        fs::write(dir.path().join("manifests/game.json"), "{ not json").unwrap();
        project.reload();
        let e = project.declare(&take_cover()).unwrap_err().to_string();
        assert!(e.starts_with("manifests/game.json: "), "{e}");
        let after = fs::read_to_string(dir.path().join("manifests/game.json")).unwrap();
        assert_eq!(after, "{ not json", "a broken manifest is left as it was");
        assert_ne!(before, after);
    }

    #[test]
    fn a_project_without_manifests_gets_a_placeholder_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let mut project = Project::open(dir.path()).unwrap();
        project.declare(&take_cover()).unwrap();
        assert_eq!(project.manifests(), ["manifests/placeholders.json"]);
        assert!(project.types().node("TakeCover").is_some());
        let text = project.new_document("t");
        assert_eq!(text.manifests(), ["../manifests/placeholders.json"]);
    }

    #[test]
    fn strings_may_be_written_without_quotes() {
        assert_eq!(default_json(ValueType::String, "north"), Ok(json!("north")));
        assert_eq!(default_json(ValueType::String, "\"a b\""), Ok(json!("a b")));
        assert_eq!(default_json(ValueType::Entity, "7"), Ok(json!(7)));
        assert!(default_json(ValueType::Int, "x").is_err());
    }
}
