//! The editor's integration tests, one module per area, in one test binary: it builds and
//! links once (ripgrep's `tests/tests.rs` does the same). `history_memory.rs` stays a
//! binary of its own: it measures the process's memory, so nothing else may run beside it.
//!
//! The modules that drive the editor all use [`common::Harness`], the one headless harness.

mod common;

mod adding;
mod annotations_ui;
mod bounded_reads;
mod canvas_ui;
mod compare_ui;
mod context_menus;
mod disk_changes;
mod freshness;
mod groot2;
mod groot2_fake;
mod i18n_ui;
mod large_files;
mod layers;
mod panel_text;
mod panels;
mod preview;
mod preview_ui;
mod properties;
mod readability;
mod recovery;
mod remote;
mod renaming;
mod sample_files;
mod save_failures;
mod subtree_equivalence;
mod subtrees;
mod tabs;
mod window_layout;
mod xml_files;

/// The full name of test `name` in module `module` of this binary, for a test that runs
/// this binary again as a child process with `--exact`.
pub fn test_name(module: &str, name: &str) -> String {
    let module = module.split_once("::").map_or(module, |(_, m)| m);
    format!("{module}::{name}")
}
