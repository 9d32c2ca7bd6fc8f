//! Semantic diff and three-way merge of tree files, matched by GUID: one implementation
//! for `arbor diff`, `arbor merge` (also a git merge driver) and the editor's compare and
//! conflict views.
//!
//! # Brief overview
//! [`read_tree`] reads and checks an input. [`diff`] lists [`Change`]s from one version
//! to another; [`merge`] merges two versions of a base into a `TreeFile` whose
//! `conflicts` ([`crate::format::Conflict`]) list what it could not decide. Both work on
//! the same view of a file as parts with fields (`flat`), so a change the diff reports is
//! exactly what the merge takes from a side. [`resolve`] settles one conflict by picking
//! a side (the editor's conflict view).

mod diff;
mod flat;
mod input;
mod order;
mod resolve;
mod three_way;

pub use diff::{diff, summary, Change, ChangeKind};
pub use flat::Scope;
pub use input::{read_tree, tree_from_str};
pub use resolve::{resolve, ResolveError, Side};
pub use three_way::{merge, MergeError};
