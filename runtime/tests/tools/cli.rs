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
    let bad = bad_counting("check_bad", |tree| {
        tree["nodes"][0]["type"] = "Selectr".into();
        tree["nodes"][2]["params"]["by"] = "ten".into();
    });
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
fn run_refuses_undeclared_host_nodes_with_a_clear_error() {
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
    assert!(stderr.contains("--stub TYPE=STATUS"), "{stderr}");
}

fn host_tree() -> String {
    data("host_tree.json").display().to_string()
}

/// The trace of a host tree run through stubs: host nodes appear like any other, each
/// returning its stub's statuses in turn (the last repeating), with the manifest the file
/// lists in `editor.manifests`.
#[test]
fn run_host_tree_with_stubs_traces_the_host_nodes() {
    let out = arbor(&[
        "run",
        &host_tree(),
        "--ticks",
        "4",
        "--trace",
        "--stub",
        "MoveTo=running,running,success",
        "--stub",
        "IsHungry=success",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "no warnings");
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let statuses: Vec<&str> = lines
        .iter()
        .map(|l| l["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["running", "running", "success", "success"]);
    // Tick 1: the condition's body and the action's body ran, with their stubs' statuses.
    let ticks = |line: &Value| -> Vec<(String, String)> {
        line["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["event"] == "tick")
            .map(|e| {
                (
                    e["name"].as_str().unwrap().to_owned(),
                    e["status"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        ticks(&lines[0]),
        pairs(&[
            ("hungry?", "success"),
            ("walk", "running"),
            ("errand", "running")
        ])
    );
    // Tick 2: the sequence resumes at the running action.
    assert_eq!(
        ticks(&lines[1]),
        pairs(&[("walk", "running"), ("errand", "running")])
    );
    assert_eq!(
        ticks(&lines[2]),
        pairs(&[("walk", "success"), ("errand", "success")])
    );
    // Tick 4: a new execution; the list has ended, so the last status repeats.
    assert_eq!(
        ticks(&lines[3]),
        pairs(&[
            ("hungry?", "success"),
            ("walk", "success"),
            ("errand", "success")
        ])
    );
    let walk = lines[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "walk")
        .expect("the host action is traced");
    assert_eq!(walk["event"], "enter");
    assert_eq!(walk["node"], "5e0c1b7a-1d2e-4c3b-8a4f-000000000003");
    assert_eq!(lines[0]["blackboard"]["goal"], 3.0);
}

#[test]
fn run_reads_stubs_from_a_file_and_the_command_line_wins() {
    let dir = tempdir("stubs_file");
    let stubs = dir.join("stubs.json");
    std::fs::write(
        &stubs,
        r#"{"MoveTo": ["failure"], "IsHungry": ["success"]}"#,
    )
    .unwrap();
    let tree = host_tree();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            tree.as_str(),
            "--ticks",
            "1",
            "--stubs",
            stubs.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = arbor(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    assert_eq!(run(&[]), "tick 1: failure\n");
    assert_eq!(run(&["--stub", "MoveTo=success"]), "tick 1: success\n");
}

#[test]
fn run_reports_each_host_node_without_a_stub_where_it_is() {
    let out = arbor(&[
        "run",
        &host_tree(),
        "--ticks",
        "1",
        "--stub",
        "IsHungry=success",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("$.nodes[2]"), "{stderr}");
    assert!(
        stderr.contains("host node type `MoveTo` has no stub"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty(), "nothing ran");
    // --default-stub covers every type without a stub of its own.
    let out = arbor(&[
        "run",
        &host_tree(),
        "--ticks",
        "1",
        "--default-stub",
        "success",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "tick 1: success\n");
}

#[test]
fn run_rejects_bad_stubs_before_running() {
    for (stub, expected) in [
        ("MoveTo=walking", "`walking` is not a status"),
        ("MoveTo", "expected TYPE=STATUS"),
        ("MovTo=success", "no host node type `MovTo` is declared"),
        ("IsHungry=running", "is a condition"),
    ] {
        let out = arbor(&["run", &host_tree(), "--ticks", "1", "--stub", stub]);
        assert_eq!(out.status.code(), Some(1), "{stub}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{stub}: {stderr}");
        assert!(text(&out.stdout).is_empty());
    }
}

/// `arbor check` reads the manifests a file lists, as the editor does: the villager sample
/// names 16 host types declared in ../manifests/villager.json.
#[test]
fn check_reads_the_manifests_the_file_lists() {
    let villager = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/trees/villager.json");
    let out = arbor(&["check", villager.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("unknown node type"));
    let out = arbor(&["check", &host_tree()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// The host tree, written to a fresh folder as a file whose `editor.manifests` lists
/// `gone.json`, which does not exist.
fn listing_a_missing_manifest(folder: &str) -> PathBuf {
    let file = tempdir(folder).join("tree.json");
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(data("host_tree.json")).unwrap()).unwrap();
    tree["editor"]["manifests"] = serde_json::json!(["gone.json"]);
    std::fs::write(&file, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    file
}

#[test]
fn check_warns_once_about_a_listed_manifest_it_cannot_read() {
    let file = listing_a_missing_manifest("missing_manifest");
    let out = arbor(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("$.editor.manifests[0]").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("unknown node type `MoveTo`"), "{stderr}");
    // With the program's manifest on the command line it passes, still warning once.
    let manifest = data("host_types.json").display().to_string();
    let out = arbor(&["check", "--types", &manifest, file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr).matches("warning").count(), 1);
}

/// `arbor run` says each warning once, whether the tree loads or not: a manifest the file
/// lists but that is gone is named once, not once per place that looked for it.
#[test]
fn run_prints_each_warning_once() {
    let file = listing_a_missing_manifest("run_warns_once");
    let file = file.to_str().unwrap();
    let manifest = data("host_types.json").display().to_string();
    let runs: [&[&str]; 2] = [
        // Loads: the host types come from the command line.
        &[
            "run",
            "--types",
            &manifest,
            "--default-stub",
            "success",
            "--ticks",
            "3",
            file,
        ],
        // Does not load: nothing declares the host types.
        &["run", "--ticks", "3", file],
    ];
    for args in runs {
        let out = arbor(args);
        let stderr = text(&out.stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let mut unique = lines.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            lines.len(),
            unique.len(),
            "{args:?}: a line repeats:\n{stderr}"
        );
        assert_eq!(
            stderr.matches("$.editor.manifests[0]").count(),
            1,
            "{args:?}:\n{stderr}"
        );
    }
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

/// The counting tree, broken by `edit`, written as `bad.json` in a fresh folder `name`.
fn bad_counting(name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let bad = tempdir(name).join("bad.json");
    let mut tree: Value =
        serde_json::from_str(&std::fs::read_to_string(data("counting.json")).unwrap()).unwrap();
    edit(&mut tree);
    std::fs::write(&bad, serde_json::to_string_pretty(&tree).unwrap()).unwrap();
    bad
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `arbor codegen`: writes a module that embeds the tree by its path relative to the
/// output file and is the same as the library's output; stdout without `-o`.
#[test]
fn codegen_writes_a_module_next_to_its_tree() {
    let dir = tempdir("codegen");
    let out_file = dir.join("errand.rs");
    let types = data("host_types.json").display().to_string();
    let tree = data("host_tree.json").display().to_string();
    let out = arbor(&[
        "codegen",
        &tree,
        "--types",
        &types,
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let code = std::fs::read_to_string(&out_file).expect("the module was written");
    assert!(
        code.starts_with("// @generated by `arbor codegen` (arbor-runtime "),
        "{code}"
    );
    // The tree's path as seen from the module's folder, `/`-separated.
    let include = code
        .lines()
        .find(|l| l.starts_with("pub const SOURCE"))
        .expect("SOURCE");
    assert!(
        include.contains("tests/data/cli/host_tree.json\")"),
        "{include}"
    );
    assert!(include.contains("include_str!(\"../"), "{include}");
    assert!(code.contains("x.leaf::<1>(&self.leaves[0])"), "{code}");
    // Deterministic: the same input gives the same bytes; --manifest is --types.
    let again = arbor(&[
        "codegen",
        &tree,
        "--manifest",
        &types,
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&out_file).expect("rewritten"), code);
    let stdout = arbor(&["codegen", &tree, "--types", &types]);
    assert!(stdout.status.success());
    assert!(text(&stdout.stdout).contains(&format!("include_str!({tree:?})")));
}

#[test]
fn codegen_of_a_tree_that_does_not_load_exits_1_with_located_problems() {
    let bad = bad_counting("codegen_bad", |tree| {
        tree["nodes"][0]["type"] = "Selectr".into()
    });
    let out = arbor(&["codegen", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad.json: cannot generate code:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("$.nodes[0].type (node \"node1\" (Selectr)): unknown node type `Selectr`"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty());
    let missing = arbor(&["codegen", "no/such/tree.json"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        text(&missing.stderr).contains("no/such/tree.json"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn check_warns_about_a_key_read_but_never_written_and_exits_0() {
    let dir = tempdir("check_unwritten");
    let file = dir.join("unwritten.json");
    let mut tree = crate::common::tree_json(
        serde_json::json!({"type": "Sequence", "children": [
            {"type": "Condition", "name": "alarmed", "params": {"key": "alarm", "equals": true}}
        ]}),
        serde_json::json!([{"key": "alarm", "type": "bool"}]),
    );
    tree["version"] = 2.into();
    std::fs::write(&file, tree.to_string()).unwrap();
    let out = arbor(&["check", file.to_str().unwrap()]);
    assert!(out.status.success(), "a warning is not an error");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("$.blackboard[0].key")
            && stderr.contains(
                "key `alarm` is read (by alarmed (Condition)) but nothing in the tree writes it"
            ),
        "{stderr}"
    );
}

/// `arbor migrate`: rewrites old type and parameter names in place and says what it
/// changed; `--check` changes nothing and exits 1 while a file would change; a migrated
/// file is up to date.
#[test]
fn migrate_rewrites_old_names_in_place_and_check_mode_fails_until_done() {
    let dir = tempdir("migrate");
    let manifest = dir.join("types.json");
    let types = crate::loading::renames::renamed_types();
    let host = types.manifest_where(|t| t.host);
    std::fs::write(&manifest, host).expect("write manifest");
    let tree = dir.join("old.json");
    let old = crate::common::tree_json(
        serde_json::json!({"type": "Sequence", "children": [
            {"type": "Walk", "name": "go", "params": {"speed": 2.0}}
        ]}),
        serde_json::json!([]),
    )
    .to_string();
    std::fs::write(&tree, &old).expect("write tree");
    let (m, t) = (manifest.display().to_string(), tree.display().to_string());

    let out = arbor(&["migrate", "--check", "--types", &m, &t]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("$.nodes[1].type: type `Walk` -> `Stride`"),
        "{stdout}"
    );
    assert!(stdout.contains("would change (2 renames)"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&tree).expect("read"),
        old,
        "unchanged"
    );

    let out = arbor(&["migrate", "--types", &m, &t]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("rewritten (2 renames)"));
    let new = std::fs::read_to_string(&tree).expect("read");
    assert!(
        new.contains("\"Stride\"") && new.contains("\"pace\""),
        "{new}"
    );
    assert!(
        !new.contains("\"Walk\"") && !new.contains("\"speed\""),
        "{new}"
    );

    let out = arbor(&["migrate", "--check", "--types", &m, &t]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("up to date\n"));
    let out = arbor(&["check", "--types", &m, &t]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "no warning left");
}
