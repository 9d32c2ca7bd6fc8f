//! `arbor export`: an Arbor tree file (and its subtree files) -> one BehaviorTree.CPP v4
//! XML document, or the list of nodes that have no BT.CPP form.

use std::path::PathBuf;

use clap::Args;

use arbor_runtime::{btcpp, NodeTypes};

#[derive(Args)]
pub(super) struct ExportArgs {
    /// The tree file.
    #[arg(value_name = "TREE.json")]
    file: PathBuf,
    /// Where to write the XML; stdout if omitted.
    #[arg(short = 'o', long = "output", value_name = "TREE.xml")]
    output: Option<PathBuf>,
    /// Node-types manifests declaring host node types, besides those the file lists
    /// (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
}

/// Returns Ok(false), after printing every problem on stderr, if the tree cannot be
/// exported.
pub(super) fn run(args: &ExportArgs) -> Result<bool, String> {
    let mut types = NodeTypes::builtin();
    for manifest in &args.types {
        let text = std::fs::read_to_string(manifest)
            .map_err(|e| format!("{}: cannot read the manifest: {e}", manifest.display()))?;
        types
            .merge_manifest(&text)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    let exported = match btcpp::export_file(&args.file, &types) {
        Ok(x) => x,
        Err(e) => {
            eprintln!(
                "{}: cannot be exported to BehaviorTree.CPP:",
                args.file.display()
            );
            for problem in &e.problems {
                eprintln!("  {problem}");
            }
            return Ok(false);
        }
    };
    for warning in &exported.warnings {
        eprintln!("warning: {warning}");
    }
    match &args.output {
        Some(path) => std::fs::write(path, &exported.xml)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?,
        None => print!("{}", exported.xml),
    }
    Ok(true)
}
