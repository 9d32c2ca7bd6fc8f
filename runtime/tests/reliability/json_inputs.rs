//! JSON the user writes: a key repeated in one object is refused with its JSON path, line
//! and column (not read as its last value), and a stimuli `ttl` must be a number.

use arbor_runtime::{check_file, check_str, LoadOptions, NodeTypes};

use super::{counting, scratch};
use crate::common::{arbor, text};

const TREE: &str = r#"{
  "format": "arbor-tree",
  "version": 1,
  "guid": "00000000-0000-4000-8000-000000000000",
  "name": "dup",
  "blackboard": [],
  "root": "00000000-0000-4000-8000-000000000001",
  "nodes": [
    {
      "guid": "00000000-0000-4000-8000-000000000001",
      "name": "wait",
      "type": "Wait",
      "params": {"seconds": 1, "seconds": 5}
    }
  ]
}"#;

#[test]
fn a_repeated_key_in_a_tree_file_is_refused_located() {
    let report = check_str(TREE, None, &NodeTypes::builtin(), &LoadOptions::default());
    assert!(!report.is_ok());
    let line = report.problems[0].to_string();
    assert!(
        line.ends_with(
            ":13:40: $.nodes[0].params: duplicate key `seconds`: a key may appear once in an object"
        ),
        "{line}"
    );
    // Top-level fields too, where the typed reader would have taken the last.
    let twice = TREE.replacen(
        "\"name\": \"dup\",",
        "\"name\": \"dup\", \"name\": \"other\",",
        1,
    );
    let report = check_str(&twice, None, &NodeTypes::builtin(), &LoadOptions::default());
    assert!(
        report.problems[0]
            .to_string()
            .contains(":5:23: duplicate key `name`"),
        "{:?}",
        report.problems
    );
    let dir = scratch("dup-keys");
    let path = dir.join("dup.json");
    std::fs::write(&path, TREE).expect("write");
    let report = check_file(&path, &NodeTypes::builtin(), &LoadOptions::default());
    assert!(
        report.problems[0]
            .to_string()
            .starts_with(&format!("{}:13:40: ", path.display())),
        "{:?}",
        report.problems
    );
}

#[test]
fn a_stimuli_ttl_that_is_not_a_number_of_seconds_is_refused_located() {
    let dir = scratch("stimuli-ttl");
    for ttl in ["\"2\"", "null", "-1", "[1]"] {
        let path = dir.join("stimuli.json");
        std::fs::write(
            &path,
            format!(
                "{{\n  \"1\": {{\"set\": {{\"target\": {{\"value\": 30, \"ttl\": {ttl}}}}}}}\n}}\n"
            ),
        )
        .expect("write");
        let shown = path.display().to_string();
        let out = arbor(&["run", &counting(), "--ticks", "1", "--stimuli", &shown]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "ttl {ttl}: {stderr}");
        assert!(
            stderr.contains(&format!("{shown}:2:"))
                && stderr.contains("$.1.set.target: `ttl` must be a number of seconds, 0 or more"),
            "ttl {ttl}: {stderr}"
        );
    }
    // A number is a time to live.
    let path = dir.join("good.json");
    std::fs::write(
        &path,
        "{\"1\": {\"set\": {\"target\": {\"value\": 30, \"ttl\": 0.5}}}}",
    )
    .expect("write");
    let out = arbor(&[
        "run",
        &counting(),
        "--ticks",
        "1",
        "--stimuli",
        &path.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
