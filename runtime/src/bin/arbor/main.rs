//! `arbor`, the command-line tool: `check`, `run`, `manifest`, `codegen`, `migrate`, `diff`,
//! `merge`, the tool commands (`show`, `lint`, `find-usages`, `rename-key`, `rename-type`),
//! and `import` / `export` of BehaviorTree.CPP XML. docs/cli.md documents it; the
//! `--trace` output and every `--json` output are stable interfaces for other tools.
//!
//! The tool is a client of the library's public API and lives in the binary, not in
//! `arbor_runtime`: a game that links the runtime compiles no argument parser (as ripgrep's
//! library crates carry none). It needs the `cli` feature (clap, and `btcpp` for
//! import/export): `cargo arbor …`, the workspace alias in .cargo/config.toml, turns it on.
//!
//! Everything returns a `Result` and `main` maps it to an exit code (as ripgrep's thin
//! `main`): 0 on success, 1 when a file has problems or a command fails, 2 on bad usage.

/// A line on stderr with control characters escaped ([`arbor_runtime::text::escape_controls`]):
/// every line that may quote user text (names, paths, messages) is printed through it, so
/// a name holding a newline or an ANSI escape cannot forge a line or colour the terminal.
/// A stderr that cannot be written is ignored (`eprintln!` would panic): there is nowhere
/// left to say anything.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", arbor_runtime::text::escape_controls(&text));
    }};
}

/// A line on stdout with control characters escaped, as [`say!`]; a failed write returns
/// [`output::Failure::Output`] from the calling function.
macro_rules! say_out {
    ($($arg:tt)*) => {
        crate::output::line(&arbor_runtime::text::escape_controls(&format!($($arg)*)))?
    };
}

mod check;
mod codegen;
mod diff;
mod export;
mod find_usages;
mod import;
mod inputs;
mod lint;
mod merge;
mod migrate;
mod output;
mod rename;
mod rewrite;
mod run;
mod show;
mod stimuli;
mod stubs;
mod trace_line;
mod types;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "arbor",
    version,
    about = "Check and run Arbor behavior-tree files; import and export BehaviorTree.CPP XML."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check tree files; print every problem on stderr; exit 1 if any file has errors.
    Check {
        /// Node-types manifests declaring host node types, besides those each file lists in
        /// `editor.manifests` (repeatable).
        #[arg(long = "types", value_name = "MANIFEST")]
        types: Vec<PathBuf>,
        /// Tree files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Tick a tree and print what happens; host nodes run through stubs.
    Run(run::RunArgs),
    /// Print the built-in node types as a node-types manifest (JSON).
    Manifest,
    /// Import a BehaviorTree.CPP / Groot2 XML file as Arbor tree files.
    Import(import::ImportArgs),
    /// Export a tree file (and its subtrees) as BehaviorTree.CPP v4 XML.
    Export(export::ExportArgs),
    /// Compile a tree file to a Rust module that runs it as generated code.
    Codegen(codegen::CodegenArgs),
    /// Rewrite old node-type and parameter names (declared aliases) to the current ones.
    Migrate(migrate::MigrateArgs),
    /// Show what changed between two versions of a tree, matched by GUID (exit 1 if any).
    Diff(diff::DiffArgs),
    /// Three-way merge of two versions of a tree (exit 1 on conflicts); a git merge driver.
    Merge(merge::MergeArgs),
    /// Print a tree's outline: keys, then nodes depth first.
    Show(show::ShowArgs),
    /// The problems and lints of `check`, as JSON with `--json`.
    Lint(lint::LintArgs),
    /// List where a key or a node type is used.
    FindUsages(find_usages::FindUsagesArgs),
    /// Rename a blackboard key at every use in the files (all or none rewritten).
    RenameKey(rename::RenameArgs),
    /// Rename a node type at every use in the files (all or none rewritten).
    RenameType(rename::RenameArgs),
}

/// `lines` without repeats, in first-seen order: a subtree used twice, or a manifest listed
/// by two files, reports its problem once.
fn once(lines: &[String]) -> impl Iterator<Item = &String> {
    let mut seen = std::collections::HashSet::new();
    lines.iter().filter(move |l| seen.insert(l.as_str()))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with exit 0; usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Check { types, files } => check::run(&types, &files),
        Command::Run(args) => run::run(&args),
        Command::Manifest => {
            output::write(&arbor_runtime::NodeTypes::builtin().manifest_where(|_| true))
                .map(|()| true)
        }
        Command::Import(args) => import::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Codegen(args) => codegen::run(&args),
        Command::Migrate(args) => migrate::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Lint(args) => lint::run(&args),
        Command::FindUsages(args) => find_usages::run(&args),
        Command::RenameKey(args) => rename::key(&args),
        Command::RenameType(args) => rename::kind(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(failure) => output::exit_code(failure),
    }
}

/// The built-in node types plus those the manifests declare. A manifest is read like a
/// tree file: a regular file, at most 16 MiB.
fn node_types(manifests: &[PathBuf]) -> Result<arbor_runtime::NodeTypes, String> {
    let mut types = arbor_runtime::NodeTypes::builtin();
    for manifest in manifests {
        let text = read_capped(manifest)
            .map_err(|e| format!("{}: cannot read the manifest: {e}", manifest.display()))?;
        types
            .merge_manifest(&text)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
    }
    Ok(types)
}

/// Reads a file named on the command line (manifest, stimuli) as tree files are read.
fn read_capped(path: &Path) -> Result<String, arbor_runtime::files::ReadError> {
    let limit = arbor_runtime::LoadOptions::default().max_file_bytes;
    arbor_runtime::files::read_text(path, limit)
}
