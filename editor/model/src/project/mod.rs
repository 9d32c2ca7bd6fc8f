//! Project: a game's folder opened in the editor. Its node-types manifests (what the game's
//! programmers declared, or `arbor manifest` wrote from the game's registry) fill the
//! palette; trees created in it name those manifests, so they open with the game's types
//! anywhere; types a designer declares are written into one of its manifests as
//! placeholders ([`Declaration`]).
//!
//! A project is a folder with an `arbor-project.json` ([`ProjectFile`]: its name, its
//! manifests, its trees folder) or, without the file, a folder whose `manifests/*.json` are
//! its manifests and whose `trees/` holds its trees (docs/format.md, "Project files").
//!
//! Invariants:
//! - [`Project::types`] is always usable: a manifest that cannot be read or does not parse
//!   is a located problem ([`Project::problems`]) and the other manifests still count.
//! - Every file is read through the bounded reader; listings are capped
//!   ([`MAX_LISTED`]).
//!
//! Limitations: a tree opened from the project names its own manifests; the project's are
//! offered besides them, but a tree that uses a type from a manifest it does not name loads
//! elsewhere only once it names it (new trees name all of the project's).

mod declaration;

use std::path::{Path, PathBuf};

use arbor_runtime::format::{ProjectFile, DEFAULT_MANIFESTS_DIR, PROJECT_FILE_NAME};
use arbor_runtime::NodeTypes;

use crate::document::io::{merge_manifest_file, read_text, ManifestError};
use crate::document::Document;

pub use arbor_runtime::files::{absolute, relative_path};
pub use declaration::{Declaration, DeclareError, PortDraft};

/// The most files a project folder listing returns (manifests, trees); the rest are left
/// out, with a problem saying so.
pub const MAX_LISTED: usize = 500;

/// Why a project could not be opened at all. (A broken manifest does not stop it: see
/// [`Project::problems`].)
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("{}: not a project folder or project file", .0.display())]
    NotFound(PathBuf),
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}:{message}", .path.display())]
    Invalid { path: PathBuf, message: String },
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct Project {
    /// The project's folder, absolute.
    root: PathBuf,
    file: ProjectFile,
    /// Whether `root` holds a project file (else `file` is the defaults).
    has_file: bool,
    /// The manifests, relative to `root`, in merge order.
    manifests: Vec<String>,
    types: NodeTypes,
    problems: Vec<ManifestError>,
}

impl Project {
    /// Opens the project at `path`: a folder, or its `arbor-project.json`.
    pub fn open(path: &Path) -> Result<Project, ProjectError> {
        let path = absolute(path);
        let (root, file_path) = if path.is_dir() {
            let file = path.join(PROJECT_FILE_NAME);
            let exists = file.is_file();
            (path, exists.then_some(file))
        } else if path.is_file() {
            let root = path
                .parent()
                .map(Path::to_path_buf)
                .ok_or_else(|| ProjectError::NotFound(path.clone()))?;
            (root, Some(path))
        } else {
            return Err(ProjectError::NotFound(path));
        };
        let file = match &file_path {
            Some(p) => {
                let text = read_text(p).map_err(|source| ProjectError::Read {
                    path: p.clone(),
                    source,
                })?;
                ProjectFile::parse(&text).map_err(|message| ProjectError::Invalid {
                    path: p.clone(),
                    message,
                })?
            }
            None => ProjectFile::default(),
        };
        let mut project = Project {
            root,
            file,
            has_file: file_path.is_some(),
            manifests: Vec::new(),
            types: NodeTypes::builtin(),
            problems: Vec::new(),
        };
        project.reload();
        Ok(project)
    }

    /// Re-reads the manifests (after a declaration, or a change on disk).
    pub fn reload(&mut self) {
        let mut problems = Vec::new();
        self.manifests = if self.file.manifests.is_empty() {
            let (found, left_out) = json_files(&self.root.join(DEFAULT_MANIFESTS_DIR));
            if left_out {
                problems.push(ManifestError {
                    path: DEFAULT_MANIFESTS_DIR.to_owned(),
                    message: format!("more than {MAX_LISTED} files; the rest are left out"),
                });
            }
            found.iter().map(|p| relative_path(&self.root, p)).collect()
        } else {
            self.file.manifests.clone()
        };
        let mut types = NodeTypes::builtin();
        for rel in &self.manifests {
            problems.extend(merge_manifest_file(&mut types, &self.root.join(rel), rel).err());
        }
        self.types = types;
        self.problems = problems;
    }

    /// The game's name: the project file's, else the folder's.
    pub fn name(&self) -> String {
        if !self.file.name.trim().is_empty() {
            return self.file.name.clone();
        }
        self.root.file_name().map_or_else(
            || "project".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// The project's folder (absolute).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether the folder holds a project file.
    pub fn has_file(&self) -> bool {
        self.has_file
    }

    /// The folder new trees are saved in.
    pub fn trees_dir(&self) -> PathBuf {
        absolute(&self.root.join(&self.file.trees))
    }

    /// The manifests, relative to the project's folder, in merge order.
    pub fn manifests(&self) -> &[String] {
        &self.manifests
    }

    /// The built-in types and every host type of the project's manifests.
    pub fn types(&self) -> &NodeTypes {
        &self.types
    }

    /// Manifests that could not be used, each with where and why.
    pub fn problems(&self) -> &[ManifestError] {
        &self.problems
    }

    /// Whether `path` lies inside the project's folder.
    pub fn contains(&self, path: &Path) -> bool {
        absolute(path).starts_with(&self.root)
    }

    /// The tree files of the trees folder, by name.
    pub fn trees(&self) -> Vec<PathBuf> {
        json_files(&self.trees_dir()).0
    }

    /// The manifest placeholders are written to (relative to the folder): the project
    /// file's `placeholders`, else its first manifest, else `manifests/placeholders.json`.
    pub fn placeholder_manifest(&self) -> String {
        self.file
            .placeholders
            .clone()
            .or_else(|| self.manifests.first().cloned())
            .unwrap_or_else(|| format!("{DEFAULT_MANIFESTS_DIR}/placeholders.json"))
    }

    /// A new, empty document of the project: it names every project manifest, relative to
    /// the trees folder (where it will be saved).
    pub fn new_document(&self, name: &str) -> Document {
        let mut doc = Document::new(name);
        doc.editor.manifests = self.manifests_from(&self.trees_dir());
        doc
    }

    /// The project's manifests as seen from `folder`.
    pub fn manifests_from(&self, folder: &Path) -> Vec<String> {
        self.manifests
            .iter()
            .map(|m| relative_path(folder, &self.root.join(m)))
            .collect()
    }
}

/// The `*.json` files directly in `dir`, sorted by name, at most [`MAX_LISTED`]; and
/// whether some were left out. A folder that cannot be read has none.
fn json_files(dir: &Path) -> (Vec<PathBuf>, bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (Vec::new(), false);
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .take(MAX_LISTED + 1)
        .collect();
    let left_out = found.len() > MAX_LISTED;
    found.truncate(MAX_LISTED);
    found.sort();
    (found, left_out)
}

/// A game's folder for tests: `manifests/game.json` declares the action `Shoot` and the
/// composite `Priority` (a Fallback stand-in); `trees/` is empty.
#[cfg(any(test, feature = "fixtures"))]
pub fn write_game_folder(dir: &Path) -> std::io::Result<()> {
    const GAME: &str = r#"{"format": "arbor-node-types", "version": 1, "nodes": [
        {"name": "Shoot", "category": "Action", "description": "Fires."},
        {"name": "Priority", "category": "Composite", "stand_in": "fallback"}
    ]}"#;
    std::fs::create_dir_all(dir.join("manifests"))?;
    std::fs::create_dir_all(dir.join("trees"))?;
    std::fs::write(dir.join("manifests/game.json"), GAME)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    pub(super) fn game_folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        write_game_folder(dir.path()).unwrap();
        dir
    }

    #[test]
    fn a_folder_without_a_project_file_uses_its_manifests_folder() {
        let dir = game_folder();
        let project = Project::open(dir.path()).unwrap();
        assert!(!project.has_file());
        assert_eq!(project.manifests(), ["manifests/game.json"]);
        let shoot = project.types().node("Shoot").expect("the game's type");
        assert!(shoot.host);
        assert!(project.types().node("Sequence").is_some(), "built-ins too");
        assert!(project.problems().is_empty());
        assert_eq!(project.trees_dir(), dir.path().join("trees"));
        assert!(project.contains(&dir.path().join("trees/a.json")));
    }

    #[test]
    fn a_project_file_names_the_manifests_and_the_trees_folder() {
        let dir = game_folder();
        fs::write(
            dir.path().join(PROJECT_FILE_NAME),
            r#"{"format": "arbor-project", "version": 1, "name": "Outpost",
                "manifests": ["manifests/game.json"], "trees": "ai/trees"}"#,
        )
        .unwrap();
        for path in [dir.path().to_path_buf(), dir.path().join(PROJECT_FILE_NAME)] {
            let project = Project::open(&path).unwrap();
            assert_eq!(project.name(), "Outpost");
            let doc = project.new_document("t");
            assert_eq!(doc.manifests(), ["../../manifests/game.json"]);
        }
    }

    #[test]
    fn a_broken_manifest_is_a_located_problem_and_the_rest_opens() {
        let dir = game_folder();
        fs::write(
            dir.path().join("manifests/broken.json"),
            "{\"format\": \"arbor-node-types\",\n \"version\": 1,\n \"nodes\": [ }",
        )
        .unwrap();
        let project = Project::open(dir.path()).unwrap();
        assert!(
            project.types().node("Shoot").is_some(),
            "the good one counts"
        );
        let [problem] = project.problems() else {
            panic!("{:?}", project.problems())
        };
        assert_eq!(problem.path, "manifests/broken.json");
        assert!(problem.message.contains("line 3"), "{problem}");
    }

    #[test]
    fn a_broken_project_file_says_where() {
        let dir = game_folder();
        fs::write(
            dir.path().join(PROJECT_FILE_NAME),
            "{\"format\": \"arbor-project\",\n \"version\": 1,\n \"trees\": 5}",
        )
        .unwrap();
        let e = Project::open(dir.path()).unwrap_err();
        assert!(e.to_string().contains("arbor-project.json:3:"), "{e}");
        let e = Project::open(&dir.path().join("nowhere")).unwrap_err();
        assert!(matches!(e, ProjectError::NotFound(_)), "{e}");
    }
}
