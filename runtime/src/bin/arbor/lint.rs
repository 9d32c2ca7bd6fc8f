//! `arbor lint [--json]`: `arbor check`'s problems and lints (the same checks, see
//! check.rs), as one JSON document for tools with `--json`, as `check` prints them
//! without.

use std::path::PathBuf;

use arbor_runtime::Problem;
use clap::Args;
use serde_json::{json, Value};

use super::output::Failure;

#[derive(Args)]
pub(super) struct LintArgs {
    /// Node-types manifests declaring host node types, besides those each file lists in
    /// `editor.manifests` (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
    /// Print one JSON document (docs/cli.md) instead of lines.
    #[arg(long)]
    json: bool,
    /// Tree files to check.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Returns Ok(false) if any file has errors.
pub(super) fn run(args: &LintArgs) -> Result<bool, Failure> {
    if !args.json {
        return super::check::run(&args.types, &args.files);
    }
    let mut all_ok = true;
    let mut files = Vec::new();
    for checked in super::check::check_all(&args.types, &args.files)? {
        let ok = checked.report.is_ok();
        all_ok &= ok;
        let mut problems: Vec<Value> = checked
            .manifest_warnings
            .iter()
            .map(|w| json!({"severity": "warning", "message": w.trim_start_matches("warning: ")}))
            .collect();
        problems.extend(checked.report.problems.iter().map(problem));
        files.push(json!({
            "file": checked.file.display().to_string(),
            "ok": ok,
            "problems": problems,
        }));
    }
    super::output::write(&format!("{:#}\n", json!({ "files": files })))?;
    Ok(all_ok)
}

/// A problem as JSON: the parts of its `Display` line, each in its own member.
fn problem(p: &Problem) -> Value {
    let mut out = json!({
        "severity": if p.is_error() { "error" } else { "warning" },
        "file": &*p.file,
        "json_path": p.json_path,
        "message": p.message(),
    });
    if let Some((line, column)) = p.line {
        out["line"] = json!(line);
        out["column"] = json!(column);
    }
    if let Some(node) = &p.node {
        out["node"] = json!(node);
    }
    if let Some(label) = &p.node_label {
        out["node_label"] = json!(label);
    }
    out
}
