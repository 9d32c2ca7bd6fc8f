//! `arbor check`: every problem of every file, errors and warnings, on stderr.

use std::path::PathBuf;

use arbor_runtime::{check_file, LoadOptions, NodeTypes};

/// Returns Ok(false) if any file has errors.
pub(super) fn run(manifests: &[PathBuf], files: &[PathBuf]) -> Result<bool, String> {
    let mut types = NodeTypes::builtin();
    for manifest in manifests {
        let text = std::fs::read_to_string(manifest)
            .map_err(|e| format!("{}: cannot read the manifest: {e}", manifest.display()))?;
        types
            .merge_manifest(&text)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    let options = LoadOptions::default();
    let mut all_ok = true;
    for file in files {
        let report = check_file(file, &types, &options);
        for problem in &report.problems {
            eprintln!("{problem}");
        }
        if report.is_ok() {
            println!("{}: ok", file.display());
        } else {
            all_ok = false;
        }
    }
    Ok(all_ok)
}
