//! `arbor import`: a BehaviorTree.CPP / Groot2 XML file -> Arbor tree files and a
//! node-types manifest, written next to the output file.

use std::path::PathBuf;

use clap::Args;

use super::output::Failure;

use arbor_runtime::btcpp;

#[derive(Args)]
pub(super) struct ImportArgs {
    /// The BehaviorTree.CPP XML file (`<include>`s are read relative to it).
    #[arg(value_name = "TREE.xml")]
    file: PathBuf,
    /// The main tree's output file; other trees become `<stem>.<ID>.json` and the custom
    /// node types `<stem>.types.json` in the same folder.
    #[arg(short = 'o', long = "output", value_name = "TREE.json")]
    output: PathBuf,
    /// A scripting enum the program registers (BT.CPP's `registerScriptingEnum`), such as
    /// `RED=1`: scripts read the name as that number. Repeat for each; they go into the
    /// manifest.
    #[arg(long = "enum", value_name = "NAME=VALUE")]
    enums: Vec<String>,
}

/// `NAME=VALUE` as a scripting enum.
fn script_enum(text: &str) -> Result<(String, i64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("--enum `{text}`: expected NAME=VALUE, such as RED=1"))?;
    let name = name.trim();
    arbor_runtime::NodeTypes::check_script_enum_name(name).map_err(|e| format!("--enum: {e}"))?;
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|e| format!("--enum `{text}`: the value is not a whole number ({e})"))?;
    Ok((name.to_owned(), value))
}

/// Prints the files written on stdout and the warnings on stderr.
pub(super) fn run(args: &ImportArgs) -> Result<bool, Failure> {
    let stem = args
        .output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("{}: not a file name", args.output.display()))?;
    let options = btcpp::ImportOptions {
        script_enums: args
            .enums
            .iter()
            .map(|e| script_enum(e))
            .collect::<Result<_, _>>()?,
        ..btcpp::ImportOptions::new(stem)
    };
    let imported = match btcpp::import_file_with(&args.file, options) {
        Ok(i) => i,
        Err(e) => {
            for problem in &e.problems {
                say!("{problem}");
            }
            return Ok(false);
        }
    };
    for warning in &imported.warnings {
        say!("warning: {warning}");
    }
    let dir = match args.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let written = imported
        .write_to(&dir)
        .map_err(|e| format!("{}: cannot write: {e}", dir.display()))?;
    for path in written {
        say_out!("{}", path.display());
    }
    Ok(true)
}
