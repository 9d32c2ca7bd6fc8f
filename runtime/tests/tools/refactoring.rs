//! The tool commands: `show`, `lint`, `find-usages`, `rename-key`, `rename-type`, each with
//! `--json` (docs/cli.md).

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::{arbor, guid, text};

/// A tree that uses key `hp` in every way a key can be used, and type `Wait` twice.
fn tree() -> Value {
    json!({
        "format": "arbor-tree", "version": 3, "guid": guid(0), "name": "uses",
        "blackboard": [{"key": "hp", "type": "int", "default": 3},
                       {"key": "t", "type": "float", "default": 1.0},
                       {"key": "msg", "type": "string"}],
        "root": guid(1),
        "nodes": [
            {"guid": guid(1), "name": "Root", "type": "Sequence",
             "children": [guid(2), guid(3), guid(4), guid(5)]},
            {"guid": guid(2), "name": "set", "type": "SetBlackboard",
             "params": {"key": "hp", "value": 4}},
            {"guid": guid(3), "name": "count", "type": "Script",
             "params": {"code": "hp := hp + 1; msg := 'hp'"}},
            {"guid": guid(4), "name": "wait", "type": "Wait",
             "params": {"seconds": {"$key": "t"}}},
            {"guid": guid(5), "name": "wait hp", "type": "Wait",
             "params": {"seconds": {"$key": "hp"}},
             "decorators": [{"guid": guid(6), "name": "not", "type": "Inverter"}]}
        ]
    })
}

fn scratch(name: &str, files: &[(&str, String)]) -> Vec<PathBuf> {
    crate::common::scratch_files("tools", name, files)
}

fn s(p: &std::path::Path) -> String {
    p.display().to_string()
}

fn pretty(v: &Value) -> String {
    let file: arbor_runtime::format::TreeFile = serde_json::from_value(v.clone()).expect("tree");
    file.to_json_pretty()
}

#[test]
fn show_prints_the_outline_and_its_json() {
    let p = scratch("show", &[("t.json", pretty(&tree()))]);
    let out = arbor(&["show", &s(&p[0])]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!("tree \"uses\" {}\nkey hp: int = 3\n", guid(0))),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("  Sequence \"Root\" {}\n", guid(1))),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "    Wait \"wait hp\" {} seconds={{\"$key\":\"hp\"}}\n      @Inverter \"not\" {}\n",
            guid(5),
            guid(6)
        )),
        "{stdout}"
    );
    let out = arbor(&["show", "--json", &s(&p[0])]);
    let doc: Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert_eq!(doc["nodes"][0]["depth"], 0);
    assert_eq!(doc["nodes"][4]["parent"], json!(guid(1)));
    assert_eq!(doc["nodes"][4]["decorators"][0]["type"], "Inverter");
    assert_eq!(
        doc["blackboard"][0],
        json!({"key": "hp", "type": "int", "default": 3})
    );
}

#[test]
fn lint_gives_checks_problems_as_json() {
    let mut bad = tree();
    bad["nodes"][3]["type"] = json!("Wiat");
    let p = scratch(
        "lint",
        &[("bad.json", pretty(&bad)), ("good.json", pretty(&tree()))],
    );
    let out = arbor(&["lint", "--json", &s(&p[0]), &s(&p[1])]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert_eq!(doc["files"][0]["ok"], false);
    assert_eq!(doc["files"][1]["ok"], true);
    let first = &doc["files"][0]["problems"][0];
    assert_eq!(first["severity"], "error");
    assert_eq!(first["json_path"], "$.nodes[3].type");
    assert_eq!(first["node"], json!(guid(4)));
    assert!(
        first["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean `Wait`")),
        "{first}"
    );
    // Without --json, lint prints what check prints.
    let lint = arbor(&["lint", &s(&p[0])]);
    let check = arbor(&["check", &s(&p[0])]);
    assert_eq!(
        (text(&lint.stdout), text(&lint.stderr)),
        (text(&check.stdout), text(&check.stderr))
    );
}

#[test]
fn find_usages_lists_every_use_of_a_key_and_of_a_type() {
    let p = scratch("find", &[("t.json", pretty(&tree()))]);
    let out = arbor(&["find-usages", "--json", "hp", &s(&p[0])]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    let uses: Vec<(String, String)> = doc["files"][0]["usages"]
        .as_array()
        .expect("usages")
        .iter()
        .map(|u| {
            (
                u["kind"].as_str().unwrap_or("").to_owned(),
                u["json_path"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("key-declaration", "$.blackboard[0].key"),
        ("key-param", "$.nodes[1].params.key"),
        ("script", "$.nodes[2].params.code"),
        ("binding", "$.nodes[4].params.seconds"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(uses, expected);
    let out = arbor(&["find-usages", "Wait", &s(&p[0])]);
    assert_eq!(
        text(&out.stdout),
        format!(
            "{f}: $.nodes[3].type (node \"wait\" (Wait)): node-type\n{f}: $.nodes[4].type (node \"wait hp\" (Wait)): node-type\n",
            f = s(&p[0])
        )
    );
}

#[test]
fn rename_key_rewrites_every_use_and_the_tree_still_checks() {
    let p = scratch("rename", &[("t.json", pretty(&tree()))]);
    let out = arbor(&["rename-key", "hp", "health", &s(&p[0])]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).ends_with("rewritten (4 places)\n"),
        "{}",
        text(&out.stdout)
    );
    let after: Value =
        serde_json::from_str(&std::fs::read_to_string(&p[0]).expect("read")).expect("JSON");
    assert_eq!(after["blackboard"][0]["key"], "health");
    assert_eq!(after["nodes"][1]["params"]["key"], "health");
    assert_eq!(
        after["nodes"][2]["params"]["code"],
        "health := health + 1; msg := 'hp'"
    );
    assert_eq!(
        after["nodes"][4]["params"]["seconds"],
        json!({"$key": "health"})
    );
    let check = arbor(&["check", &s(&p[0])]);
    assert!(check.status.success(), "{}", text(&check.stderr));
}

#[test]
fn rename_type_rewrites_nodes_and_decorators_with_json_output() {
    let p = scratch("retype", &[("t.json", pretty(&tree()))]);
    let out = arbor(&["rename-type", "--json", "Inverter", "Not", &s(&p[0])]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert_eq!(doc["files"][0]["written"], true);
    assert_eq!(doc["files"][0]["changes"][0]["kind"], "decorator-type");
    assert_eq!(
        doc["files"][0]["changes"][0]["json_path"],
        "$.nodes[4].decorators[0].type"
    );
    let after = std::fs::read_to_string(&p[0]).expect("read");
    assert!(after.contains("\"type\": \"Not\""));
}

#[test]
fn a_rename_touches_no_file_when_one_does_not_load() {
    let good = pretty(&tree());
    let p = scratch(
        "atomic",
        &[
            ("good.json", good.clone()),
            ("bad.json", "{ not json".into()),
        ],
    );
    for command in ["rename-key", "rename-type"] {
        let out = arbor(&[command, "hp", "health", &s(&p[0]), &s(&p[1])]);
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(err.contains("bad.json:1:"), "{err}");
        assert!(
            err.contains("1 of 2 files did not load; no file was changed"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&p[0]).expect("read"), good);
    }
}

#[test]
fn rename_key_to_a_declared_name_is_refused_and_changes_nothing() {
    let good = pretty(&tree());
    let p = scratch("taken", &[("t.json", good.clone())]);
    let out = arbor(&["rename-key", "hp", "t", &s(&p[0])]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("already declares a key `t`"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&p[0]).expect("read"), good);
}
