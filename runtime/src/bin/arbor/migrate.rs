//! `arbor migrate`: rewrites the old node-type and parameter names a file still uses (the
//! `aliases` the node types declare) to their current names, in place and atomically, and
//! reports each change; `--check` only reports, and fails if a file would change.

use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{migrate, parse_str};
use clap::Args;

use super::output::Failure;

#[derive(Args)]
pub(super) struct MigrateArgs {
    /// Node-types manifests declaring host node types (and their old names), besides
    /// those each file lists in `editor.manifests` (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
    /// Change nothing; exit 1 if any file would change.
    #[arg(long)]
    check: bool,
    /// Tree files to rewrite.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Returns Ok(false) if a file could not be migrated or, with `--check`, would change.
pub(super) fn run(args: &MigrateArgs) -> Result<bool, Failure> {
    let base = super::types::explicit(&args.types)?;
    let mut all_ok = true;
    for file in &args.files {
        let (types, warnings) = super::types::with_listed(&base, file);
        for line in super::once(&warnings) {
            say!("{line}");
        }
        let Some(mut tree) = read(file) else {
            all_ok = false;
            continue;
        };
        let renames = migrate(&mut tree, &types);
        let shown = file.display();
        if renames.is_empty() {
            say_out!("{shown}: up to date");
            continue;
        }
        for rename in &renames {
            say_out!("{shown}: {rename}");
        }
        if args.check {
            say_out!("{shown}: would change ({} renames)", renames.len());
            all_ok = false;
        } else if let Err(e) =
            arbor_runtime::files::write_atomic(file, tree.to_json_pretty().as_bytes())
        {
            say!("{shown}: cannot write the file: {e}");
            all_ok = false;
        } else {
            say_out!("{shown}: rewritten ({} renames)", renames.len());
        }
    }
    Ok(all_ok)
}

/// The tree file at `path`, or `None` after saying why not: unreadable, not a tree file,
/// or holding fields this version does not know (which a rewrite would drop).
pub(super) fn read(path: &Path) -> Option<TreeFile> {
    let shown = path.display();
    let text = match super::read_capped(path) {
        Ok(text) => text,
        Err(e) => {
            say!("{shown}: cannot read the file: {e}");
            return None;
        }
    };
    let tree = match parse_str(&text, Some(path)) {
        Ok(tree) => tree,
        Err(e) => {
            for problem in &e.problems {
                say!("{problem}");
            }
            return None;
        }
    };
    let unknown = !tree.unknown.is_empty()
        || tree.blackboard.iter().any(|k| !k.unknown.is_empty())
        || tree
            .nodes
            .iter()
            .any(|n| !n.unknown.is_empty() || n.decorators.iter().any(|d| !d.unknown.is_empty()));
    if unknown {
        say!(
            "{shown}: not rewritten: it has fields this version of Arbor does not know, which \
             rewriting would drop (`arbor check` lists them)"
        );
        return None;
    }
    Some(tree)
}
