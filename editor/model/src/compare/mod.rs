//! Comparing the document with another version of its tree: what the editor's compare
//! view shows, with no UI types.
//!
//! # Brief overview
//! - [`Comparison`]: the other version and the document's difference from it, read from
//!   the runtime's semantic diff (`arbor_runtime::merge::diff`, the one `arbor diff`
//!   prints) and mapped to what a view draws: a [`NodeMark`] per node of the document, a
//!   [`Ghost`] per node only the other version has, and a list of [`Entry`]s to step
//!   through. It is view state: the document is never changed by it.
//! - [`read_at_revision`]: a file's text at a git revision (`git show`), read with the
//!   same byte cap and checks as every other file the editor reads.

mod comparison;
mod revision;

pub use comparison::{Comparison, Entry, EntryKind, Ghost, MarkKind, NodeMark, Target};
pub use revision::{read_at_revision, RevisionError};
