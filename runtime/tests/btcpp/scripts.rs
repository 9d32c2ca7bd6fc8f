//! Scripts through the BT.CPP import and export (docs/interop.md, "Scripts" and "Pre- and
//! post-conditions"): what becomes Arbor's Script, ScriptCondition and script decorators,
//! where a script that does not parse or check is reported, and that export writes them
//! back as BT.CPP reads them.

use arbor_runtime::btcpp::{export_file, import_file, import_str, ImportOptions};
use serde_json::json;

use super::support::*;

const XML: &str = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <Sequence>
      <Script code="n := 0; total := n * 2.5; label := 'n=' .. n"/>
      <ScriptCondition code="n &lt; 3 &amp;&amp; label != ''"/>
      <Fallback>
        <Work _skipIf="n &gt; 5" _onSuccess="n += 1" _post="done := true"/>
        <Rest _while="total &lt; 10" _onHalted="halted := true"/>
      </Fallback>
    </Sequence>
  </BehaviorTree>
</root>"#;

#[test]
fn scripts_and_attributes_become_script_nodes_and_decorators() {
    let imported = import_str(XML, &ImportOptions::new("s")).expect("imports");
    let t = imported.main();
    let kinds: Vec<&str> = t.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "Sequence",
            "Script",
            "ScriptCondition",
            "Selector",
            "Work",
            "Rest"
        ]
    );
    let keys: Vec<(String, String)> = t
        .blackboard
        .iter()
        .map(|d| (d.key.clone(), d.ty.to_string()))
        .collect();
    for (key, ty) in [
        ("n", "int"),
        ("total", "float"),
        ("label", "string"),
        ("done", "bool"),
        ("halted", "bool"),
    ] {
        assert!(keys.contains(&(key.into(), ty.into())), "{key}: {keys:?}");
    }
    let decorators = |name: &str| -> Vec<serde_json::Value> {
        t.nodes
            .iter()
            .find(|n| n.kind == name)
            .expect("node")
            .decorators
            .iter()
            .map(|d| json!([d.kind, d.params]))
            .collect()
    };
    // Under a Fallback a skipped node reports failure (the Fallback passes over it); the
    // post-scripts are listed so that, bottom to top, `_onSuccess` runs before `_post`.
    assert_eq!(
        decorators("Work"),
        [
            json!(["SkipIf", {"code": "n > 5", "skipped": "failure"}]),
            json!(["Post", {"code": "done := true"}]),
            json!(["OnSuccess", {"code": "n += 1"}]),
        ]
    );
    assert_eq!(
        decorators("Rest"),
        [
            json!(["While", {"code": "total < 10", "skipped": "failure"}]),
            json!(["OnHalted", {"code": "halted := true"}]),
        ]
    );
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
}

/// Imports `xml` from a file in a fresh folder `name`, writes the Arbor files there and
/// exports them: the import and the exported XML.
fn import_then_export(xml: &str, name: &str) -> (arbor_runtime::btcpp::Imported, String) {
    let dir = tempdir(name);
    std::fs::write(dir.join("in.xml"), xml).unwrap();
    let imported = import_file(&dir.join("in.xml"), "s").expect("imports");
    imported.write_to(&dir).unwrap();
    let out = export_file(
        &dir.join(&imported.files[0].file_name),
        &imported.node_types(),
    )
    .expect("exports")
    .xml;
    (imported, out)
}

#[test]
fn scripts_round_trip_through_export() {
    let (first, xml) = import_then_export(XML, "scripts-rt");
    for attr in [
        r#"<Script code="n := 0; total := n * 2.5; label := 'n=' .. n"/>"#,
        r#"<ScriptCondition code="n &lt; 3 &amp;&amp; label != ''"/>"#,
        r#"_skipIf="n &gt; 5""#,
        r#"_onSuccess="n += 1""#,
        r#"_post="done := true""#,
        r#"_while="total &lt; 10""#,
        r#"_onHalted="halted := true""#,
    ] {
        assert!(xml.contains(attr), "{attr}\n{xml}");
    }
    let dir2 = tempdir("scripts-rt2");
    std::fs::write(dir2.join("again.xml"), &xml).unwrap();
    let second = import_file(&dir2.join("again.xml"), "s").expect("re-imports");
    assert_eq!(shapes(&first), shapes(&second), "{xml}");
}

#[test]
fn scripts_that_do_not_parse_or_check_are_located_and_kept() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <Sequence>
      <Script code="a := (1 + "/>
      <Script code="s := 'x'; s -= 1"/>
      <Work _successIf="a +"/>
    </Sequence>
  </BehaviorTree>
</root>"#;
    let imported = import_str(xml, &ImportOptions::new("bad")).expect("imports with warnings");
    let warnings: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    // file:line:column of the element, then the place inside the script.
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("<memory>:4:7:") && w.contains("column 11")),
        "{warnings:#?}"
    );
    assert!(
        warnings
            .iter()
            // `s` meets a string and a number: its type is json, which scripts cannot use.
            .any(|w| w.starts_with("<memory>:5:7:") && w.contains("`s` holds json values")),
        "{warnings:#?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("<memory>:6:7:") && w.contains("_successIf")),
        "{warnings:#?}"
    );
    let t = imported.main();
    let kinds: Vec<&str> = t.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(kinds, ["Sequence", "BTCPP_Script", "BTCPP_Script", "Work"]);
    assert_eq!(
        meta(t)["attributes"][&node(t, "Work").guid],
        json!({"_successIf": "a +"})
    );
}

#[test]
fn a_precondition_with_a_script_test_round_trips() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <Sequence>
      <Script code="x := 3"/>
      <Precondition if="x &gt; 2 &amp;&amp; x &lt; 5" else="SUCCESS"><Work/></Precondition>
    </Sequence>
  </BehaviorTree>
</root>"#;
    let (imported, out) = import_then_export(xml, "scripts-precondition");
    let t = imported.main();
    let guard = t
        .nodes
        .iter()
        .find(|n| n.kind == "Sequence" && !n.decorators.is_empty())
        .expect("the Precondition's Sequence");
    assert_eq!(guard.decorators[0].kind, "SuccessIf");
    assert_eq!(
        guard.decorators[0].params["code"],
        json!("!(x > 2 && x < 5)")
    );
    assert!(
        out.contains(r#"<Precondition if="x &gt; 2 &amp;&amp; x &lt; 5" else="SUCCESS">"#),
        "{out}"
    );
}

#[test]
fn root_keys_in_a_subtree_are_the_main_trees_keys() {
    // Rule 70. BT.CPP 4.8 (`behaviortreepy` 0.1.4) ticking this tree once leaves the root
    // blackboard with g 15, made "yes", k 22 and n 1: `@` addresses the root, and the
    // subtree's `n` is its own entry. A subtree's `<SetBlackboard value="2.5"
    // output_key="@ratio"/>` and `<Sleep msec="{@pause}"/>` write and read the root's
    // `ratio` and `pause` there too.
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
      <BehaviorTree ID="Main">
        <Sequence><Script code="n := 1; @g := 10"/><SubTree ID="Sub"/></Sequence>
      </BehaviorTree>
      <BehaviorTree ID="Sub">
        <Sequence>
          <Script code="@g += 5; @made := 'yes'; n := 7; @k := n + @g"/>
          <SetBlackboard value="2.5" output_key="@ratio"/>
          <Sleep msec="{@pause}"/>
        </Sequence>
      </BehaviorTree>
    </root>"#;
    let (imported, out) = import_then_export(xml, "root-keys");
    let keys = |file: &arbor_runtime::format::TreeFile| -> Vec<(String, String)> {
        file.blackboard
            .iter()
            .map(|d| (d.key.clone(), d.ty.to_string()))
            .collect()
    };
    let main = keys(imported.main());
    for (key, ty) in [
        ("n", "int"),
        ("g", "int"),
        ("made", "string"),
        ("k", "int"),
        ("ratio", "float"),
        ("pause", "int"),
    ] {
        assert!(main.contains(&(key.into(), ty.into())), "{key}: {main:?}");
    }
    // The subtree file declares them too, of the same types, for when it is opened on its
    // own (then it is the root); no key is named `@…` any more.
    let sub = keys(&imported.files[1].tree);
    assert!(sub.contains(&("g".into(), "int".into())), "{sub:?}");
    assert!(sub.contains(&("pause".into(), "int".into())), "{sub:?}");
    assert!(sub.iter().all(|(k, _)| !k.starts_with('@')), "{sub:?}");
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    // Exported as written: the references keep their `@`.
    assert!(
        out.contains(r#"code="@g += 5; @made := 'yes'; n := 7; @k := n + @g""#),
        "{out}"
    );
    assert!(out.contains(r#"msec="{@pause}""#), "{out}");

    let (mut agent, mut data) = running(&imported, "root-keys-run", &[]);
    agent.tick(&mut data, 0.1);
    let value = |k: &str| value(&agent, k);
    assert_eq!(value("g"), Some(json!(15)));
    assert_eq!(value("made"), Some(json!("yes")));
    assert_eq!(value("k"), Some(json!(22)));
    assert_eq!(value("n"), Some(json!(1)));
    assert_eq!(value("ratio"), Some(json!(2.5)));
}

#[test]
fn rule71_a_precondition_that_else_runs_waits_for_its_test_then_runs_the_child_to_its_end() {
    // Rule 71. BT.CPP 4.8 (`behaviortreepy` 0.1.4), Work running twice then succeeding:
    // ticks 1-2 RUNNING without Work (n 1, 2), ticks 3-4 RUNNING [Work] (n 3, 4: not
    // tested again while Work runs), tick 5 SUCCESS [Work], tick 6 RUNNING [] (n 1).
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <Sequence>
      <Script code="n := 0"/>
      <ReactiveSequence>
        <Script code="n += 1"/>
        <Precondition if="n == 3" else="RUNNING"><Work/></Precondition>
      </ReactiveSequence>
    </Sequence>
  </BehaviorTree>
</root>"#;
    let (imported, out) = import_then_export(xml, "scripts-precondition-running");
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert!(
        out.contains(r#"<Precondition if="n == 3" else="RUNNING">"#)
            && out.contains("<Work/>")
            && !out.contains("ScriptCondition"),
        "{out}"
    );
    let (mut agent, mut data) = running(
        &imported,
        "scripts-precondition-running-run",
        &[("Work", &["running", "running", "success"])],
    );
    let mut seen = Vec::new();
    for _ in 0..6 {
        let (status, ticked) = tick(&mut agent, &mut data);
        let work = ticked.iter().any(|t| t == "Work");
        seen.push((status.as_str().to_owned(), work, value(&agent, "n")));
    }
    let expected: Vec<(String, bool, Option<serde_json::Value>)> = [
        ("running", false, 1),
        ("running", false, 2),
        ("running", true, 3),
        ("running", true, 4),
        ("success", true, 5),
        ("running", false, 1),
    ]
    .into_iter()
    .map(|(s, w, n)| (s.to_owned(), w, Some(json!(n))))
    .collect();
    assert_eq!(seen, expected);
}

#[test]
fn scripting_enums_given_to_the_import_are_values_not_keys() {
    // BT.CPP 4.8 (`behaviortreepy` 0.1.4, the enums set as root entries because the
    // bindings lack `registerScriptingEnum`): ticking script_enums.xml with every leaf
    // succeeding ends SUCCESS with mode 2, budget 20, steps 1 and code 21.
    let options = ImportOptions {
        script_enums: [("IDLE_MODE", 0), ("PATROL", 1), ("CHASE", 2), ("LIMIT", 40)]
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v))
            .collect(),
        ..ImportOptions::new("e")
    };
    let imported =
        arbor_runtime::btcpp::import_file_with(&fixture_path("diff/script_enums.xml"), options)
            .expect("imports");
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let keys: Vec<&str> = imported
        .main()
        .blackboard
        .iter()
        .map(|d| d.key.as_str())
        .collect();
    assert_eq!(keys, ["mode", "budget", "steps", "code"]);
    // The manifest carries them, so that the files load without the import's options.
    assert!(
        imported.manifest().contains(r#""CHASE": 2"#),
        "{}",
        imported.manifest()
    );
    let (mut agent, mut data) = running(&imported, "script-enums", &[]);
    let (status, _) = tick(&mut agent, &mut data);
    assert_eq!(status, arbor_runtime::Status::Success);
    let value = |k: &str| value(&agent, k);
    assert_eq!(value("mode"), Some(json!(2)));
    assert_eq!(value("budget"), Some(json!(20.0)));
    assert_eq!(value("steps"), Some(json!(1)));
    assert_eq!(value("code"), Some(json!(21)));

    // Without the enums the names are keys nobody set: the first script fails.
    let plain = arbor_runtime::btcpp::import_file(&fixture_path("diff/script_enums.xml"), "p")
        .expect("imports");
    assert!(plain.main().blackboard.iter().any(|d| d.key == "PATROL"));
}

#[test]
fn rule72_a_node_whose_children_are_all_skipped_is_skipped_and_exported_as_it_was() {
    // Rule 72. BT.CPP 4.8 (`behaviortreepy` 0.1.4), x 1: `Fallback [Sequence [A
    // _skipIf="x == 1", B _skipIf="x > 0"], C]` returns SUCCESS after ticking only C (the
    // Sequence returns SKIPPED, the Fallback passes over it); `Sequence [A _skipIf="true",
    // B _skipIf="true"]` as the root returns SKIPPED.
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <Sequence>
      <Script code="x := 1"/>
      <Fallback>
        <Sequence><A _skipIf="x == 1"/><B _skipIf="x &gt; 0"/></Sequence>
        <C/>
      </Fallback>
    </Sequence>
  </BehaviorTree>
</root>"#;
    let (imported, out) = import_then_export(xml, "scripts-derived-skip");
    let t = imported.main();
    let inner = t
        .nodes
        .iter()
        .filter(|n| n.kind == "Sequence")
        .nth(1)
        .expect("the inner Sequence");
    let derived: Vec<serde_json::Value> = inner
        .decorators
        .iter()
        .map(|d| json!([d.kind, d.params]))
        .collect();
    assert_eq!(
        derived,
        [json!(["SkipIf", {"code": "(x == 1) && (x > 0)", "skipped": "failure"}])]
    );
    // Only the children's own attributes are written back (the derived one would bring
    // its `&&`).
    assert_eq!(out.matches("_skipIf").count(), 2, "{out}");
    assert!(!out.contains("&amp;&amp;"), "{out}");

    let (mut agent, mut data) = running(&imported, "scripts-derived-skip-run", &[]);
    let (status, ticked) = tick(&mut agent, &mut data);
    assert_eq!(status, arbor_runtime::Status::Success);
    let leaves: Vec<&String> = ticked
        .iter()
        .filter(|n| ["A", "B", "C"].contains(&n.as_str()))
        .collect();
    assert_eq!(leaves, ["C"]);
}

#[test]
fn rule71_a_waiting_precondition_tests_again_after_a_halt() {
    // Rule 71, where Arbor differs on purpose. BT.CPP 4.8: `ReactiveSequence
    // [ScriptCondition flag, Precondition if="go" else="RUNNING" [Work]]`, Work running;
    // (flag, go) = (true, true): RUNNING [Work]; (false, true): FAILURE []; (true, false):
    // RUNNING [Work] — the halted Precondition does not test `go` again. Arbor does.
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="T">
  <BehaviorTree ID="T">
    <ReactiveSequence>
      <ScriptCondition code="flag"/>
      <Precondition if="go" else="RUNNING"><Work/></Precondition>
    </ReactiveSequence>
  </BehaviorTree>
</root>"#;
    let (imported, _) = import_then_export(xml, "scripts-precondition-halt");
    let (mut agent, mut data) = running(
        &imported,
        "scripts-precondition-halt-run",
        &[("Work", &["running"])],
    );
    let mut seen = Vec::new();
    for (flag, go) in [(true, true), (false, true), (true, false)] {
        let board = agent.blackboard_mut();
        board.set_json("flag", &json!(flag), None).expect("bool");
        board.set_json("go", &json!(go), None).expect("bool");
        let (status, ticked) = tick(&mut agent, &mut data);
        seen.push((status.as_str(), ticked.iter().any(|t| t == "Work")));
    }
    assert_eq!(
        seen,
        [("running", true), ("failure", false), ("running", false)]
    );
}

/// BT.CPP 4.8.2 throws at `b = 3` ("The blackboard entry [b] doesn't exist, yet") and at
/// `c > 1` ("Variable not found: c"); no node of the tree ever gives `b` or `c` a value,
/// so the import says so where it can see it. `a` (created by `:=`), `d` (a port) and
/// `@r` (the root's, which any tree may create) are not reported.
#[test]
fn rule86_scripts_on_keys_nothing_gives_a_value_are_located_at_import() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
        <Script code="a := 1; a = 2"/>
        <Script code="b = 3"/>
        <ScriptCondition code="c &gt; 1"/>
        <SetBlackboard output_key="d" value="1"/>
        <Script code="d = 4; e := d; @r += 1"/>
        <Work _skipIf="e &gt; 0"/>
      </Sequence></BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let found: Vec<(u32, &str)> = imported
        .warnings
        .iter()
        .filter(|w| w.message.contains("rule 86"))
        .map(|w| (w.line, w.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(found[0].0, 3);
    assert!(
        found[0].1.contains("`b`") && found[0].1.contains("doesn't exist, yet"),
        "{}",
        found[0].1
    );
    assert_eq!(found[1].0, 4);
    assert!(
        found[1].1.contains("Variable not found: c"),
        "{}",
        found[1].1
    );
}
