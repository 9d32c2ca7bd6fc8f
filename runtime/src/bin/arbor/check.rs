//! `arbor check`: every problem of every file, errors and warnings, on stderr, checked
//! against the `--types` manifests and the manifests each file lists.

use std::path::PathBuf;

use arbor_runtime::{check_file, LoadOptions};

use super::output::Failure;

/// Returns Ok(false) if any file has errors.
pub(super) fn run(manifests: &[PathBuf], files: &[PathBuf]) -> Result<bool, Failure> {
    let base = super::types::explicit(manifests)?;
    // Keys read and never written are worth a look here, where a designer checks a file.
    let options = LoadOptions {
        lint_keys: true,
        ..LoadOptions::default()
    };
    let mut all_ok = true;
    for file in files {
        // Each file with the manifests it lists, as the editor opens it.
        let (types, mut lines) = super::types::with_listed(&base, file);
        let report = check_file(file, &types, &options);
        lines.extend(report.problems.iter().map(ToString::to_string));
        for line in super::once(&lines) {
            say!("{line}");
        }
        if report.is_ok() {
            say_out!("{}: ok", file.display());
        } else {
            all_ok = false;
        }
    }
    Ok(all_ok)
}
