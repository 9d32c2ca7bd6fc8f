//! `arbor import` and `arbor export`: files written, warnings and problems on
//! stderr, exit codes; the imported files pass `arbor check` and export again.
#![cfg(all(feature = "btcpp", feature = "cli"))]

use super::support;

use crate::common::{arbor, text};
use support::{btcpp_violations, fixture_path, tempdir};

#[test]
fn import_check_export() {
    let dir = tempdir("cli");
    let xml = fixture_path("crossdoor.xml").display().to_string();
    let out_json = dir.join("out/door.json").display().to_string();
    let out = arbor(&["import", &xml, "-o", &out_json]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = text(&out.stdout);
    for f in ["door.json", "door.DoorClosed.json", "door.types.json"] {
        assert!(written.contains(f), "{written}");
        assert!(dir.join("out").join(f).exists(), "{f}");
    }
    // `_onSuccess` is imported as a script decorator now, not kept with a warning.
    let door = std::fs::read_to_string(dir.join("out/door.DoorClosed.json")).expect("written");
    assert!(door.contains("\"OnSuccess\""), "{door}");

    let manifest = dir.join("out/door.types.json").display().to_string();
    let out = arbor(&["check", "--types", &manifest, &out_json]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out_xml = dir.join("door.xml").display().to_string();
    let out = arbor(&["export", &out_json, "-o", &out_xml]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exported = std::fs::read_to_string(&out_xml).expect("written");
    assert!(btcpp_violations(&exported).is_empty(), "{exported}");
    // Without -o the XML goes to stdout.
    let out = arbor(&["export", &out_json]);
    assert_eq!(text(&out.stdout), exported);
}

#[test]
fn import_errors_are_located_and_exit_1() {
    let dir = tempdir("cli-bad");
    let bad = dir.join("bad.xml");
    std::fs::write(
        &bad,
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"T\">\n</root>",
    )
    .unwrap();
    let out = arbor(&[
        "import",
        &bad.display().to_string(),
        "-o",
        &dir.join("t.json").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("bad.xml:3:"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("t.json").exists());
}

#[test]
fn export_lists_what_has_no_bt_cpp_form_and_exits_1() {
    let dir = tempdir("cli-unexportable");
    let tree = r#"{"format": "arbor-tree", "version": 1,
      "guid": "00000000-0000-4000-8000-000000000000", "name": "T",
      "root": "00000000-0000-4000-8000-000000000001",
      "nodes": [
        {"guid": "00000000-0000-4000-8000-000000000001", "name": "root", "type": "Sequence",
         "children": ["00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"]},
        {"guid": "00000000-0000-4000-8000-000000000002", "name": "limit", "type": "Limiter",
         "params": {"max": 1}, "children": ["00000000-0000-4000-8000-000000000004"]},
        {"guid": "00000000-0000-4000-8000-000000000003", "name": "roll", "type": "Random",
         "params": {"probability": 0.5}},
        {"guid": "00000000-0000-4000-8000-000000000004", "name": "pause", "type": "Wait",
         "params": {"seconds": 1}}
      ]}"#;
    let path = dir.join("t.json");
    std::fs::write(&path, tree).unwrap();
    let out = arbor(&["export", &path.display().to_string(), "-o", "unused.xml"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("node \"limit\" (Limiter)"), "{err}");
    assert!(err.contains("node \"roll\" (Random)"), "{err}");
    assert!(!std::path::Path::new("unused.xml").exists());
}

/// Rule 61 in `arbor run`: Nav2's controls and decorators get stand-ins on import, so the
/// imported tree runs its branches with stubs for the leaves only.
#[test]
fn run_ticks_the_children_of_nav2_controls_through_their_stand_ins() {
    let dir = tempdir("cli-nav2");
    let xml = dir.join("nav.xml");
    std::fs::write(
        &xml,
        r#"<root BTCPP_format="4"><BehaviorTree ID="Nav">
          <RecoveryNode number_of_retries="6">
            <PipelineSequence>
              <RateController hz="1.0"><ComputePathToPose goal="{goal}"/></RateController>
              <FollowPath controller_id="FollowPath"/>
            </PipelineSequence>
            <ClearEntireCostmap/>
          </RecoveryNode></BehaviorTree></root>"#,
    )
    .unwrap();
    let json = dir.join("nav.json").display().to_string();
    let out = arbor(&["import", xml.to_str().unwrap(), "-o", &json]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let types = std::fs::read_to_string(dir.join("nav.types.json")).unwrap();
    assert!(
        types.contains(r#""stand_in": "reactive_sequence""#),
        "{types}"
    );
    let manifest = dir.join("nav.types.json").display().to_string();
    let out = arbor(&[
        "run",
        &json,
        "--types",
        &manifest,
        "--ticks",
        "2",
        "--stub",
        "FollowPath=running,failure",
        "--default-stub",
        "success",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Tick 1 follows the path (running); tick 2 it fails and the recovery clears the map.
    // As scripted leaves the controls would have succeeded at once.
    assert_eq!(
        text(&out.stdout),
        "tick 1: running\ntick 2: success\n",
        "{}",
        text(&out.stderr)
    );
}

#[test]
#[cfg(unix)]
fn importing_dev_zero_fails_at_once_with_a_located_error() {
    // `arbor import /dev/zero` is refused by the bounded reader, not read until memory runs out.
    let dir = tempdir("cli-dev-zero");
    let out_json = dir.join("z.json").display().to_string();
    let out = arbor(&["import", "/dev/zero", "-o", &out_json]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("/dev/zero:1:1: cannot read the file: not a regular file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn import_takes_the_programs_scripting_enums() {
    let dir = tempdir("cli-enums");
    let xml = fixture_path("diff/script_enums.xml").display().to_string();
    let out_json = dir.join("e.json").display().to_string();
    let enums = ["IDLE_MODE=0", "PATROL=1", "CHASE = 2", "LIMIT=40"];
    let mut args = vec!["import", xml.as_str(), "-o", out_json.as_str()];
    for e in &enums {
        args.extend(["--enum", e]);
    }
    let out = arbor(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "no script became a stand-in");
    let manifest = std::fs::read_to_string(dir.join("e.types.json")).expect("written");
    assert!(manifest.contains(r#""CHASE": 2"#), "{manifest}");
    let types = dir.join("e.types.json").display().to_string();
    let out = arbor(&["check", "--types", &types, &out_json]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    for (bad, says) in [
        ("RED", "expected NAME=VALUE"),
        ("2x=1", "a name is letters, digits and `_`"),
        ("RED=one", "the value is not a whole number"),
    ] {
        let out = arbor(&["import", &xml, "-o", &out_json, "--enum", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(
            text(&out.stderr).contains(says),
            "{bad}: {}",
            text(&out.stderr)
        );
    }
}

/// BT.CPP 4.10 names the node a script exception came from by its path through the
/// subtrees and its type (`Exception in node 'Deliver/pick' [Script]: ...`); `arbor run`
/// says where a script stopped (rule 86) at least as precisely: the same path, the type,
/// the GUID and the file.
#[test]
fn rule86_a_script_stop_in_a_subtree_is_located_by_its_path() {
    let dir = tempdir("cli-script-stop");
    let xml = dir.join("deliver.xml");
    std::fs::write(
        &xml,
        r#"<root BTCPP_format="4" main_tree_to_execute="Main">
          <BehaviorTree ID="Main">
            <Sequence name="patrol">
              <SubTree ID="Deliver" name="deliver"/>
            </Sequence>
          </BehaviorTree>
          <BehaviorTree ID="Deliver">
            <Sequence>
              <Script name="count" code="tries := 0"/>
              <Script name="pick" code="tries = missing + 1"/>
            </Sequence>
          </BehaviorTree></root>"#,
    )
    .unwrap();
    let json = dir.join("deliver.json").display().to_string();
    let out = arbor(&["import", xml.to_str().unwrap(), "-o", &json]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = arbor(&["run", &json, "--ticks", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("script stopped"))
        .unwrap_or_else(|| panic!("no stop reported:\n{err}"));
    assert!(
        line.starts_with("[tick 1] deliver/pick [Script] (GUID `")
            && line.contains("deliver.Deliver.json): script stopped at column"),
        "{line}"
    );
}
