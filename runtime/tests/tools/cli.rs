//! The `arbor` command line: exit codes, messages and the `--trace` interface (docs/cli.md).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{arbor, text};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cli")
        .join(name)
}

fn counting() -> String {
    data("counting.json").display().to_string()
}

#[test]
fn run_counting_tree_target_20_succeeds() {
    let stimuli = data("target20.json").display().to_string();
    let out = arbor(&["run", &counting(), "--ticks", "1", "--stimuli", &stimuli]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "tick 1: success\n");
}

#[test]
fn run_counting_tree_target_30_fails_with_current_20() {
    let stimuli = data("target30.json").display().to_string();
    let out = arbor(&[
        "run",
        &counting(),
        "--ticks",
        "1",
        "--stimuli",
        &stimuli,
        "--trace",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line: Value = serde_json::from_str(text(&out.stdout).trim()).expect("one JSON line");
    assert_eq!(line["tick"], 1);
    assert_eq!(line["status"], "failure");
    assert_eq!(line["blackboard"]["current"], 20);
    assert_eq!(line["blackboard"]["target"], 30);
    assert_eq!(line["triggers"], serde_json::json!([]));
}

#[test]
fn trace_lines_follow_the_documented_shape() {
    let out = arbor(&["run", &counting(), "--ticks", "3", "--dt", "0.5", "--trace"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    for (i, raw) in lines.iter().enumerate() {
        assert!(
            raw.starts_with(&format!("{{\"tick\":{}", i + 1)),
            "tick comes first: {raw}"
        );
        let line: Value = serde_json::from_str(raw).expect("valid JSON");
        let events = line["events"].as_array().expect("events array");
        // The root enters first and exits last; tick events carry a status, enter never.
        assert_eq!(
            events.first().map(|e| &e["event"]),
            Some(&Value::from("enter"))
        );
        assert_eq!(
            events.last().map(|e| &e["event"]),
            Some(&Value::from("exit"))
        );
        for e in events {
            let kind = e["event"].as_str().expect("event kind");
            assert!(["enter", "tick", "exit", "abort"].contains(&kind));
            assert!(
                e["node"].as_str().is_some_and(|g| g.len() == 36),
                "node is a GUID"
            );
            assert!(e["name"].is_string());
            match kind {
                "tick" | "exit" => assert!(e["status"].is_string()),
                _ => assert!(e.get("status").is_none()),
            }
        }
    }
}

#[test]
fn check_accepts_a_valid_file() {
    let out = arbor(&["check", &counting()]);
    assert!(out.status.success());
    assert!(text(&out.stdout).ends_with("counting.json: ok\n"));
}

#[test]
fn check_reports_every_problem_and_exits_1() {
    let dir = tempdir("check_bad");
    let bad = dir.join("bad.json");
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(data("counting.json")).unwrap()).unwrap();
    tree["nodes"][0]["type"] = "Selectr".into();
    tree["nodes"][2]["params"]["by"] = "ten".into();
    std::fs::write(&bad, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    let out = arbor(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("$.nodes[0].type (node \"node1\" (Selectr)): unknown node type `Selectr`; did you mean `Selector`?"), "{stderr}");
    assert!(stderr.contains("$.nodes[2].params.by"), "{stderr}");
    assert!(
        stderr.contains("expected an integer, found string \"ten\""),
        "{stderr}"
    );
}

#[test]
fn check_reports_binding_problems_with_their_location() {
    let dir = tempdir("check_binding");
    let bad = dir.join("bound.json");
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(data("counting.json")).unwrap()).unwrap();
    tree["version"] = 2.into();
    tree["blackboard"]
        .as_array_mut()
        .expect("counting declares keys")
        .push(serde_json::json!({"key": "label", "type": "string", "default": "x"}));
    tree["nodes"][2]["params"]["by"] = serde_json::json!({"$key": "label"});
    std::fs::write(&bad, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    let out = arbor(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("$.nodes[2].params.by (node ")
            && stderr.contains("cannot read key `label`: the key is declared string"),
        "{stderr}"
    );
}

#[test]
fn check_reports_malformed_json_with_line_and_column() {
    let dir = tempdir("check_syntax");
    let bad = dir.join("broken.json");
    std::fs::write(
        &bad,
        "{\n  \"format\": \"arbor-tree\",\n  \"version\": 1,\n  \"nodes\": [\n}\n",
    )
    .unwrap();
    let out = arbor(&["check", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("broken.json:5:1: invalid JSON"), "{stderr}");
}

#[test]
fn run_refuses_host_nodes_with_a_clear_error() {
    let dir = tempdir("run_host");
    let file = dir.join("host.json");
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(data("counting.json")).unwrap()).unwrap();
    tree["nodes"][2]["type"] = "WalkTo".into();
    tree["nodes"][2]["params"] = serde_json::json!({});
    std::fs::write(&file, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    let out = arbor(&["run", file.to_str().unwrap(), "--ticks", "1"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("unknown node type `WalkTo`"), "{stderr}");
    assert!(stderr.contains("runs built-in nodes only"), "{stderr}");
}

#[test]
fn stimuli_naming_an_undeclared_key_fail_before_running() {
    let dir = tempdir("stimuli_bad");
    let stimuli = dir.join("s.json");
    std::fs::write(&stimuli, r#"{"2": {"set": {"targte": 20}}}"#).unwrap();
    let out = arbor(&[
        "run",
        &counting(),
        "--ticks",
        "3",
        "--stimuli",
        stimuli.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("$.2.set.targte: the tree declares no blackboard key `targte`")
    );
    assert!(text(&out.stdout).is_empty(), "nothing ran");
}

#[test]
fn manifest_prints_every_builtin_type() {
    let out = arbor(&["manifest"]);
    assert!(out.status.success());
    let manifest: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(manifest["format"], "arbor-node-types");
    let names: Vec<&str> = manifest["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str())
        .collect();
    for expected in [
        "Sequence", "Selector", "Parallel", "Repeat", "Retry", "Timeout", "Wait", "Scripted",
        "Subtree",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(arbor(&["run"]).status.code(), Some(2));
    assert_eq!(arbor(&["frobnicate"]).status.code(), Some(2));
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
