//! Control characters in names: every message escapes what it quotes, and
//! exported XML is always well-formed.

use arbor_runtime::btcpp::{export_file, import_str, ImportOptions};
use arbor_runtime::{check_str, LoadOptions, NodeTypes};
use serde_json::json;

use super::{scratch, write_json};
use crate::common::{arbor, text, tree_json};

const HOSTILE: &str = "Walk\nbroken.json: $.nodes[9]: forged problem\u{1b}[31m";

/// A tree whose misspelt root node is named `name`, and what `check` says of it.
fn misspelt_node_named(name: &str) -> (serde_json::Value, arbor_runtime::Report) {
    let file = tree_json(
        json!({"type": "Selectr", "name": name, "children": [{"type": "Wait", "params": {"seconds": 1}}]}),
        json!([]),
    );
    let report = check_str(
        &file.to_string(),
        None,
        &NodeTypes::builtin(),
        &LoadOptions::default(),
    );
    (file, report)
}

#[test]
fn a_name_with_a_newline_and_an_ansi_escape_cannot_forge_a_problem_line() {
    let (file, report) = misspelt_node_named(HOSTILE);
    for problem in &report.problems {
        let line = problem.to_string();
        assert!(!line.contains('\n') && !line.contains('\u{1b}'), "{line:?}");
    }
    assert!(
        report.problems[0]
            .to_string()
            .contains("Walk\\nbroken.json"),
        "{:?}",
        report.problems
    );

    let dir = scratch("escaping-cli");
    let path = write_json(&dir, "hostile\u{1b}[1m.json", &file);
    let out = arbor(&["check", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert_eq!(stderr.lines().count(), report.problems.len(), "{stderr}");
}

#[test]
fn xml_problems_escape_what_they_quote() {
    let xml = "<root BTCPP_format=\"4\"><BehaviorTree ID=\"Main\"><Inverter name=\"a&#10;b&#27;\"/></BehaviorTree></root>";
    match import_str(xml, &ImportOptions::new("x")) {
        Ok(_) => panic!("an Inverter without a child is refused"),
        Err(e) => {
            let text = e.to_string();
            assert!(!text.contains('\n') && !text.contains('\u{1b}'), "{text:?}");
        }
    }
}

#[test]
fn export_refuses_characters_xml_cannot_hold_and_escapes_the_rest() {
    let dir = scratch("escaping-export");
    let bad = write_json(
        &dir,
        "bad.json",
        &tree_json(
            json!({"type": "Wait", "name": "a\u{1b}b", "params": {"seconds": 1}}),
            json!([]),
        ),
    );
    let err = export_file(&bad, &NodeTypes::builtin()).expect_err("refused");
    let text = err.to_string();
    assert!(text.contains("U+001B, which XML 1.0 cannot hold"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");

    let name = "line one\nline \"two\" <&> \t";
    let good = write_json(
        &dir,
        "good.json",
        &tree_json(
            json!({"type": "Wait", "name": name, "params": {"seconds": 1}}),
            json!([]),
        ),
    );
    let exported = export_file(&good, &NodeTypes::builtin()).expect("exports");
    let doc = roxmltree::Document::parse(&exported.xml).expect("well-formed XML");
    let wait = doc
        .descendants()
        .find(|n| n.has_tag_name("Sleep") || n.attribute("name").is_some_and(|v| v == name));
    assert!(wait.is_some(), "{}", exported.xml);
}

#[test]
fn separators_the_arabic_letter_mark_and_invisible_characters_are_escaped() {
    // U+2028 and U+2029 end a line in many viewers; U+061C reorders text as U+202E does;
    // zero-width characters hide part of a name.
    let name = "Walk\u{2028}forged\u{2029}line\u{061c}\u{200b}\u{200d}\u{feff}";
    let (_, report) = misspelt_node_named(name);
    let line = report.problems[0].to_string();
    for c in [
        '\u{2028}', '\u{2029}', '\u{061c}', '\u{200b}', '\u{200d}', '\u{feff}',
    ] {
        assert!(!line.contains(c), "{c:?} in {line:?}");
    }
    assert!(
        line.contains("Walk\\u{2028}forged\\u{2029}line\\u{61c}\\u{200b}\\u{200d}\\u{feff}"),
        "{line:?}"
    );
}
