//! `arbor export`: an Arbor tree file (and its subtree files) -> one BehaviorTree.CPP v4
//! XML document, or the list of nodes that have no BT.CPP form.

use std::path::PathBuf;

use clap::Args;

use arbor_runtime::btcpp;

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
pub(super) fn run(args: &ExportArgs) -> Result<bool, super::output::Failure> {
    let types = super::node_types(&args.types)?;
    let exported = match btcpp::export_file(&args.file, &types) {
        Ok(x) => x,
        Err(e) => {
            say!(
                "{}: cannot be exported to BehaviorTree.CPP:",
                args.file.display()
            );
            for problem in &e.problems {
                say!("  {problem}");
            }
            return Ok(false);
        }
    };
    for warning in &exported.warnings {
        say!("warning: {warning}");
    }
    match &args.output {
        Some(path) => arbor_runtime::files::write_atomic(path, exported.xml.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?,
        None => super::output::write(&exported.xml)?,
    }
    Ok(true)
}
