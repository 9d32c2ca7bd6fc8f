//! `arbor stub TYPE [--manifest FILE]…`: prints the Rust skeleton of a host action or
//! condition (`arbor_runtime::node_stub`), declared with `NodeDecl`, for a programmer to
//! fill in: typically a placeholder a designer declared in the editor.
//!
//! The type is looked up in the manifests given with `--manifest` or, without one, in the
//! manifests of the project in the current folder (`arbor-project.json`, or every `*.json`
//! of `manifests/`).

use std::path::{Path, PathBuf};

use arbor_runtime::format::{ProjectFile, DEFAULT_MANIFESTS_DIR, PROJECT_FILE_NAME};
use clap::Args;

use super::output::Failure;

/// The most manifests a project folder without a project file is searched for.
const MAX_LISTED: usize = 256;

#[derive(Args)]
pub(super) struct StubArgs {
    /// The host node type to write a skeleton for.
    #[arg(value_name = "TYPE")]
    ty: String,
    /// Node-types manifests to find the type in (repeatable); without one, the manifests of
    /// the project in the current folder.
    #[arg(long = "manifest", value_name = "FILE")]
    manifests: Vec<PathBuf>,
}

pub(super) fn run(args: &StubArgs) -> Result<bool, Failure> {
    let manifests = if args.manifests.is_empty() {
        project_manifests(Path::new("."))?
    } else {
        args.manifests.clone()
    };
    let types = super::types::explicit(&manifests)?;
    let Some(ty) = types.node(&args.ty) else {
        let shown: Vec<String> = manifests.iter().map(|m| m.display().to_string()).collect();
        return Err(format!(
            "no node type `{}` in {}",
            args.ty,
            if shown.is_empty() {
                "the built-in types (name a manifest with --manifest)".to_owned()
            } else {
                shown.join(", ")
            }
        )
        .into());
    };
    let code = arbor_runtime::node_stub(ty).map_err(|e| e.to_string())?;
    super::output::write(&code)?;
    Ok(true)
}

/// The manifests of the project in `dir`: those its project file lists, else every `*.json`
/// of its `manifests/` folder (sorted by name).
fn project_manifests(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let file = dir.join(PROJECT_FILE_NAME);
    if file.is_file() {
        let text = super::read_capped(&file)
            .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
        let project = ProjectFile::parse(&text).map_err(|e| format!("{}:{e}", file.display()))?;
        if !project.manifests.is_empty() {
            return Ok(project.manifests.iter().map(|m| dir.join(m)).collect());
        }
    }
    let folder = dir.join(DEFAULT_MANIFESTS_DIR);
    let mut found: Vec<PathBuf> = std::fs::read_dir(&folder)
        .map_err(|e| {
            format!(
                "no --manifest given, and no project here ({PROJECT_FILE_NAME} or {}): {e}",
                folder.display()
            )
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .take(MAX_LISTED)
        .collect();
    found.sort();
    Ok(found)
}
