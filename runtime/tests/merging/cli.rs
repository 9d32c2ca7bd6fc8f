//! `arbor diff` and `arbor merge` as commands: exit codes, output, and bad input.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::cases::*;
use crate::common::{arbor, guid, text};

fn scratch(name: &str, files: &[(&str, String)]) -> Vec<PathBuf> {
    crate::common::scratch_files("merge", name, files)
}

fn s(p: &std::path::Path) -> String {
    p.display().to_string()
}

#[test]
fn diff_exits_0_for_the_same_tree_and_1_with_changes() {
    let base = base();
    let after = edited(&base, |f| node(f, B).name = "Bee".into());
    let p = scratch(
        "diff",
        &[
            ("a.json", base.to_json_pretty()),
            ("b.json", after.to_json_pretty()),
        ],
    );
    let same = arbor(&["diff", &s(&p[0]), &s(&p[0])]);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(text(&same.stdout), "");
    let out = arbor(&["diff", &s(&p[0]), &s(&p[1])]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "node-renamed: node \"Bee\" (Wait) {} name: \"B\" -> \"Bee\"\n",
            guid(B)
        )
    );
    let json_out = arbor(&["diff", "--json", &s(&p[0]), &s(&p[1])]);
    assert_eq!(json_out.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&text(&json_out.stdout)).expect("JSON");
    assert_eq!(doc["same"], false);
    assert_eq!(doc["summary"], json!({"node-renamed": 1}));
    assert_eq!(doc["changes"][0]["kind"], "node-renamed");
    assert_eq!(doc["changes"][0]["old"], "B");
}

#[test]
fn a_file_that_does_not_load_is_a_located_error_with_exit_2_and_nothing_written() {
    let base = base();
    let mut dup = base_json();
    dup["nodes"][2]["guid"] = json!(guid(A));
    let p = scratch(
        "bad",
        &[
            ("base.json", base.to_json_pretty()),
            ("dup.json", dup.to_string()),
            ("broken.json", "{".into()),
        ],
    );
    let out_path = p[0].with_file_name("out.json");
    let out = arbor(&[
        "merge",
        &s(&p[0]),
        &s(&p[1]),
        &s(&p[2]),
        "-o",
        &s(&out_path),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("dup.json: $.nodes[2].guid"), "{err}");
    assert!(err.contains("broken.json:1:"), "{err}");
    assert!(
        err.contains("2 files did not load; nothing was written"),
        "{err}"
    );
    assert!(!out_path.exists());
    let diff = arbor(&["diff", &s(&p[0]), &s(&p[1])]);
    assert_eq!(diff.status.code(), Some(2));
}

#[test]
fn different_trees_are_refused_with_exit_2() {
    let base = base();
    let other = edited(&base, |f| f.guid = guid(99));
    let p = scratch(
        "other",
        &[
            ("a.json", base.to_json_pretty()),
            ("b.json", other.to_json_pretty()),
        ],
    );
    let out_path = p[0].with_file_name("out.json");
    let out = arbor(&[
        "merge",
        &s(&p[0]),
        &s(&p[0]),
        &s(&p[1]),
        "-o",
        &s(&out_path),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the files are different trees"),
        "{}",
        text(&out.stderr)
    );
    assert!(!out_path.exists());
    let diff = arbor(&["diff", &s(&p[0]), &s(&p[1])]);
    assert_eq!(diff.status.code(), Some(2));
    assert!(text(&diff.stderr).contains("different trees"));
}

#[test]
fn merge_writes_the_result_and_exits_1_on_conflicts() {
    let base = base();
    let ours = edited(&base, |f| node(f, B).name = "ours".into());
    let theirs = edited(&base, |f| node(f, B).name = "theirs".into());
    let p = scratch(
        "conflict",
        &[
            ("base.json", base.to_json_pretty()),
            ("ours.json", ours.to_json_pretty()),
            ("theirs.json", theirs.to_json_pretty()),
        ],
    );
    let out_path = p[0].with_file_name("out.json");
    let out = arbor(&[
        "merge",
        &s(&p[0]),
        &s(&p[1]),
        &s(&p[2]),
        "-o",
        &s(&out_path),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert_eq!(doc["clean"], false);
    assert_eq!(doc["conflicts"][0]["field"], "name");
    let written = std::fs::read_to_string(&out_path).expect("written");
    assert!(written.contains("\"conflicts\""));
    let check = arbor(&["check", &s(&out_path)]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        text(&check.stderr).contains("$.conflicts[0] (node \"ours\" (Wait)): merge conflict"),
        "{}",
        text(&check.stderr)
    );
    let clean = arbor(&[
        "merge",
        &s(&p[0]),
        &s(&p[1]),
        &s(&p[0]),
        "-o",
        &s(&out_path),
    ]);
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(
        text(&clean.stdout),
        format!("{}: merged cleanly\n", s(&out_path))
    );
}
