//! The `.json` files of a folder, for the build scripts of `arbor-codegen-check` and
//! `arbor-codegen-semantics` (each includes this file with `#[path]`).

use std::path::{Path, PathBuf};

/// The `.json` files directly in `dir`, sorted by name; none if it cannot be read.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}
