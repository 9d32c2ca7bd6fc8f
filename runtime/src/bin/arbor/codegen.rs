//! `arbor codegen`: a tree file -> a Rust module that runs it as generated code
//! (`arbor_runtime::codegen`, docs/embedding.md "Generated code").

use std::path::{Path, PathBuf};

use clap::Args;

#[derive(Args)]
pub(super) struct CodegenArgs {
    /// The tree file.
    #[arg(value_name = "TREE.json")]
    file: PathBuf,
    /// Where to write the Rust module; stdout if omitted. The module embeds the tree file
    /// with `include_str!` by its path relative to this file.
    #[arg(short = 'o', long = "output", value_name = "OUT.rs")]
    output: Option<PathBuf>,
    /// Node-types manifests declaring host node types, besides those the file lists
    /// (repeatable).
    #[arg(long = "types", visible_alias = "manifest", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
}

/// Returns Ok(false), after printing every problem on stderr, if the tree does not load.
pub(super) fn run(args: &CodegenArgs) -> Result<bool, super::output::Failure> {
    let base = super::node_types(&args.types)?;
    let (types, warnings) = super::types::with_listed(&base, &args.file);
    for warning in &warnings {
        say!("{warning}");
    }
    let include_path = match &args.output {
        Some(out) => relative_to(&args.file, out)?,
        None => args.file.display().to_string(),
    };
    let generator = format!(
        "`arbor codegen` (arbor-runtime {})",
        env!("CARGO_PKG_VERSION")
    );
    let options = arbor_runtime::codegen::Options {
        include_path: &include_path,
        generator: &generator,
    };
    let code = match arbor_runtime::codegen::generate(&args.file, &types, &options) {
        Ok(code) => code,
        Err(e) => {
            say!("{}: cannot generate code:", args.file.display());
            for problem in &e.problems {
                say!("  {problem}");
            }
            return Ok(false);
        }
    };
    match &args.output {
        Some(path) => arbor_runtime::files::write_atomic(path, code.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?,
        None => super::output::write(&code)?,
    }
    Ok(true)
}

/// `file`'s path as seen from the folder of `out` (which may not exist yet), with `/`
/// separators so the generated file reads the same on every system.
fn relative_to(file: &Path, out: &Path) -> Result<String, String> {
    let file = file
        .canonicalize()
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(arbor_runtime::files::relative_path(&dir, &file))
}
