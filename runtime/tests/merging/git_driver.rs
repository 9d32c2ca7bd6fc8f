//! `arbor merge` as a git merge driver, in a real repository: two branches edit one tree
//! file and `git merge` runs the driver (docs/cli.md shows the setup this uses).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use super::cases::*;
use crate::common::guid;

/// A fresh repository set up as docs/cli.md says, with the base tree committed on `main`;
/// `None` (the test is skipped, saying so) when `git` is not installed.
fn repository(name: &str) -> Option<PathBuf> {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("skipped: `git` is not installed, so the merge driver cannot be tried");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("arbor-git-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let exe = env!("CARGO_BIN_EXE_arbor");
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["config", "user.email", "test@example.com"]);
    git(&dir, &["config", "user.name", "Test"]);
    git(&dir, &["config", "commit.gpgsign", "false"]);
    git(&dir, &["config", "merge.arbor.name", "Arbor tree merge"]);
    let driver = format!("'{exe}' merge %O %A %B -o %A");
    git(&dir, &["config", "merge.arbor.driver", &driver]);
    std::fs::write(dir.join(".gitattributes"), "*.json merge=arbor\n").expect("write");
    std::fs::write(dir.join("tree.json"), base().to_json_pretty()).expect("write");
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    Some(dir)
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    out
}

/// Commits `edit` of the base on a new branch `theirs`, and `mine` on `main`; then
/// merges `theirs` into `main`. Returns git's exit status and the merged file's text.
fn merge_branches(
    name: &str,
    mine: impl FnOnce(&mut arbor_runtime::format::TreeFile),
    theirs: impl FnOnce(&mut arbor_runtime::format::TreeFile),
) -> Option<(bool, String)> {
    let dir = repository(name)?;
    let commit = |edit: arbor_runtime::format::TreeFile, message: &str| {
        std::fs::write(dir.join("tree.json"), edit.to_json_pretty()).expect("write");
        let out = git(&dir, &["commit", "-q", "-am", message]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&dir, &["checkout", "-q", "-b", "theirs"]);
    commit(edited(&base(), theirs), "theirs");
    git(&dir, &["checkout", "-q", "main"]);
    commit(edited(&base(), mine), "mine");
    let out = git(&dir, &["merge", "--no-edit", "theirs"]);
    let text = std::fs::read_to_string(dir.join("tree.json")).expect("the merged file");
    let _ = std::fs::remove_dir_all(&dir);
    Some((out.status.success(), text))
}

#[test]
fn git_merge_with_the_driver_merges_edits_of_different_nodes() {
    let Some((ok, text)) = merge_branches(
        "clean",
        |f| node(f, A).name = "Aa".into(),
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
    ) else {
        return;
    };
    assert!(ok, "git merge succeeds");
    let merged = arbor_runtime::merge::tree_from_str(&text, None).expect("a tree file");
    assert!(merged.conflicts.is_empty());
    let expected = edited(&base(), |f| {
        node(f, A).name = "Aa".into();
        node(f, B).params.insert("seconds".into(), json!(5.0));
    });
    assert_eq!(merged, expected);
}

#[test]
fn git_merge_with_the_driver_reports_a_conflict_and_writes_the_conflicts_section() {
    let Some((ok, text)) = merge_branches(
        "conflict",
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
        |f| {
            node(f, B).params.insert("seconds".into(), json!(7.0));
        },
    ) else {
        return;
    };
    assert!(!ok, "git merge stops on the conflict");
    assert!(
        !text.contains("<<<<<<<"),
        "no text conflict markers:\n{text}"
    );
    let merged = arbor_runtime::parse_str(&text, None).expect("the editor can open it");
    assert_eq!(merged.conflicts.len(), 1);
    assert_eq!(merged.conflicts[0].id, guid(B));
    assert_eq!(merged.conflicts[0].theirs, Some(json!(7.0)));
}
