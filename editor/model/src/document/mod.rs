//! The document model: the tree being edited, with no UI types, so it is tested without a
//! window (as helix-core is without a terminal).
//!
//! # Brief overview
//! - [`Document`]: the runtime's [`TreeFile`] plus typed
//!   [`EditorData`] (positions, notes, groups, manifests), with the queries the canvas and
//!   panels need (`parent_of`, `execution_index`, `can_connect`, `key_usages`, …).
//!   Only [`crate::commands`] change it.
//! - [`Fragment`]: a copied selection as JSON text; [`ids::regenerate`] gives pasted
//!   fragments new GUIDs.
//! - [`tidy_layout`]: positions for auto-layout; [`free_offset`]: where pasted items stand
//!   free of the existing ones.
//! - [`find`]: the nodes a piece of text names (find in tree).
//! - [`io`]: atomic canonical save, load with the runtime's errors, manifests.
//! - [`extract_subtree`]: a branch as a tree file of its own, for subtree export.
//! - [`xml`]: BehaviorTree.CPP XML files, opened by import and saved by export.
//! - [`validate`]: the runtime's own checks, so the rules have one implementation.

mod clipboard;
mod editor_data;
mod find;
pub mod ids;
pub mod io;
mod json_path;
mod layout;
mod model;
mod node_index;
mod placement;
mod selection;
mod stamp;
mod subtree;
pub mod xml;

pub(crate) use clipboard::selection_origin;
pub use clipboard::{ClipboardError, Fragment, FRAGMENT_FORMAT, FRAGMENT_VERSION};
pub use editor_data::{Color, EditorData, Group, Note, Pos};
pub use find::{find, FindHit};
pub use json_path::{deserialize_at, json_path, ShapeError};
pub use layout::{tidy_layout, LayoutOptions};
pub use model::{Bounds, Document, KeyUsage, Owner};
pub use placement::{
    fit_group, frame_around, free_offset, node_box, obstacles, GROUP_PAD, GROUP_TITLE,
    PLACEMENT_GAP,
};
pub use selection::Selection;
pub use stamp::{fnv1a, DiskChange, DiskStamp};
pub use subtree::{branch_keys, extract_subtree};

#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub use model::fixtures::{conflicted_text, sample};

use std::path::Path;

use arbor_runtime::format::TreeFile;
use arbor_runtime::{LoadOptions, NodeTypes, Report};

/// Checks the document with the runtime's loader checks: every error and warning, each
/// carrying the GUID of the node or decorator concerned (`Problem::node`) for the canvas
/// to mark. `path` is where the document is saved, for resolving subtree files.
pub fn validate(doc: &Document, path: Option<&Path>, types: &NodeTypes) -> Report {
    validate_file(&doc.to_checked_file(), path, types)
}

/// [`validate`] on a document already written out as a tree file (owned data a worker
/// thread can check while the document goes on changing).
pub fn validate_file(file: &TreeFile, path: Option<&Path>, types: &NodeTypes) -> Report {
    arbor_runtime::check_tree(file, path, types, &LoadOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_file_gives_the_report_of_the_whole_file() {
        // The editor's data left out changes nothing the runtime reports.
        let (doc, _) = sample();
        let types = NodeTypes::builtin();
        let whole =
            arbor_runtime::check_tree(&doc.to_tree_file(), None, &types, &LoadOptions::default());
        let checked = validate(&doc, None, &types);
        assert!(!whole.problems.is_empty());
        let text = |r: &Report| r.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>();
        assert_eq!(text(&checked), text(&whole));
    }

    #[test]
    fn validation_comes_from_the_runtime_and_names_nodes() {
        let (doc, [.., e]) = sample();
        let report = validate(&doc, None, &NodeTypes::builtin());
        // Wait needs `seconds`; Log needs `message`; the Log is unconnected.
        assert!(!report.is_ok());
        assert!(report
            .for_node(&e)
            .any(|p| p.message().contains("not connected")));
        let empty = validate(&Document::new("t"), None, &NodeTypes::builtin());
        assert!(empty
            .problems
            .iter()
            .any(|p| p.message().contains("missing root")));
    }
}
