//! The node types a command checks a file against: the built-in kinds, the manifests given
//! with `--types`, and the manifests the file itself lists in `editor.manifests` (and the
//! subtree files it reaches list in theirs), as the editor reads them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use arbor_runtime::{format::TreeFile, parse_str, NodeTypes};
use serde_json::Value;

/// Reads the `--types` manifests: an unreadable or invalid one is an error.
pub(super) fn explicit(manifests: &[PathBuf]) -> Result<NodeTypes, String> {
    let mut types = NodeTypes::builtin();
    for manifest in manifests {
        let text = read(manifest)
            .map_err(|e| format!("{}: cannot read the manifest: {e}", manifest.display()))?;
        types
            .merge_manifest(&text)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    Ok(types)
}

/// `base` plus the manifests `file` lists, and those its subtree files list, each relative
/// to the file that lists it. A listed manifest that cannot be read or merged is returned
/// as a warning (the nodes that need it are then reported as unknown types by the
/// loader); a tree file that cannot be read is left to the loader to report.
pub(super) fn with_listed(base: &NodeTypes, file: &Path) -> (NodeTypes, Vec<String>) {
    let mut types = base.clone();
    let mut warnings = Vec::new();
    let mut seen_files = BTreeSet::new();
    let mut seen_manifests = BTreeSet::new();
    let mut pending = vec![file.to_path_buf()];
    while let Some(path) = pending.pop() {
        // A subtree cycle is the loader's error to report; here it must only not loop.
        if !seen_files.insert(path.clone()) {
            continue;
        }
        let Some(tree) = read(&path)
            .ok()
            .and_then(|text| parse_str(&text, Some(&path)).ok())
        else {
            continue;
        };
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        for (i, listed) in listed_manifests(&tree).into_iter().enumerate() {
            let manifest = dir.join(&listed);
            if !seen_manifests.insert(manifest.clone()) {
                continue;
            }
            let merged = read(&manifest)
                .map_err(|e| format!("cannot read {}: {e}", manifest.display()))
                .and_then(|text| types.merge_manifest(&text).map_err(|e| e.to_string()));
            if let Err(e) = merged {
                warnings.push(format!(
                    "warning: {}: $.editor.manifests[{i}]: {e}",
                    path.display()
                ));
            }
        }
        for node in &tree.nodes {
            if node.kind == "Subtree" {
                if let Some(sub) = node.params.get("path").and_then(Value::as_str) {
                    pending.push(dir.join(sub));
                }
            }
        }
    }
    (types, warnings)
}

/// Reads a manifest or tree file as the loader does: a regular file only (a FIFO named
/// here must not block), at most the loader's file size.
fn read(path: &Path) -> Result<String, arbor_runtime::files::ReadError> {
    arbor_runtime::files::read_text(path, arbor_runtime::LoadOptions::default().max_file_bytes)
}

fn listed_manifests(tree: &TreeFile) -> Vec<String> {
    tree.editor
        .as_ref()
        .and_then(|e| e.get("manifests"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
