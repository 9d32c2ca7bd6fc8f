//! BehaviorTree.CPP import and export: every imported tree keeps a file of its own, text
//! keeps its characters both ways, include cycles are named as such, and subtree paths
//! climbing out of the current folder are followed as written.

use std::path::Path;

use arbor_runtime::btcpp::{export_file, import_file, import_str, ImportOptions};
use arbor_runtime::{check_file, LoadOptions, NodeTypes};
use serde_json::json;

use super::{scratch, write_json};
use crate::common::{text, tree_json};

#[test]
fn a_tree_whose_id_is_types_does_not_overwrite_the_manifest() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main"><Sequence><MyAction/><SubTree ID="types"/></Sequence></BehaviorTree>
  <BehaviorTree ID="types"><AlwaysSuccess/></BehaviorTree>
</root>"#;
    let imported = import_str(xml, &ImportOptions::new("out")).expect("imports");
    let names: Vec<&str> = imported
        .files
        .iter()
        .map(|f| f.file_name.as_str())
        .collect();
    assert_eq!(names, ["out.json", "out.types-2.json"]);
    assert_eq!(imported.manifest_name, "out.types.json");

    let dir = scratch("types-tree");
    let written = imported.write_to(&dir).expect("written");
    assert_eq!(written.len(), 3, "{written:?}");
    // Every file is still what it should be: the manifest declares the custom node, and
    // with it the tree loads with its subtree.
    let manifest = std::fs::read_to_string(dir.join("out.types.json")).expect("read");
    let mut types = NodeTypes::builtin();
    types.merge_manifest(&manifest).expect("a manifest");
    let report = check_file(dir.join("out.json"), &types, &LoadOptions::default());
    assert!(report.is_ok(), "{:?}", report.problems);
}

#[test]
fn entities_next_to_non_ascii_text_are_read_as_entities_and_survive_a_round_trip() {
    let name = "x < 10 km → y & z";
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main"><AlwaysSuccess name="x &lt; 10 km → y &amp; z"/></BehaviorTree>
</root>"#;
    let imported = import_str(xml, &ImportOptions::new("t")).expect("imports");
    let root = &imported.main().nodes[0];
    assert_eq!(root.name, name);

    let dir = scratch("entities");
    imported.write_to(&dir).expect("written");
    let exported = export_file(&dir.join("t.json"), &NodeTypes::builtin()).expect("exports");
    let again = import_str(&exported.xml, &ImportOptions::new("t")).expect("imports again");
    assert_eq!(again.main().nodes[0].name, name, "{}", exported.xml);
}

#[test]
fn an_include_cycle_is_reported_as_a_cycle_naming_the_files() {
    let dir = scratch("include-cycle");
    let main = dir.join("main.xml");
    let a = dir.join("a.xml");
    std::fs::write(
        &main,
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n  <include path=\"a.xml\"/>\n  <BehaviorTree ID=\"Main\"><SubTree ID=\"A\"/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    std::fs::write(
        &a,
        "<root BTCPP_format=\"4\">\n  <include path=\"main.xml\"/>\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    let err = import_file(&main, "main").expect_err("a cycle");
    let text = err.to_string();
    let shown = |p: &Path| p.display().to_string();
    assert!(
        text.contains(&format!(
            "{}:2:3: <include path=\"main.xml\"> makes a cycle: {} -> {} -> {}",
            shown(&a),
            shown(&main),
            shown(&a),
            shown(&main)
        )),
        "{text}"
    );
    assert!(!text.contains("defined twice"), "{text}");

    // Two includes of one file are not a cycle: its trees are read once.
    let b = dir.join("b.xml");
    std::fs::write(
        &b,
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"B\"><AlwaysSuccess/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    std::fs::write(
        &a,
        "<root BTCPP_format=\"4\">\n  <include path=\"b.xml\"/>\n  <BehaviorTree ID=\"A\"><SubTree ID=\"B\"/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    std::fs::write(
        &main,
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n  <include path=\"a.xml\"/>\n  <include path=\"b.xml\"/>\n  <BehaviorTree ID=\"Main\"><SubTree ID=\"A\"/></BehaviorTree>\n</root>\n",
    )
    .expect("write");
    let imported = import_file(&main, "main").expect("a diamond imports");
    assert_eq!(imported.files.len(), 3);
}

#[test]
fn export_follows_a_subtree_path_that_climbs_out_of_the_current_folder() {
    let dir = scratch("export-parent-path");
    let here = dir.join("a/b");
    std::fs::create_dir_all(here.join("proj")).expect("folders");
    std::fs::create_dir_all(dir.join("proj")).expect("folders");
    let leaf = |name: &str| {
        let mut file = tree_json(
            json!({"type": "Wait", "params": {"seconds": 1.0}}),
            json!([]),
        );
        file["name"] = json!(name);
        file["guid"] = json!(format!("00000000-0000-4000-9000-{:012}", name.len()));
        file
    };
    write_json(&dir.join("proj"), "lib.json", &leaf("RealLib"));
    write_json(
        &dir.join("proj"),
        "main.json",
        &tree_json(
            json!({"type": "Subtree", "name": "lib", "params": {"path": "lib.json"}}),
            json!([]),
        ),
    );
    // What `proj/lib.json` names from the current folder: reading it would be the bug
    // (`../../proj/lib.json` read as `proj/lib.json`).
    write_json(&here.join("proj"), "lib.json", &leaf("DecoyLibrary"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["export", "../../proj/main.json"])
        .current_dir(&here)
        .output()
        .expect("arbor runs");
    let xml = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(xml.contains("RealLib"), "{xml}");
    assert!(!xml.contains("DecoyLibrary"), "{xml}");
}
