//! The tree file format, version 1: serde types that match the JSON exactly.
//!
//! A file holds one tree as a *flat* list of nodes; a node names its children by GUID and the
//! file names its root. Flat beats nested here: wrapping a branch in a decorator does not
//! re-indent the branch (clean diffs), nodes that are not connected yet can be kept (work in
//! progress in the editor), and no file is deep enough to exhaust a parser's recursion limit.
//! docs/format.md is the specification; docs/arbor-tree.schema.json its JSON Schema.

mod conflict;
mod json_path;
pub mod layout;
mod overrides;
mod project_file;
mod tree_file;
mod unique_keys;
mod variant;

pub(crate) use unique_keys::find_duplicate_key;

pub use conflict::Conflict;
pub use json_path::json_path;
pub use overrides::{KeyOverride, OverrideError, Overrides, ParamOverride};
pub use variant::{is_variant, VariantFile, VARIANT_FORMAT, VARIANT_VERSION};

pub use project_file::{
    ProjectFile, DEFAULT_MANIFESTS_DIR, DEFAULT_TREES_DIR, PROJECT_FILE_NAME, PROJECT_FORMAT,
};
pub use tree_file::{
    new_guid, DecoratorDef, KeyDecl, NodeDef, TreeFile, FORMAT_NAME, FORMAT_VERSION,
    OLDEST_FORMAT_VERSION,
};
