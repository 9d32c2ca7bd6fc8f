//! The rewrite of many tree files that `rename-key` and `rename-type` share: every file is
//! read first (as `migrate` reads it: a file that does not parse, or has fields this
//! version does not know, is refused), and only when all of them load is each changed one
//! written, atomically. So a typo in one file name leaves every file as it was.

use std::path::PathBuf;

use arbor_runtime::format::TreeFile;
use arbor_runtime::refactor::Usage;
use serde::Serialize;

use super::output::Failure;

/// What the rewrite did to one file.
#[derive(Serialize)]
pub(super) struct Rewritten {
    pub file: String,
    pub changes: Vec<Usage>,
    pub written: bool,
}

/// Reads every file; on success applies `edit` to each and writes those it changed.
/// `edit` returns the places it changed, or a message that stops the whole rewrite before
/// anything is written.
pub(super) fn run(
    files: &[PathBuf],
    json: bool,
    mut edit: impl FnMut(&PathBuf, &mut TreeFile) -> Result<Vec<Usage>, String>,
) -> Result<bool, Failure> {
    let mut trees = Vec::with_capacity(files.len());
    let mut bad = 0;
    for file in files {
        match super::migrate::read(file) {
            Some(tree) => trees.push(tree),
            None => bad += 1,
        }
    }
    if bad > 0 {
        return Err(Failure::Message(format!(
            "{bad} of {} files did not load; no file was changed",
            files.len()
        )));
    }
    let mut planned = Vec::with_capacity(files.len());
    for (file, tree) in files.iter().zip(trees.iter_mut()) {
        let changes = edit(file, tree).map_err(|e| {
            Failure::Message(format!("{}: {e}; no file was changed", file.display()))
        })?;
        planned.push(changes);
    }
    let mut report = Vec::with_capacity(files.len());
    let mut all_ok = true;
    for ((file, tree), changes) in files.iter().zip(&trees).zip(planned) {
        let shown = file.display().to_string();
        let mut written = false;
        if !changes.is_empty() {
            match arbor_runtime::files::write_atomic(file, tree.to_json_pretty().as_bytes()) {
                Ok(()) => written = true,
                Err(e) => {
                    say!("{shown}: cannot write the file: {e}");
                    all_ok = false;
                }
            }
        }
        if !json {
            for c in &changes {
                say_out!("{shown}: {}: {}", c.json_path, c.kind.as_str());
            }
            match (changes.len(), written) {
                (0, _) => say_out!("{shown}: no uses"),
                (n, true) => say_out!("{shown}: rewritten ({n} places)"),
                (_, false) => {}
            }
        }
        report.push(Rewritten {
            file: shown,
            changes,
            written,
        });
    }
    if json {
        let doc = serde_json::json!({ "files": report });
        super::output::write(&format!("{doc:#}\n"))?;
    }
    Ok(all_ok)
}
