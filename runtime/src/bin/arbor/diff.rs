//! `arbor diff A B`: what changed from tree file A to tree file B, matched by GUID (see
//! `arbor_runtime::merge::diff`): one line per change, or one JSON document with `--json`.
//! Exit 0 when the trees are the same, 1 when they differ, 2 when a file does not load or
//! the files are different trees.

use std::path::PathBuf;

use arbor_runtime::merge::{diff, summary};
use clap::Args;

use super::output::Failure;

#[derive(Args)]
pub(super) struct DiffArgs {
    /// The old version.
    #[arg(value_name = "A")]
    old: PathBuf,
    /// The new version.
    #[arg(value_name = "B")]
    new: PathBuf,
    /// Print one JSON document (docs/cli.md) instead of lines.
    #[arg(long)]
    json: bool,
}

/// Returns Ok(true) when the trees are the same.
pub(super) fn run(args: &DiffArgs) -> Result<bool, Failure> {
    let [old, new] = super::inputs::read_all([&args.old, &args.new])?;
    if old.guid != new.guid {
        return Err(Failure::Input(format!(
            "the files are different trees (tree GUIDs {} and {}); only versions of one tree \
             (the same `guid`) can be compared",
            old.guid, new.guid
        )));
    }
    let changes = diff(&old, &new);
    if args.json {
        let doc = serde_json::json!({
            "same": changes.is_empty(),
            "summary": summary(&changes),
            "changes": changes,
        });
        super::output::write(&format!("{doc:#}\n"))?;
    } else {
        for change in &changes {
            say_out!("{change}");
        }
    }
    Ok(changes.is_empty())
}
