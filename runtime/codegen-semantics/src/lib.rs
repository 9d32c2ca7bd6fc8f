//! The runtime's semantic test suite on generated code. The build script compiles every
//! tree of `trees/` (what the suite's helpers compile, dumped by `dump.sh`) to Rust with
//! `arbor_runtime::codegen::generate`; tests/semantics.rs includes the runtime's semantic
//! test modules unchanged, with an engine that loads each tree as its generated module.
//!
//! ```text
//! cargo test -p arbor-codegen-semantics     # the suite on generated code
//! runtime/codegen-semantics/dump.sh         # after adding or changing a semantic test
//! ```

use std::sync::Arc;

use arbor_runtime::{CompiledTree, LoadError, Registry};

/// The generated modules and the tables `TREES`, `MUTANTS` and `REFUSED`.
#[allow(clippy::all, missing_docs)]
pub mod generated {
    use crate::Tree;
    include!(concat!(env!("OUT_DIR"), "/trees.rs"));
}

/// A generated module's `load`, for the helpers' data type `()`.
pub type Load = fn(&Registry<()>) -> Result<Arc<CompiledTree<()>>, LoadError>;

/// One dumped tree's generated module.
pub struct Tree {
    /// FNV-1a 64 of the tree's text, 16 hex digits: its file name in `trees/`.
    pub hash: &'static str,
    /// The text the module embeds.
    pub source: &'static str,
    /// The module's `load`: the tree with the generated program installed.
    pub load: Load,
    /// How many of its Sequences/Selectors the module runs as straight-line code (the
    /// generator emits only plain ones; 0: the program hands the root to the interpreter's
    /// node code).
    pub loops: usize,
}

/// The tree named `hash` in `table` (sorted by hash, as the build script writes it).
pub fn find<'a>(table: &'a [Tree], hash: &str) -> Option<&'a Tree> {
    table
        .binary_search_by(|t| t.hash.cmp(hash))
        .ok()
        .map(|i| &table[i])
}

/// Why the generator refused the tree named `hash`, if it did (the loader's error).
pub fn refused(hash: &str) -> Option<&'static str> {
    generated::REFUSED
        .binary_search_by(|(h, _)| h.cmp(&hash))
        .ok()
        .map(|i| generated::REFUSED[i].1)
}
