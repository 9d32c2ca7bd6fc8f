//! Importing BehaviorTree.CPP XML: the shape of the imported trees for realistic
//! v4 files in the style of BT.CPP's tutorials (tests/data/btcpp), a v3 file, opaque
//! nodes, the blackboard keys, the layout, and located errors for broken files.
#![cfg(feature = "btcpp")]

use super::support;

use arbor_runtime::btcpp::{import_str, ImportOptions};
use arbor_runtime::{check_file, Category, LoadOptions, NodeTypes, ParamKind};
use serde_json::json;
use support::*;

fn kinds(file: &arbor_runtime::format::TreeFile, names: &[&str]) -> Vec<String> {
    names.iter().map(|n| node(file, n).kind.clone()).collect()
}

#[test]
fn crossdoor_main_tree_and_subtree_with_remapping() {
    let (imported, dir) = import_to("crossdoor.xml", "door", "crossdoor");
    let names: Vec<&str> = imported
        .files
        .iter()
        .map(|f| f.file_name.as_str())
        .collect();
    assert_eq!(names, ["door.json", "door.DoorClosed.json"]);
    let main = imported.main();
    assert_eq!(main.name, "MainTree");
    let root = node(main, "cross_door");
    assert_eq!(main.root.as_deref(), Some(root.guid.as_str()));
    let kids: Vec<(String, String)> = children(main, root)
        .iter()
        .map(|n| (n.kind.clone(), n.name.clone()))
        .collect();
    assert_eq!(
        kids,
        [
            ("SetBlackboard".into(), "Script".into()),
            ("Selector".into(), "get_door_open".into()),
            ("PassThroughDoor".into(), "PassThroughDoor".into()),
        ]
    );
    // `door_open := false` is a SetBlackboard of a bool key.
    assert_eq!(
        serde_json::Value::Object(node(main, "Script").params.clone()),
        json!({"key": "door_open", "value": false})
    );
    // The SubTree: its own file, remapped keys, the instance name.
    let sub = node(main, "open_it");
    assert_eq!(sub.kind, "Subtree");
    assert_eq!(
        serde_json::Value::Object(sub.params.clone()),
        json!({"path": "door.DoorClosed.json",
               "remap": {"door_open": "door_open", "attempts": "max_attempts"}})
    );
    // Keys: declared in both trees, typed from the Script literal and the models.
    let decls = |f: &arbor_runtime::format::TreeFile| -> Vec<(String, String)> {
        f.blackboard
            .iter()
            .map(|d| (d.key.clone(), d.ty.to_string()))
            .collect()
    };
    assert_eq!(
        decls(main),
        [
            ("door_open".to_owned(), "bool".to_owned()),
            ("max_attempts".to_owned(), "int".to_owned())
        ]
    );
    let door = &imported.files[1].tree;
    assert_eq!(door.name, "DoorClosed");
    assert_eq!(
        decls(door),
        [
            ("door_open".to_owned(), "bool".to_owned()),
            ("attempts".to_owned(), "int".to_owned())
        ]
    );
    assert_eq!(
        kinds(door, &["try_open", "RetryUntilSuccessful"]),
        ["Selector", "Retry"]
    );
    assert_eq!(
        node(door, "RetryUntilSuccessful").params["attempts"],
        json!(5)
    );
    // The post-condition runs: an OnSuccess script decorator (rule 58).
    let try_open = node(door, "try_open");
    assert_eq!(try_open.decorators.len(), 1);
    assert_eq!(try_open.decorators[0].kind, "OnSuccess");
    assert_eq!(
        try_open.decorators[0].params["code"],
        json!("door_open := true")
    );
    assert!(!imported
        .warnings
        .iter()
        .any(|w| w.message.contains("_onSuccess")));

    // Custom nodes: host types with their ports as parameters.
    let types = imported.node_types();
    let t = |name: &str| types.node(name).cloned().expect("declared");
    assert_eq!(t("IsDoorOpen").category, Category::Condition);
    assert!(t("IsDoorOpen").host);
    let speed = t("PassThroughDoor").params[0].clone();
    assert_eq!(
        (speed.name.as_str(), speed.kind),
        ("speed", ParamKind::Float)
    );
    assert_eq!(speed.default, Some(json!(1.0)));
    assert!(speed.description.contains("Walking speed"), "{speed:?}");
    assert_eq!(t("PickLock").params[0].kind, ParamKind::Key);

    // Every written file checks clean against the manifest it lists.
    let mut checked = NodeTypes::builtin();
    let manifest = std::fs::read_to_string(dir.join("door.types.json")).expect("manifest");
    checked.merge_manifest(&manifest).expect("manifest merges");
    for f in &imported.files {
        assert_eq!(
            f.tree.editor.as_ref().unwrap()["manifests"],
            json!(["door.types.json"])
        );
        let report = check_file(dir.join(&f.file_name), &checked, &LoadOptions::default());
        assert!(report.is_ok(), "{}: {:?}", f.file_name, report.problems);
    }
}

#[test]
fn layout_is_left_to_right_in_execution_order() {
    let imported = import("crossdoor.xml", "door");
    let main = imported.main();
    let pos = |name: &str| {
        let p = &main.editor.as_ref().unwrap()["positions"][&node(main, name).guid];
        (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())
    };
    let spacing = arbor_runtime::format::layout::Spacing::default();
    let card = arbor_runtime::format::layout::DEFAULT_CARD;
    let column = card[0] + spacing.level_gap;
    assert_eq!(pos("cross_door").0, 0.0);
    assert_eq!(pos("Script").0, column);
    assert_eq!(pos("IsDoorOpen").0, 2.0 * column);
    // Siblings top to bottom in execution order; leaves a card and a gap apart.
    assert!(pos("Script").1 < pos("get_door_open").1);
    assert!(pos("get_door_open").1 < pos("PassThroughDoor").1);
    assert_eq!(
        pos("open_it").1 - pos("IsDoorOpen").1,
        card[1] + spacing.sibling_gap
    );
    // A parent is centred on its children.
    assert_eq!(
        pos("get_door_open").1,
        (pos("IsDoorOpen").1 + pos("open_it").1) / 2.0
    );
}

#[test]
fn reactive_nodes_sleep_timeout_and_while() {
    let imported = import("battery.xml", "patrol");
    assert_eq!(imported.files.len(), 1);
    let t = imported.main();
    let root = node(t, "root");
    assert_eq!(
        (root.kind.as_str(), &root.params["dynamic"]),
        ("Sequence", &json!(true))
    );
    assert_eq!(node(t, "mode").kind, "Selector");
    assert_eq!(node(t, "mode").params["dynamic"], json!(true));
    // `_while` under a ReactiveFallback: a Precondition (re-checked while running).
    let charge = node(t, "charge");
    assert_eq!(charge.decorators.len(), 1);
    assert_eq!(charge.decorators[0].kind, "Precondition");
    assert_eq!(
        serde_json::Value::Object(charge.decorators[0].params.clone()),
        json!({"key": "battery_low", "equals": true})
    );
    assert_eq!(
        meta(t)["decorators"][&charge.decorators[0].guid],
        json!("_while")
    );
    assert_eq!(node(t, "Sleep").kind, "Wait");
    assert_eq!(node(t, "Sleep").params["seconds"], json!(2.0));
    assert_eq!(node(t, "Timeout").params["seconds"], json!(5.0));
    assert_eq!(node(t, "go_to_dock").params["goal"], json!("dock"));
    let keys: Vec<&str> = t.blackboard.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(keys, ["battery_low", "dock", "target"]);
    // Pose2D is no Arbor type: the key holds any JSON.
    assert_eq!(t.blackboard[1].ty.to_string(), "json");
    assert_eq!(t.blackboard[0].ty.to_string(), "bool");
    let types = imported.node_types();
    assert_eq!(
        types.node("MoveBase").unwrap().params[0].kind,
        ParamKind::Key
    );
    assert_eq!(
        types.node("SaySomething").unwrap().params[0].kind,
        ParamKind::String
    );
}

#[test]
fn standard_library_maps_to_arbor_nodes() {
    let imported = import("library.xml", "guard");
    let t = imported.main();
    let m = meta(t);
    let shift = node(t, "shift");
    assert_eq!(shift.kind, "Sequence");
    // SequenceWithMemory is a Sequence with `memory` (rule 50), not just an origin.
    assert_eq!(shift.params["memory"], json!(true));
    assert_eq!(m["origins"].get(&shift.guid), None);
    assert_eq!(
        kinds(
            t,
            &[
                "RunOnce",
                "init",
                "count_shift",
                "by_mode",
                "Repeat",
                "intruder?",
                "ForceFailure",
                "ForceSuccess",
                "Delay",
                "AlwaysSuccess",
                "idle",
                "KeepRunningUntilFailure",
                "AlwaysFailure",
                "report",
                "Precondition",
                "Parallel",
                "Inverter",
            ]
        ),
        [
            "RunOnce",
            "SetBlackboard",
            "Script", // `shifts += 1`: stops without a value, as BT.CPP throws (rule 86)
            "Switch",
            "Repeat",
            "IfThenElse",
            "ForceFailure",
            "Succeeder",
            "Delay",
            "Scripted",
            "WhileDoElse",
            "KeepRunningUntilFailure",
            "Scripted",
            "Selector",
            "Sequence",
            "Parallel",
            "Inverter",
        ]
    );
    let params = |name: &str| serde_json::Value::Object(node(t, name).params.clone());
    assert_eq!(
        params("by_mode"),
        json!({"variable": "mode", "case_1": "patrol", "case_2": "guard", "case_3": "sleep"})
    );
    assert_eq!(params("count_shift"), json!({"code": "shifts += 1"}));
    assert_eq!(params("Repeat"), json!({"count": 3, "yield": true}));
    assert_eq!(params("Delay"), json!({"seconds": 1.5}));
    assert_eq!(params("AlwaysFailure"), json!({"returns": ["failure"]}));
    // BT.CPP's counting (rule 62): failed children are not ticked again.
    assert_eq!(params("Parallel"), json!({"need": 1, "failures": 2}));
    assert_eq!(params("RunOnce"), json!({}), "then_skip defaults to true");
    // ScriptCondition -> Condition leaves.
    let intruder = children(t, node(t, "intruder?"));
    assert_eq!(intruder[0].kind, "Condition");
    assert_eq!(
        serde_json::Value::Object(intruder[0].params.clone()),
        json!({"key": "alarm", "equals": true})
    );
    // Precondition node -> a Sequence over the child with a Condition.
    let pre = node(t, "Precondition");
    assert_eq!(m["origins"][&pre.guid], json!("Precondition"));
    assert_eq!(
        serde_json::Value::Object(pre.decorators[0].params.clone()),
        json!({"key": "mode", "equals": "guard"})
    );
    // `_skipIf` under a Fallback and `_failureIf` with `||`.
    let report = children(t, node(t, "report"));
    assert_eq!(report[0].decorators.len(), 1);
    assert_eq!(
        serde_json::Value::Object(report[0].decorators[0].params.clone()),
        json!({"key": "alarm", "equals": true})
    );
    assert_eq!(
        m["decorators"][&report[0].decorators[0].guid],
        json!("_skipIf")
    );
    let walk = children(t, node(t, "Inverter"))[0];
    let tests: Vec<serde_json::Value> = walk
        .decorators
        .iter()
        .map(|d| serde_json::Value::Object(d.params.clone()))
        .collect();
    assert_eq!(
        tests,
        [
            json!({"key": "mode", "equals": "patrol"}),
            json!({"key": "alarm", "equals": true, "invert": true}),
        ]
    );
    let keys: Vec<(String, String)> = t
        .blackboard
        .iter()
        .map(|d| (d.key.clone(), d.ty.to_string()))
        .collect();
    assert_eq!(
        keys,
        [
            ("alarm".to_owned(), "bool".to_owned()),
            ("shifts".to_owned(), "int".to_owned()),
            ("mode".to_owned(), "string".to_owned())
        ]
    );
}

#[test]
fn unmappable_nodes_become_opaque_host_types() {
    let imported = import("opaque.xml", "forklift");
    let types = imported.node_types();
    let ty = |name: &str| {
        types
            .node(name)
            .cloned()
            .unwrap_or_else(|| panic!("{name}"))
    };
    let params = |name: &str| -> Vec<(String, ParamKind)> {
        ty(name)
            .params
            .iter()
            .map(|p| (p.name.clone(), p.kind))
            .collect()
    };
    // A BT.CPP built-in with a port Arbor cannot express (an `if_empty` read from the
    // blackboard) stays opaque, with every port.
    assert_eq!(ty("LoopInt").category, Category::Decorator);
    assert_eq!(
        params("LoopInt"),
        [
            ("queue".into(), ParamKind::Key),
            ("value".into(), ParamKind::Key),
            ("if_empty".into(), ParamKind::Key)
        ]
    );
    // Ports that read the blackboard are bindings now (format version 2): Timeout and
    // Sleep run, reading milliseconds from their keys.
    assert!(types.node("BTCPP_Timeout").is_none());
    assert!(types.node("Sleep").is_none());
    // Scripts run natively: Arbor's own Script, not a stand-in.
    assert_eq!(ty("Script").category, Category::Action);
    assert!(!ty("Script").host);
    assert_eq!(params("Script"), [("code".into(), ParamKind::Script)]);
    // The race `success_count="1" failure_count="1"` is a Parallel with `failures` now
    // (rule 62); it used to be opaque.
    assert!(types.node("BTCPP_Parallel").is_none());
    // `<Precondition if="pallets > 3" else="SUCCESS">` runs: a Sequence over its child
    // with a SuccessIf decorator (docs/interop.md, "Scripts").
    assert!(types.node("BTCPP_Precondition").is_none());
    let guard = imported
        .main()
        .nodes
        .iter()
        .find(|n| n.kind == "Sequence" && n.decorators.iter().any(|d| d.kind == "SuccessIf"))
        .expect("the Precondition");
    assert_eq!(guard.decorators[0].params["code"], json!("!(pallets > 3)"));
    // Custom nodes only used, never declared: the category comes from the children.
    assert_eq!(ty("ArmControl").category, Category::Composite);
    assert_eq!(ty("LiftPallet").category, Category::Action);
    assert_eq!(
        params("LiftPallet"),
        [
            ("id".into(), ParamKind::Key),
            ("height".into(), ParamKind::String)
        ]
    );
    let t = imported.main();
    let timeout = t
        .nodes
        .iter()
        .find(|n| n.kind == "Timeout")
        .expect("Timeout");
    assert_eq!(
        serde_json::Value::Object(timeout.params.clone()),
        json!({"seconds": {"$key": "lift_timeout"}, "unit": "ms"})
    );
    let sleep = t
        .nodes
        .iter()
        .find(|n| n.kind == "Wait")
        .expect("Sleep -> Wait");
    assert_eq!(sleep.params["seconds"], json!({"$key": "settle_msec"}));
    assert_eq!(t.version, arbor_runtime::format::FORMAT_VERSION);
    let script = node(t, "Script");
    assert_eq!(
        script.params["code"],
        json!("pallets := 0; lifted := false")
    );
    // Pre- and post-conditions become script decorators (rules 54 to 60).
    let carry = node(t, "CarryTo");
    let decorators: Vec<(String, serde_json::Value)> = carry
        .decorators
        .iter()
        .map(|d| (d.kind.clone(), serde_json::Value::Object(d.params.clone())))
        .collect();
    assert_eq!(
        decorators,
        [
            ("SuccessIf".to_owned(), json!({"code": "already_there"})),
            ("OnFailure".to_owned(), json!({"code": "failures += 1"})),
        ]
    );
    let why: Vec<&str> = imported
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert!(
        !why.iter().any(|w| w.contains("Parallel")),
        "the race Parallel maps (rule 62): {why:#?}"
    );
    assert!(
        !why.iter().any(|w| w.contains("reads the blackboard")),
        "{why:#?}"
    );
    assert!(!why.iter().any(|w| w.contains("_successIf")), "{why:#?}");
    // The manifest merges into the built-in types (no name clashes with Arbor).
    let mut fresh = NodeTypes::builtin();
    assert_eq!(
        fresh.merge_manifest(&imported.manifest()),
        Ok(imported.types.len())
    );
}

#[test]
fn v3_files_differ_only_in_names() {
    let imported = import("crossdoor_v3.xml", "door");
    let door = &imported.file("DoorClosed").expect("subtree file").tree;
    let seq = node(door, "door_closed_sequence");
    assert_eq!(seq.kind, "Sequence");
    assert_eq!(seq.params["memory"], json!(true), "v3 SequenceStar");
    let retry = node(door, "RetryUntilSuccessful");
    assert_eq!(
        (retry.kind.as_str(), &retry.params["attempts"]),
        ("Retry", &json!(4))
    );
    // `<Condition ID="IsDoorOpen"/>`: the explicit form names the category.
    let types = imported.node_types();
    assert_eq!(
        types.node("IsDoorOpen").unwrap().category,
        Category::Condition
    );
    // v3 SubTree ports name parent keys without braces.
    let main = imported.main();
    assert_eq!(
        node(main, "DoorClosed").params["remap"],
        json!({"passed": "went_through"})
    );
    assert_eq!(main.blackboard[0].key, "went_through");
    assert_eq!(main.blackboard[0].ty.to_string(), "bool");
    assert!(imported.warnings[0].message.contains("v3"));
}

#[test]
fn autoremap_shares_every_subtree_key_and_literals_become_defaults() {
    let xml = r#"<root BTCPP_format="4">
      <BehaviorTree ID="Main">
        <Sequence>
          <SubTree ID="Walk" _autoremap="true"/>
          <SubTree ID="Say" name="hello" text="hello world" volume="{loud}"/>
        </Sequence>
      </BehaviorTree>
      <BehaviorTree ID="Walk">
        <Sequence>
          <Script code="steps += 1"/>
          <SubTree ID="Step" _autoremap="true"/>
        </Sequence>
      </BehaviorTree>
      <BehaviorTree ID="Step">
        <Move distance="{stride}"/>
      </BehaviorTree>
      <BehaviorTree ID="Say">
        <Speak text="{text}" volume="{volume}"/>
      </BehaviorTree>
    </root>"#;
    let imported = import_str(xml, &ImportOptions::new("walk")).expect("imports");
    let names: Vec<&str> = imported
        .files
        .iter()
        .map(|f| f.file_name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "walk.json",
            "walk.Walk.json",
            "walk.Step.json",
            "walk.Say.json"
        ]
    );
    let main = imported.main();
    // The grandchild's key travels up through both autoremapped calls.
    let keys: Vec<&str> = main.blackboard.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(keys, ["loud", "steps", "stride"]);
    let walk = node(main, "Walk");
    assert_eq!(
        walk.params["remap"],
        json!({"steps": "steps", "stride": "stride"})
    );
    assert_eq!(
        meta(main)["attributes"][&walk.guid],
        json!({"_autoremap": "true"})
    );
    // A literal SubTree port: the subtree key's default.
    let say = &imported.file("Say").unwrap().tree;
    let text = say.blackboard.iter().find(|d| d.key == "text").unwrap();
    assert_eq!(text.default, Some(json!("hello world")));
    assert_eq!(
        node(main, "hello").params["remap"],
        json!({"volume": "loud"})
    );
}

#[test]
fn script_adding_a_number_to_a_string_key_is_kept_as_text() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
        <Script code="n := 'many'"/>
        <Script code="n += 1"/>
      </Sequence></BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let t = imported.main();
    let kinds: Vec<&str> = t.nodes.iter().map(|n| n.kind.as_str()).collect();
    // `n` holds a string and `+= 1` adds a number: the key is json, which scripts
    // cannot use, so the script is kept as text in the opaque stand-in.
    assert_eq!(kinds, ["Sequence", "SetBlackboard", "BTCPP_Script"]);
    assert_eq!(t.blackboard[0].ty.to_string(), "json");
    assert!(imported.warnings.iter().any(|w| w.message.contains("+=")));
}

#[test]
fn include_reads_trees_of_other_files() {
    let dir = tempdir("include");
    std::fs::write(
        dir.join("talk.xml"),
        r#"<root BTCPP_format="4"><BehaviorTree ID="Talk"><Say/></BehaviorTree></root>"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.xml"),
        r#"<root BTCPP_format="4" main_tree_to_execute="Main">
             <include path="talk.xml"/>
             <BehaviorTree ID="Main"><SubTree ID="Talk"/></BehaviorTree>
           </root>"#,
    )
    .unwrap();
    let imported =
        arbor_runtime::btcpp::import_file(&dir.join("main.xml"), "main").expect("imports");
    assert_eq!(imported.files.len(), 2);
    assert_eq!(imported.files[1].tree_id, "Talk");
}

fn errors(xml: &str) -> Vec<String> {
    match import_str(xml, &ImportOptions::new("t")) {
        Ok(_) => panic!("should not import:\n{xml}"),
        Err(e) => e.problems.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn broken_files_are_refused_with_positions() {
    let malformed = errors("<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"T\">\n    <Sequence>\n  </BehaviorTree>\n</root>");
    assert_eq!(malformed.len(), 1);
    assert!(malformed[0].starts_with("<memory>:4:"), "{malformed:?}");
    assert!(malformed[0].contains("malformed XML"), "{malformed:?}");

    let cases = [
        (
            "<tree/>",
            "1:1: the document element is <tree>",
        ),
        (
            "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"T\"><A/><B/></BehaviorTree></root>",
            "2:1: <BehaviorTree ID=\"T\"> must have exactly one child element",
        ),
        (
            "<root BTCPP_format=\"4\" main_tree_to_execute=\"X\"><BehaviorTree ID=\"T\"><A/></BehaviorTree></root>",
            "main_tree_to_execute names `X`",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\n  <SubTree ID=\"Nope\"/></BehaviorTree></root>",
            "2:3: <SubTree ID=\"Nope\">: no tree `Nope` is defined",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Action/></BehaviorTree></root>",
            "<Action> needs an ID attribute",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Inverter><A/><B/></Inverter></BehaviorTree></root>",
            "<Inverter> must have exactly one child, found 2",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"A\"><SubTree ID=\"B\"/></BehaviorTree>\
             <BehaviorTree ID=\"B\"><SubTree ID=\"A\"/></BehaviorTree></root>",
            "recursive subtrees: A -> B -> A",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><A/></BehaviorTree>\
             <BehaviorTree ID=\"T\"><B/></BehaviorTree></root>",
            "tree `T` is defined twice",
        ),
        ("<root BTCPP_format=\"4\"/>", "no <BehaviorTree>"),
    ];
    for (xml, expected) in cases {
        let found = errors(xml);
        assert!(
            found.iter().any(|e| e.contains(expected)),
            "{xml}\nexpected {expected:?} in {found:#?}"
        );
    }
}

#[test]
fn every_problem_is_reported_at_once() {
    let found = errors(
        "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Sequence>\n\
         <SubTree ID=\"X\"/>\n<Inverter/>\n<Condition/>\n</Sequence></BehaviorTree></root>",
    );
    assert_eq!(found.len(), 3, "{found:#?}");
}

#[test]
fn deep_and_hostile_input_is_refused_not_crashing() {
    let deep = format!(
        "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">{}<A/>{}</BehaviorTree></root>",
        "<Inverter>".repeat(300),
        "</Inverter>".repeat(300)
    );
    assert!(errors(&deep)[0].contains("nest more than 256"));
    // Just under the limit imports (and the recursive passes cope with it).
    let ok = format!(
        "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">{}<A/>{}</BehaviorTree></root>",
        "<Inverter>".repeat(250),
        "</Inverter>".repeat(250)
    );
    assert!(import_str(&ok, &ImportOptions::new("t")).is_ok());
    let bomb =
        "<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><root>&b;</root>";
    assert!(errors(bomb)[0].contains("malformed XML"));
}

#[test]
fn imported_files_follow_the_tree_file_schema() {
    // Fixtures whose trees use only node types the schema knew before the BehaviorTree.CPP kinds were added (the new
    // kinds get their schema rules with the schema's next update).
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/arbor-tree.schema.json")
        .canonicalize()
        .expect("the schema exists");
    let mut schemas = boon::Schemas::new();
    let index = boon::Compiler::new()
        .compile(schema.to_str().unwrap(), &mut schemas)
        .expect("the schema compiles");
    for (fixture, stem) in [
        ("crossdoor.xml", "door"),
        ("battery.xml", "patrol"),
        ("opaque.xml", "forklift"),
    ] {
        for f in import(fixture, stem).files {
            let value: serde_json::Value = serde_json::from_str(&f.tree.to_json_pretty()).unwrap();
            if let Err(e) = schemas.validate(&value, index) {
                panic!("{fixture} -> {}: {e}", f.file_name);
            }
        }
    }
}

#[test]
fn uses_win_over_declarations_that_do_not_fit() {
    let xml = r#"<root BTCPP_format="4">
      <BehaviorTree ID="T">
        <Sequence>
          <Wrap><Go goal="{a}"/></Wrap>
          <Go goal="kitchen"/>
        </Sequence>
      </BehaviorTree>
      <TreeNodesModel>
        <Action ID="Wrap"/>
        <Action ID="Go"><input_port name="goal" type="std::string"/></Action>
      </TreeNodesModel>
    </root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let types = imported.node_types();
    assert_eq!(types.node("Wrap").unwrap().category, Category::Decorator);
    // `goal` is a key in one place and a literal in another: a string parameter, bound
    // where the XML reads the key.
    assert_eq!(types.node("Go").unwrap().params[0].kind, ParamKind::String);
    let t = imported.main();
    let goals: Vec<&serde_json::Value> = t
        .nodes
        .iter()
        .filter(|n| n.kind == "Go")
        .map(|n| &n.params["goal"])
        .collect();
    assert_eq!(goals, [&json!({"$key": "a"}), &json!("kitchen")]);
    let messages: Vec<&str> = imported
        .warnings
        .iter()
        .map(|w| w.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`Wrap` is declared as Action but used with 1 children")),
        "{messages:#?}"
    );
    assert!(
        !messages
            .iter()
            .any(|m| m.contains("both literals and blackboard keys")),
        "{messages:#?}"
    );
    // The tree loads: the key `a` is a string like the parameter.
    let registry = arbor_runtime::btcpp::stand_in_registry(&types);
    let text = serde_json::to_string(t).expect("serialises");
    registry
        .loader()
        .load_str(&text, Some(std::path::Path::new("t.json")))
        .expect("the imported tree loads");
}

#[test]
fn tinyxml_tolerance_raw_ampersands_and_text_before_root_import_with_warnings() {
    // BT.CPP's own examples have both (t09_scripting: `if="A>-B && color != BLUE"`;
    // plugin_executor: `// clang-format off` above `<root>`); TinyXML2 accepts them.
    let xml = "// clang-format off\n<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\
               <Precondition if=\"a && b\" else=\"FAILURE\"><Go/></Precondition>\
               </BehaviorTree></root>";
    let imported = import_str(xml, &ImportOptions::new("t")).expect("accepted");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("text before the document element")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("raw `&`")),
        "{messages:#?}"
    );
    let t = imported.main();
    assert_eq!(t.nodes[0].decorators.len(), 2, "a && b: two Conditions");
}

#[test]
#[cfg(unix)]
fn dev_zero_is_refused_with_bounded_memory() {
    // `arbor import /dev/zero` and `<include path="/dev/zero"/>` used to grow memory
    // until killed; a device is now refused before it is read.
    let e = arbor_runtime::btcpp::import_file(std::path::Path::new("/dev/zero"), "z")
        .expect_err("refused");
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let dir = tempdir("dev-zero");
    let main = dir.join("main.xml");
    std::fs::write(
        &main,
        r#"<root BTCPP_format="4"><include path="/dev/zero"/><BehaviorTree ID="T"><A/></BehaviorTree></root>"#,
    )
    .unwrap();
    let e = arbor_runtime::btcpp::import_file(&main, "m")
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("main.xml:1:24: ") && e.contains("/dev/zero"),
        "located at the <include>: {e}"
    );
}

fn subtree_chain(n: usize) -> String {
    let mut xml = String::from(r#"<root BTCPP_format="4" main_tree_to_execute="T0">"#);
    for i in 0..n {
        xml.push_str(&format!(
            r#"<BehaviorTree ID="T{i}"><SubTree ID="T{}"/></BehaviorTree>"#,
            i + 1
        ));
    }
    xml.push_str(&format!(
        r#"<BehaviorTree ID="T{n}"><A/></BehaviorTree></root>"#
    ));
    xml
}

#[test]
fn a_chain_of_4000_subtrees_is_refused_with_a_located_error() {
    // The import refuses the chains the loader refuses (past 16), so `arbor export`
    // never meets one deep enough to overflow its stack.
    let found = errors(&subtree_chain(4000));
    assert!(
        found[0].contains("SubTrees nest more than 16 deep"),
        "{found:?}"
    );
    let imported = import_str(&subtree_chain(12), &ImportOptions::new("c")).expect("12 deep");
    let dir = tempdir("chain12");
    imported.write_to(&dir).expect("written");
    let out = arbor_runtime::btcpp::export_file(&dir.join("c.json"), &imported.node_types())
        .expect("a chain the loader accepts exports");
    assert!(out.xml.contains(r#"<SubTree ID="T12"/>"#));
}

#[test]
fn one_id_as_action_and_condition_is_reported() {
    // `<Action ID="X">` and `<Condition ID="X">` are not silently merged into one type.
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
        <Action ID="Check"/>
        <Condition ID="Check"/>
      </Sequence></BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let w: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|m| m.contains(":3:9:") && m.contains("used as <Condition> here and as <Action>")),
        "{w:#?}"
    );
}

#[test]
fn an_empty_output_key_imports_into_a_file_that_loads() {
    // `output_key=""` does not become a SetBlackboard of the key "" (which `check` refuses).
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <SetBlackboard value="1" output_key=""/></BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    assert!(imported
        .warnings
        .iter()
        .any(|w| w.message.contains("`output_key` is empty")));
    let registry = arbor_runtime::btcpp::stand_in_registry(&imported.node_types());
    let text = serde_json::to_string(imported.main()).expect("serialises");
    registry
        .loader()
        .load_str(&text, Some(std::path::Path::new("t.json")))
        .expect("the imported tree loads");
}

#[test]
fn a_literal_subtree_port_wins_over_autoremap() {
    // BT.CPP's SetBlackboard_WithPortRemapping test: with `_autoremap`, a port the call
    // sets to a literal gets the literal, as in BT.CPP, not the parent's (unset) key of the
    // same name.
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="M">
      <BehaviorTree ID="M"><SubTree ID="S" _autoremap="true" new_pos="2.2;2.4"/></BehaviorTree>
      <BehaviorTree ID="S"><SetBlackboard value="{new_pos}" output_key="pos"/></BehaviorTree>
    </root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let call = imported
        .main()
        .nodes
        .iter()
        .find(|n| n.kind == "Subtree")
        .unwrap();
    assert_eq!(call.params["remap"], json!({"pos": "pos"}));
    let sub = &imported.file("S").unwrap().tree;
    let new_pos = sub.blackboard.iter().find(|k| k.key == "new_pos").unwrap();
    assert_eq!(new_pos.default, Some(json!("2.2;2.4")));
}

#[test]
fn import_and_check_agree_on_the_subtree_depth_limit() {
    // The import and `check` agree on the limit of 16 nested subtrees.
    for (n, ok) in [(16, true), (17, false)] {
        let imported = import_str(&subtree_chain(n), &ImportOptions::new("c"));
        assert_eq!(imported.is_ok(), ok, "import of {n}");
        let Ok(imported) = imported else { continue };
        let dir = tempdir(&format!("chain-check-{n}"));
        imported.write_to(&dir).expect("written");
        let report = arbor_runtime::check_file(
            dir.join("c.json"),
            &imported.node_types(),
            &arbor_runtime::LoadOptions::default(),
        );
        assert!(report.is_ok(), "check of {n}: {report:?}");
    }
}

#[test]
fn two_hundred_thousand_siblings_are_refused_after_linear_work() {
    // Positions are found with a forward cursor: roxmltree's `text_pos_at` scans from the
    // start of the document for every node, which is quadratic in the number of siblings.
    // 200,000 are refused at the loader's node limit. Counted here, not timed: every byte
    // is scanned at most once for positions.
    let n = 200_000;
    let mut xml = String::from("<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"T\">\n<Sequence>\n");
    for i in 0..n {
        xml.push_str(&format!("<A name=\"a{i}\"/>\n"));
    }
    xml.push_str("</Sequence>\n</BehaviorTree>\n</root>\n");
    let (result, work) =
        arbor_runtime::work::measure(arbor_runtime::work::Counter::XmlPositionBytes, || {
            import_str(&xml, &ImportOptions::new("wide"))
        });
    let err = result
        .map(|_| ())
        .expect_err("over the node limit")
        .to_string();
    assert!(
        err.contains(":3:1: <BehaviorTree ID=\"T\"> has 200001 nodes; Arbor loads at most 100000"),
        "{err}"
    );
    assert!(work <= xml.len() as u64, "{work} > {}", xml.len());
}

/// Rules 64 to 69: BT.CPP 4.8's ParallelAll, loops, update watchers and UnsetBlackboard
/// import as Arbor kinds, with keys typed by the loop's element type.
#[test]
fn queue_loops_parallel_all_and_update_watchers_map_to_arbor_kinds() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T"><Fallback>
        <ParallelAll max_failures="-1"><A/><B/></ParallelAll>
        <LoopDouble queue="{xs}" value="{x}" if_empty="SKIPPED"><A/></LoopDouble>
        <LoopString queue="a;b" value="{s}"><A/></LoopString>
        <SkipUnlessUpdated entry="goal"><A/></SkipUnlessUpdated>
        <WaitValueUpdate entry="{goal}"><A/></WaitValueUpdate>
        <WasEntryUpdated entry="goal"/>
        <UnsetBlackboard key="goal"/>
        <UnsetBlackboard key="{which}"/>
      </Fallback></BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let t = imported.main();
    let kinds: Vec<&str> = t.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "Selector",
            "ParallelAll",
            "A",
            "B",
            "Loop",
            "A",
            "Loop",
            "A",
            "IfUpdated",
            "A",
            "IfUpdated",
            "A",
            "WasUpdated",
            "UnsetBlackboard",
            // The key's *name* read from `which`: no Arbor form.
            "BTCPP_UnsetBlackboard",
        ]
    );
    let params = |i: usize| serde_json::Value::Object(t.nodes[i].params.clone());
    assert_eq!(params(1), json!({"max_failures": -1}));
    // SKIPPED under a Fallback: failure, so the Fallback moves on (rule 56).
    assert_eq!(
        params(4),
        json!({"queue": {"$key": "xs"}, "value": "x", "if_empty": "failure"})
    );
    assert_eq!(params(6), json!({"queue": ["a", "b"], "value": "s"}));
    assert_eq!(params(8), json!({"key": "goal", "otherwise": "failure"}));
    assert_eq!(params(10), json!({"key": "goal", "otherwise": "running"}));
    assert_eq!(params(12), json!({"key": "goal"}));
    assert_eq!(params(13), json!({"key": "goal"}));
    let ty = |key: &str| {
        t.blackboard
            .iter()
            .find(|d| d.key == key)
            .map(|d| d.ty.to_string())
            .unwrap_or_else(|| panic!("{key} is not declared"))
    };
    assert_eq!(ty("xs"), "list<float>");
    assert_eq!(ty("x"), "float");
    assert_eq!(ty("s"), "string");
    assert_eq!(ty("goal"), "json");
}

#[test]
fn a_loop_queue_that_is_not_of_its_type_stays_opaque() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <LoopInt queue="1;x" value="{n}"><A/></LoopInt>
      </BehaviorTree></root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    assert_eq!(imported.main().nodes[0].kind, "LoopInt");
    assert!(
        imported
            .warnings
            .iter()
            .any(|w| w.message.contains("queue element `x` is not int")),
        "{:?}",
        imported.warnings
    );
}

#[test]
fn a_timer_without_its_duration_is_refused_where_btcpp_throws() {
    // BT.CPP 4.8 loads these and throws when they tick: "Missing parameter [msec] in
    // TimeoutNode" (src/decorators/timeout_node.cpp), "... [delay_msec] in DelayNode",
    // "... [msec] in SleepNode".
    for (xml, expected) in [
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\">\n  <Timeout><A/></Timeout></BehaviorTree></root>",
            "2:3: <Timeout> has no `msec`: BT.CPP throws \"Missing parameter [msec] in TimeoutNode\"",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Delay><A/></Delay></BehaviorTree></root>",
            "\"Missing parameter [delay_msec] in DelayNode\"",
        ),
        (
            "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Sleep/></BehaviorTree></root>",
            "\"Missing parameter [msec] in SleepNode\"",
        ),
    ] {
        let problems = errors(xml);
        assert!(problems.iter().any(|p| p.contains(expected)), "{problems:?}");
    }
    // With the duration it imports.
    let ok = "<root BTCPP_format=\"4\"><BehaviorTree ID=\"T\"><Timeout msec=\"5\"><A/></Timeout></BehaviorTree></root>";
    assert!(import_str(ok, &ImportOptions::new("t")).is_ok());
}
