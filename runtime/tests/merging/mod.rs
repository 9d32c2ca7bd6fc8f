//! Semantic diff and three-way merge of tree files (`arbor_runtime::merge`, `arbor diff`,
//! `arbor merge`, and `arbor merge` as a git merge driver).

mod cases;
mod cli;
mod diff_kinds;
mod disjoint_edits;
mod git_driver;
mod merge_cases;
