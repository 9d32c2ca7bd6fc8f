//! `arbor merge BASE OURS THEIRS -o OUT`: a three-way merge by GUID
//! (`arbor_runtime::merge::merge`), written atomically to OUT. With conflicts the file
//! still is written, with a `conflicts` section the loader and the editor list, and the
//! exit code is 1; a file that does not load, or versions of different trees, write
//! nothing and exit 2. As a git merge driver: `arbor merge %O %A %B -o %A`.

use std::path::PathBuf;

use arbor_runtime::merge::merge;
use clap::Args;

use super::output::Failure;

#[derive(Args)]
pub(super) struct MergeArgs {
    /// The common ancestor.
    #[arg(value_name = "BASE")]
    base: PathBuf,
    /// Our version.
    #[arg(value_name = "OURS")]
    ours: PathBuf,
    /// Their version.
    #[arg(value_name = "THEIRS")]
    theirs: PathBuf,
    /// Where to write the result (may be OURS, as a git merge driver does).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    out: PathBuf,
    /// Print one JSON document (docs/cli.md) describing the outcome.
    #[arg(long)]
    json: bool,
}

/// Returns Ok(true) for a clean merge.
pub(super) fn run(args: &MergeArgs) -> Result<bool, Failure> {
    let [base, ours, theirs] = super::inputs::read_all([&args.base, &args.ours, &args.theirs])?;
    let merged = merge(&base, &ours, &theirs).map_err(|e| Failure::Input(e.to_string()))?;
    let shown = args.out.display();
    arbor_runtime::files::write_atomic(&args.out, merged.to_json_pretty().as_bytes())
        .map_err(|e| Failure::Input(format!("{shown}: cannot write the file: {e}")))?;
    let clean = merged.conflicts.is_empty();
    if args.json {
        let doc = serde_json::json!({
            "clean": clean,
            "output": shown.to_string(),
            "conflicts": merged.conflicts,
        });
        super::output::write(&format!("{doc:#}\n"))?;
    } else {
        for (i, c) in merged.conflicts.iter().enumerate() {
            let id = if c.id.is_empty() {
                String::new()
            } else {
                format!(" {}", c.id)
            };
            let field = if c.field.is_empty() {
                String::new()
            } else {
                format!(" {}", c.field)
            };
            say!(
                "{shown}: $.conflicts[{i}]: {}{id}{field}: {}",
                c.scope,
                c.message
            );
        }
        if clean {
            say_out!("{shown}: merged cleanly");
        } else {
            say_out!("{shown}: merged with {} conflicts", merged.conflicts.len());
        }
    }
    Ok(clean)
}
