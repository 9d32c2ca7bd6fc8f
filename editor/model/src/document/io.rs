//! Loading and saving documents, and reading the node-types manifests they name.
//!
//! - Loading goes through the runtime's parser ([`arbor_runtime::parse_str`]), so a broken
//!   file gets the runtime's located message (file, line and column or JSON path, expected
//!   versus found). Loading returns a *new* document: a failure leaves whatever the caller
//!   holds untouched.
//! - Saving writes the canonical text ([`Document::to_json`]: pretty, sorted keys, nodes
//!   depth-first from the root then the unconnected ones) to `<name>.tmp-<pid>` beside the
//!   target, flushes it to disk, then renames it over the target, so a crash or a full
//!   disk never leaves a half-written tree. Save -> load -> save is byte-for-byte stable.
//! - Every file the editor reads (trees, manifests, subtree files, XML, recovery files)
//!   goes through [`read_text`], the runtime's bounded reader: a FIFO or a device such as
//!   `/dev/zero` is refused before it is opened, and no read goes past the loader's file
//!   size limit.

use std::path::{Path, PathBuf};

use arbor_runtime::files::{self, ReadError};
use arbor_runtime::{LoadError, LoadOptions, NodeTypes};

use super::model::Document;

/// Why a tree file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{}: cannot read the file: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The runtime's report: every problem, located.
    #[error(transparent)]
    Invalid(#[from] LoadError),
    /// A BehaviorTree.CPP XML file that could not be imported: every problem, located.
    #[error("not a BehaviorTree.CPP file Arbor can import:\n{0}")]
    Import(#[from] arbor_runtime::btcpp::ImportError),
    /// A file an XML import writes beside it (another tree, the custom node types).
    #[error("{}: cannot write this file of the import: {source}", .path.display())]
    Companion {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Why a save failed; the file on disk is unchanged.
#[derive(Debug, thiserror::Error)]
#[error("{}: cannot save: {source}", .path.display())]
pub struct SaveError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// A node-types manifest that could not be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("node types manifest {path}: {message}")]
pub struct ManifestError {
    /// As written in the document (relative to the tree file).
    pub path: String,
    pub message: String,
}

/// Reads and parses a tree file, or a variant file opened on its base (variant.rs; the
/// base is read relative to the variant's folder and must be a tree file).
pub fn load(path: &Path) -> Result<Document, OpenError> {
    let text = read_tree_text(path)?;
    if !arbor_runtime::format::is_variant(&text) {
        return Ok(load_str(&text, Some(path))?);
    }
    let file = arbor_runtime::parse_variant_str(&text, Some(path))?;
    let base_path = variant_base_path(path, file.base.as_str());
    // The base is parsed as a tree file: a variant named as a base is a shape error there,
    // so a variant naming itself cannot loop.
    let base = load_str(&read_tree_text(&base_path)?, Some(&base_path))?;
    Ok(Document::from_variant(file, base, Some(path))?)
}

/// Where the base of the variant at `variant` is, from `base` as the variant writes it.
pub fn variant_base_path(variant: &Path, base: &str) -> PathBuf {
    variant
        .parent()
        .map_or_else(|| PathBuf::from(base), |d| d.join(base))
}

/// A tree (or variant) file's text, through the bounded reader.
fn read_tree_text(path: &Path) -> Result<String, OpenError> {
    let limit = LoadOptions::default().max_file_bytes;
    let read_error = |source| OpenError::Read {
        path: path.to_owned(),
        source,
    };
    let text = match files::read_text(path, limit) {
        Ok(text) => text,
        // A huge file is not a tree anyone made by hand.
        Err(e @ ReadError::TooLarge { .. }) => {
            return Err(OpenError::Invalid(LoadError::unreadable(path, e)))
        }
        Err(e) => return Err(read_error(io_error(e))),
    };
    declare_value_types(&text, path);
    Ok(text)
}

/// Reads a file the user named as text through the runtime's bounded reader (see the
/// module documentation), at most the loader's file size limit.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    files::read_text(path, LoadOptions::default().max_file_bytes).map_err(io_error)
}

/// The reader's error as an I/O error, its message kept.
fn io_error(e: ReadError) -> std::io::Error {
    match e {
        ReadError::Io(e) => e,
        other => std::io::Error::new(std::io::ErrorKind::InvalidData, other.to_string()),
    }
}

/// Declares the user value types of the manifests a tree file names (relative to its
/// folder) before the file is parsed, so that its keys of those types parse. Best effort:
/// a manifest that cannot be read or parsed is reported when the document's node types
/// are loaded ([`load_node_types`]), not here.
fn declare_value_types(text: &str, path: &Path) {
    #[derive(serde::Deserialize)]
    struct Manifests {
        #[serde(default)]
        manifests: Vec<String>,
    }
    let Ok(named) = serde_json::from_str::<Manifests>(text) else {
        return;
    };
    let base = path.parent().unwrap_or(Path::new(""));
    for rel in named.manifests {
        if let Ok(manifest) = read_text(&base.join(rel)) {
            let _ = NodeTypes::declare_value_types(&manifest);
        }
    }
}

/// Parses a tree file's text; `path` names it in messages.
pub fn load_str(text: &str, path: Option<&Path>) -> Result<Document, LoadError> {
    let file = arbor_runtime::parse_str(text, path)?;
    Document::from_tree_file(file, path)
}

/// Saves the canonical text atomically (see the module documentation): a variant's file
/// for a variant document (its base is saved by [`crate::Session`], and only when asked).
pub fn save(doc: &Document, path: &Path) -> Result<(), SaveError> {
    let text = doc.to_variant_json().unwrap_or_else(|| doc.to_json());
    write_atomic(path, text.as_bytes()).map_err(|source| SaveError {
        path: path.to_owned(),
        source,
    })
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`:
/// the runtime's writer, which the CLI's `-o` files use too.
pub use arbor_runtime::files::write_atomic;

/// The built-in node types plus those of every manifest the document names (relative to
/// `base`, the tree file's folder). A manifest that cannot be read or merged is reported
/// and skipped: its nodes then show as unknown types, and the document stays editable.
pub fn load_node_types(doc: &Document, base: Option<&Path>) -> (NodeTypes, Vec<ManifestError>) {
    let mut types = NodeTypes::builtin();
    let mut errors = Vec::new();
    for rel in doc.manifests() {
        let path = base.map_or_else(|| PathBuf::from(rel), |b| b.join(rel));
        errors.extend(merge_manifest_file(&mut types, &path, rel).err());
    }
    (types, errors)
}

/// Merges the manifest at `path` into `types` (all its types or, on an error, none);
/// `shown` is how the error names it (as the document or the project writes it).
pub fn merge_manifest_file(
    types: &mut NodeTypes,
    path: &Path,
    shown: &str,
) -> Result<(), ManifestError> {
    read_text(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|text| types.merge_manifest(&text))
        .map(|_| ())
        .map_err(|message| ManifestError {
            path: shown.to_owned(),
            message,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::model::fixtures::sample;
    use arbor_runtime::NodeType;
    use std::fs;

    #[test]
    fn save_load_save_is_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tree.json");
        let (doc, _) = sample();
        save(&doc, &path).unwrap();
        let first = fs::read_to_string(&path).unwrap();
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.to_tree_file(), doc.to_tree_file());
        save(&loaded, &path).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), first);
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_broken_file_gives_the_runtime_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        fs::write(
            &path,
            "{\"format\": \"arbor-tree\", \"version\": 1,\n  \"name\": }",
        )
        .unwrap();
        let err = load(&path).unwrap_err();
        let OpenError::Invalid(e) = &err else {
            panic!("{err}")
        };
        assert_eq!(e.problems[0].line, Some((2, 11)));
        assert!(err.to_string().contains("bad.json:2:11"), "{err}");

        fs::write(
            &path,
            r#"{"format": "arbor-tree", "version": 1, "guid": 5, "name": "x"}"#,
        )
        .unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(
            err.contains("$.guid") && err.contains("expected a string"),
            "{err}"
        );

        let missing = load(&dir.path().join("nope.json")).unwrap_err();
        assert!(matches!(missing, OpenError::Read { .. }));
    }

    #[test]
    fn save_failure_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("tree.json");
        let err = save(&Document::new("t"), &path).unwrap_err();
        assert!(err.to_string().contains("cannot save"), "{err}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn manifests_are_loaded_relative_to_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut host = NodeTypes::builtin();
        host.insert(NodeType::action("WalkTo", "walks"));
        fs::write(
            dir.path().join("types.json"),
            host.manifest_where(|t| t.host),
        )
        .unwrap();
        let mut doc = Document::new("t");
        doc.editor.manifests = vec!["types.json".into(), "gone.json".into()];
        let (types, errors) = load_node_types(&doc, Some(dir.path()));
        assert!(types.node("WalkTo").is_some());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].path, "gone.json");
    }
}
