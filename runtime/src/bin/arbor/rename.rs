//! `arbor rename-key OLD NEW FILE…` and `arbor rename-type OLD NEW FILE…`: a key or a node
//! type renamed at every use in every file (`arbor_runtime::refactor`), each file written
//! atomically, no file touched when one does not load.

use std::path::{Path, PathBuf};

use arbor_runtime::refactor::{rename_key, rename_type};
use clap::Args;

use super::output::Failure;

#[derive(Args)]
pub(super) struct RenameArgs {
    /// Node-types manifests declaring host node types (which of their parameters name
    /// keys), besides those each file lists in `editor.manifests` (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
    /// Print one JSON document (docs/cli.md) instead of lines.
    #[arg(long)]
    json: bool,
    /// The current name.
    #[arg(value_name = "OLD")]
    old: String,
    /// The new name.
    #[arg(value_name = "NEW")]
    new: String,
    /// Tree files to rewrite.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// `rename-key`.
pub(super) fn key(args: &RenameArgs) -> Result<bool, Failure> {
    check_name(&args.new)?;
    let base = super::types::explicit(&args.types)?;
    let given = given(&args.files);
    super::rewrite::run(&args.files, args.json, |file, tree| {
        let (types, _) = super::types::with_listed(&base, file);
        let subtree = subtree_in(file, &given);
        rename_key(tree, &types, &args.old, &args.new, &subtree).map_err(|e| e.to_string())
    })
}

/// `rename-type`.
pub(super) fn kind(args: &RenameArgs) -> Result<bool, Failure> {
    check_name(&args.new)?;
    super::rewrite::run(&args.files, args.json, |_, tree| {
        Ok(rename_type(tree, &args.old, &args.new))
    })
}

fn check_name(name: &str) -> Result<(), Failure> {
    if name.trim().is_empty() {
        return Err(Failure::Message("the new name is empty".to_owned()));
    }
    Ok(())
}

/// The files given, as canonical paths, to tell which subtree files are renamed too.
pub(super) fn given(files: &[PathBuf]) -> Vec<PathBuf> {
    files.iter().filter_map(|f| f.canonicalize().ok()).collect()
}

/// For a Subtree `path` in `file`: whether it names one of the `given` files.
pub(super) fn subtree_in<'a>(file: &'a Path, given: &'a [PathBuf]) -> impl Fn(&str) -> bool + 'a {
    let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
    move |path: &str| {
        dir.join(path)
            .canonicalize()
            .is_ok_and(|p| given.contains(&p))
    }
}
