//! BehaviorTree.CPP XML through the editor: Open imports, Save writes XML back,
//! and neither loses anything the user made.

use std::fs;
use std::path::{Path, PathBuf};

use arbor_editor::commands::SetParam;
use arbor_editor::document::Owner;
use arbor_editor::Session;
use serde_json::json;

fn fixture(dir: &Path, name: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/data/btcpp")
        .join(name);
    let target = dir.join(name);
    fs::copy(&source, &target).expect("copy the fixture");
    target
}

fn node_named<'a>(session: &'a Session, name: &str) -> &'a str {
    session
        .document()
        .nodes()
        .find(|n| n.name == name || n.kind == name)
        .map(|n| n.guid.as_str())
        .unwrap_or_else(|| panic!("no node {name}"))
}

#[test]
fn opening_xml_shows_the_main_tree_and_writes_its_subtrees_and_types_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = fixture(dir.path(), "crossdoor.xml");
    let session = Session::open(&xml).expect("the XML opens");

    let doc = session.document();
    let root = doc.root().expect("a root");
    assert_eq!(doc.node(root).map(|n| n.kind.as_str()), Some("Sequence"));
    assert_eq!(
        doc.children(root).len(),
        3,
        "Script, Fallback, PassThroughDoor"
    );
    // The other tree and the custom node types are files the Subtree node and the palette use.
    assert!(dir.path().join("crossdoor.DoorClosed.json").is_file());
    assert!(dir.path().join("crossdoor.types.json").is_file());
    let pass = session
        .types()
        .node("PassThroughDoor")
        .expect("a host type");
    assert!(
        pass.param_spec("speed").is_some(),
        "ports become parameters"
    );
    // Every node has a position: the import laid the tree out.
    assert!(doc.nodes().all(|n| doc.position(&n.guid).is_some()));
    // It checks clean with the types it declared, so the preview can run it.
    let report = session.validate();
    assert!(
        report.problems.iter().all(|p| !p.is_error()),
        "{:?}",
        report.problems
    );
}

#[test]
fn an_edit_saved_to_xml_is_there_when_reopened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = fixture(dir.path(), "crossdoor.xml");
    let mut session = Session::open(&xml).expect("the XML opens");
    let pass = node_named(&session, "PassThroughDoor").to_owned();
    let cmd = SetParam::new(
        session.document(),
        Owner::Node(pass),
        "speed",
        Some(json!(2.5)),
    )
    .expect("a command");
    session.apply(cmd).expect("applied");
    assert!(session.is_modified());
    session.save().expect("saved as XML");
    assert!(!session.is_modified());

    let text = fs::read_to_string(&xml).expect("the XML");
    assert!(text.contains("BTCPP_format=\"4\""), "{text}");
    assert!(text.contains("speed=\"2.5\""), "{text}");
    assert!(
        text.contains("<BehaviorTree ID=\"DoorClosed\""),
        "the subtree is exported too"
    );

    let again = Session::open(&xml).expect("reopens");
    let pass = node_named(&again, "PassThroughDoor");
    let params = again
        .document()
        .params(&Owner::Node(pass.to_owned()))
        .expect("params");
    assert_eq!(params.get("speed"), Some(&json!(2.5)));
}

#[test]
fn a_json_tree_saved_as_xml_and_a_tree_xml_cannot_hold_is_refused_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut session, guids) =
        crate::common::session_with(&[("Sequence", [0.0, 0.0]), ("SendEvent", [200.0, 0.0])]);
    let ev = guids[1].clone();
    session.connect(&guids[0], &ev).expect("connected");
    let cmd = SetParam::new(
        session.document(),
        Owner::Node(ev.clone()),
        "event",
        Some(json!("ping")),
    )
    .expect("a command");
    session.apply(cmd).expect("applied");
    let target = dir.path().join("out.xml");
    let err = session
        .save_as(&target)
        .expect_err("SendEvent has no BT.CPP form");
    assert!(err.to_string().contains("SendEvent"), "{err}");
    assert!(!target.exists(), "nothing written");
    assert!(session.is_modified(), "still unsaved");
    assert_eq!(session.path(), None);
}

#[test]
fn a_companion_edited_after_the_xml_is_kept_on_reopen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = fixture(dir.path(), "crossdoor.xml");
    drop(Session::open(&xml).expect("opens"));
    let sub = dir.path().join("crossdoor.DoorClosed.json");
    // An edit made in Arbor to the subtree, not yet saved into the XML.
    let original = fs::read_to_string(&sub).expect("the subtree");
    assert!(original.contains("\"name\": \"try_open\""), "{original}");
    let edited = original.replace("\"name\": \"try_open\"", "\"name\": \"try_open_edited\"");
    fs::write(&sub, &edited).expect("edit");
    // The edit is later than the XML's last write whatever the file system's timestamp
    // granularity: the XML's time is set to an hour before the edit's.
    let edited_at = fs::metadata(&sub)
        .and_then(|m| m.modified())
        .expect("the edit's time");
    fs::File::options()
        .write(true)
        .open(&xml)
        .and_then(|f| f.set_modified(edited_at - std::time::Duration::from_secs(3600)))
        .expect("the XML's time set");

    let session = Session::open(&xml).expect("reopens");
    assert_eq!(fs::read_to_string(&sub).expect("the subtree"), edited);
    assert!(
        session
            .notes()
            .iter()
            .any(|n| n.contains("kept crossdoor.DoorClosed.json")),
        "{:?}",
        session.notes()
    );

    // Once the XML is saved (it now holds the edit), reopening regenerates the file.
    let mut session = session;
    session.save().expect("saved");
    let text = fs::read_to_string(&xml).expect("the XML");
    assert!(
        text.contains("name=\"try_open_edited\""),
        "the kept edit reached the XML: {text}"
    );
    let reopened = Session::open(&xml).expect("reopens");
    assert!(
        reopened.notes().iter().all(|n| !n.starts_with("kept ")),
        "{:?}",
        reopened.notes()
    );
}

#[test]
fn a_broken_xml_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = dir.path().join("broken.xml");
    fs::write(
        &xml,
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"M\">\n    <Sequence>\n  </BehaviorTree>\n</root>\n",
    )
    .expect("write");
    let err = Session::open(&xml).expect_err("malformed");
    let text = err.to_string();
    assert!(text.contains("broken.xml:"), "{text}");
    assert!(text.contains(":4:"), "names the line: {text}");
}
