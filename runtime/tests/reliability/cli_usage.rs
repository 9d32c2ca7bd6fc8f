//! The CLI's exit codes and blame: bad usage is 2; a structurally broken tree
//! is reported for what it is; `export` refuses what `check` refuses.

use serde_json::json;

use super::{counting, scratch, write_json};
use crate::common::{arbor, text, tree_json};

#[test]
fn a_dt_that_is_not_a_finite_non_negative_number_is_bad_usage() {
    for dt in ["nan", "inf", "-inf", "-1", "soon"] {
        // `--dt=…`: a value starting with `-` is then not taken for an option.
        let out = arbor(&["run", &counting(), "--ticks", "1", &format!("--dt={dt}")]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "--dt {dt}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains("--dt"), "{}", text(&out.stderr));
    }
    let out = arbor(&["run", &counting(), "--ticks", "1", "--dt", "0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

fn childless_inverter(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    write_json(
        &dir,
        "broken.json",
        &tree_json(json!({"type": "Inverter", "name": "not"}), json!([])),
    )
}

#[test]
fn run_on_a_broken_tree_reports_its_problems_not_host_actions() {
    let path = childless_inverter("cli-run-broken");
    let out = arbor(&["run", &path.display().to_string(), "--ticks", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Inverter takes exactly one child; found 0"),
        "{stderr}"
    );
    assert!(!stderr.contains("host"), "{stderr}");
}

#[test]
fn export_runs_the_loaders_checks_first() {
    let path = childless_inverter("cli-export-broken");
    let out = arbor(&["export", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).is_empty(), "nothing is written");
    assert!(
        text(&out.stderr).contains("Inverter takes exactly one child; found 0"),
        "{}",
        text(&out.stderr)
    );
}
