//! `arbor find-usages NAME FILE…`: every place where NAME is used, as a node or decorator
//! type and as a blackboard key (`arbor_runtime::refactor`): the places `rename-type` and
//! `rename-key` would rewrite.

use std::path::PathBuf;

use arbor_runtime::refactor::{key_usages, type_usages};
use clap::Args;

use super::output::Failure;

#[derive(Args)]
pub(super) struct FindUsagesArgs {
    /// Node-types manifests declaring host node types (which of their parameters name
    /// keys), besides those each file lists in `editor.manifests` (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
    /// Print one JSON document (docs/cli.md) instead of lines.
    #[arg(long)]
    json: bool,
    /// A key name or a node type.
    #[arg(value_name = "KEY|TYPE")]
    name: String,
    /// Tree files to search.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Returns Ok(false) when a file did not load.
pub(super) fn run(args: &FindUsagesArgs) -> Result<bool, Failure> {
    let base = super::types::explicit(&args.types)?;
    let given = super::rename::given(&args.files);
    let mut all_ok = true;
    let mut found = Vec::new();
    for file in &args.files {
        let Some(tree) = super::migrate::read(file) else {
            all_ok = false;
            continue;
        };
        let (types, _) = super::types::with_listed(&base, file);
        let subtree = super::rename::subtree_in(file, &given);
        let mut uses = type_usages(&tree, &args.name);
        uses.extend(key_usages(&tree, &types, &args.name, &subtree));
        let shown = file.display().to_string();
        if !args.json {
            for u in &uses {
                match &u.node_label {
                    Some(label) => say_out!(
                        "{shown}: {} (node {label}): {}",
                        u.json_path,
                        u.kind.as_str()
                    ),
                    None => say_out!("{shown}: {}: {}", u.json_path, u.kind.as_str()),
                }
            }
        }
        found.push(serde_json::json!({ "file": shown, "usages": uses }));
    }
    if args.json {
        let doc = serde_json::json!({ "name": args.name, "files": found });
        super::output::write(&format!("{doc:#}\n"))?;
    }
    Ok(all_ok)
}
