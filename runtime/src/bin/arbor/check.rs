//! `arbor check`: every problem of every file, errors and warnings, on stderr.

use std::path::PathBuf;

use arbor_runtime::{check_file, LoadOptions};

/// Returns Ok(false) if any file has errors.
pub(super) fn run(manifests: &[PathBuf], files: &[PathBuf]) -> Result<bool, String> {
    let types = super::node_types(manifests)?;
    let options = LoadOptions::default();
    let mut all_ok = true;
    for file in files {
        let report = check_file(file, &types, &options);
        for problem in &report.problems {
            say!("{problem}");
        }
        if report.is_ok() {
            say_out!("{}: ok", file.display());
        } else {
            all_ok = false;
        }
    }
    Ok(all_ok)
}
