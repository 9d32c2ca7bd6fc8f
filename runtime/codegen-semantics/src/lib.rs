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
    /// generator emits those that are neither `memory` nor `yield`; 0: the program hands
    /// the root to the interpreter's node code).
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

#[cfg(test)]
mod tests {
    use super::generated::{MUTANTS, REFUSED, TREES};
    use super::*;

    /// `find` and `refused` search by hash: a table out of order would make a dumped tree
    /// look missing.
    #[test]
    fn tables_are_sorted_by_hash_without_repeats() {
        for hashes in [
            TREES.iter().map(|t| t.hash).collect::<Vec<_>>(),
            MUTANTS.iter().map(|t| t.hash).collect(),
            REFUSED.iter().map(|(h, _)| *h).collect(),
        ] {
            assert!(hashes.windows(2).all(|w| w[0] < w[1]), "{hashes:?}");
        }
        assert!(TREES.iter().all(|t| find(TREES, t.hash).is_some()));
        assert!(REFUSED.iter().all(|(h, _)| refused(h).is_some()));
        assert!(find(TREES, "not a hash").is_none() && refused("not a hash").is_none());
    }

    /// A tree is either generated or refused, never both; every mutant has its right tree.
    #[test]
    fn every_tree_is_generated_or_refused_and_mutants_have_a_right_program() {
        assert!(TREES.iter().all(|t| refused(t.hash).is_none()));
        for m in MUTANTS {
            let Some(right) = find(TREES, m.hash) else {
                panic!("mutant {} has no right program", m.hash);
            };
            assert_eq!(right.source, m.source);
            assert!(m.loops > 0, "a mutant's wrong loop is a generated loop");
        }
    }
}
