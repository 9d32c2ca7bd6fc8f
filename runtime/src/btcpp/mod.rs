//! BehaviorTree.CPP / Groot2 interop: import BT.CPP v4 (and v3) XML trees as Arbor tree
//! files, and export Arbor trees as v4 XML that BT.CPP can load.
//!
//! # Brief overview
//! - [`import_str`] / [`import_file`] read a `<root BTCPP_format="4">` document (its
//!   `<include>`s, every `<BehaviorTree>`, `main_tree_to_execute`, `<TreeNodesModel>`) and
//!   return an [`Imported`]: one tree file (`format::TreeFile`) per BT.CPP tree (the main one first; every
//!   other becomes `<stem>.<ID>.json`, referenced by Subtree nodes), a node-types manifest
//!   declaring the custom node types the trees use, and warnings. Trees are laid out
//!   automatically, left to right. [`Imported::write_to`] writes the files.
//! - [`export_file`] / [`export`] turn an Arbor tree and the subtree files it refers to
//!   into one v4 document, or fail with an [`ExportError`] listing every node that has no
//!   BT.CPP form.
//! - [`stand_in_registry`] runs imported trees without the program that implements their
//!   custom nodes: every host action and condition becomes a stand-in that behaves like a
//!   Scripted leaf, scripted per node through [`StandIns`]; a control or decorator with a
//!   declared `stand_in` (Nav2's get one, rule 61) runs its children as that built-in.
//!
//! The mapping of node types is one table, `mapping::TABLE`; docs/interop.md explains it
//! and what is lossy. What Arbor nodes cannot hold (scripts that do not type-check, the exact
//! BT.CPP node a Sequence came from, port directions) is kept in the tree file's
//! `editor.btcpp` object, so an import followed by an export gives the same XML shape.
//!
//! Why roxmltree: BT.CPP files are small documents read whole, and roxmltree is a
//! read-only DOM with line/column positions for every node (errors point at the
//! element), no unsafe code (`#![forbid(unsafe_code)]`), no dependencies, and DTDs refused
//! by default. Writing needs no DOM: `xml::Out` prints elements with escaping, so no XML
//! writer crate is needed. quick-xml (a streaming reader/writer) would have meant tracking
//! positions and nesting by hand.

mod export;
mod import;
mod mapping;
mod meta;
mod model;
mod monitor;
mod nav2;
mod script;
mod standin;
mod xml;

use std::fmt;
use std::sync::OnceLock;

use crate::spec::NodeTypes;
use crate::text::escape_controls;

pub use export::{export, export_file, ExportError, Exported};
pub use import::{
    import_file, import_file_with, import_str, ImportOptions, Imported, ImportedFile,
};
pub use monitor::{
    BtLog, BtLogError, LogTransition, MonitoredTree, NodeState, TreeInstance, MAX_BTLOG_BYTES,
};
pub use standin::{stand_in_registry, StandIns};

/// A problem in an XML document, located by line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlProblem {
    /// The file (or `<memory>`).
    pub origin: String,
    /// The line in that file, from 1.
    pub line: u32,
    /// The column in that line, from 1.
    pub column: u32,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for XmlProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Escaped: the origin and message may quote names from the document.
        write!(
            f,
            "{}:{}:{}: {}",
            escape_controls(&self.origin),
            self.line,
            self.column,
            escape_controls(&self.message)
        )
    }
}

/// Why an XML document could not be imported: every problem found.
#[derive(Debug, thiserror::Error)]
#[error("{}", lines(.problems))]
pub struct ImportError {
    /// Every problem found, each located in its file.
    pub problems: Vec<XmlProblem>,
}

/// Arbor's built-in node and attached decorator types, built once: the import and export
/// consult them for every node.
pub(crate) fn builtin() -> &'static NodeTypes {
    static BUILTIN: OnceLock<NodeTypes> = OnceLock::new();
    BUILTIN.get_or_init(NodeTypes::builtin)
}

/// Is `name` an Arbor built-in node type or attached decorator type?
pub(crate) fn is_arbor_builtin(name: &str) -> bool {
    builtin().node(name).is_some() || builtin().decorator(name).is_some()
}

fn lines<T: fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(|item| escape_controls(&item.to_string()).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}
