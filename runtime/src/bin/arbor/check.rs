//! `arbor check`: every problem of every file, errors and warnings, on stderr, checked
//! against the `--types` manifests and the manifests each file lists. `arbor lint` gives
//! the same problems, as JSON with `--json`.

use std::path::PathBuf;

use arbor_runtime::{check_file, LoadOptions, Report};

use super::output::Failure;

/// One file's check: the warnings about the manifests it lists, and the loader's report.
pub(super) struct Checked {
    pub file: PathBuf,
    pub manifest_warnings: Vec<String>,
    pub report: Report,
}

/// Checks each file as `arbor check` does.
pub(super) fn check_all(manifests: &[PathBuf], files: &[PathBuf]) -> Result<Vec<Checked>, Failure> {
    let base = super::types::explicit(manifests)?;
    // Keys read and never written are worth a look here, where a designer checks a file.
    let options = LoadOptions {
        lint_keys: true,
        ..LoadOptions::default()
    };
    Ok(files
        .iter()
        .map(|file| {
            // Each file with the manifests it lists, as the editor opens it.
            let (types, manifest_warnings) = super::types::with_listed(&base, file);
            Checked {
                file: file.clone(),
                manifest_warnings,
                report: check_file(file, &types, &options),
            }
        })
        .collect())
}

/// Returns Ok(false) if any file has errors.
pub(super) fn run(manifests: &[PathBuf], files: &[PathBuf]) -> Result<bool, Failure> {
    let mut all_ok = true;
    for checked in check_all(manifests, files)? {
        let mut lines = checked.manifest_warnings;
        lines.extend(checked.report.problems.iter().map(ToString::to_string));
        for line in super::once(&lines) {
            say!("{line}");
        }
        if checked.report.is_ok() {
            say_out!("{}: ok", checked.file.display());
        } else {
            all_ok = false;
        }
    }
    Ok(all_ok)
}
