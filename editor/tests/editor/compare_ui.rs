//! Compare with… and the conflicts panel, driven through the whole editor: the File menu
//! and its path field, the compare panel's list and its Previous / Next, the canvas's
//! marks and ghosts, and resolving a merge conflict by a click, then undoing it.

use std::path::Path;
use std::process::Command;

use arbor_editor::compare::{EntryKind, MarkKind, Target};
use arbor_editor::Session;
use egui::{Key, Modifiers};
use serde_json::{json, Value};

use crate::common::{session_with, Harness, CTRL};

/// A saved tree (Sequence root, two Waits) and the GUIDs of its nodes.
fn saved_tree(dir: &Path) -> (Session, Vec<String>) {
    let (mut session, guids) = session_with(&[
        ("Sequence", [0.0, 0.0]),
        ("Wait", [300.0, 0.0]),
        ("Wait", [300.0, 160.0]),
    ]);
    session
        .save_as(&dir.join("tree.json"))
        .expect("the tree is saved");
    (session, guids)
}

/// The document's file, as JSON.
fn json_of(session: &Session) -> Value {
    serde_json::from_str(&session.document().to_json()).expect("the document's JSON")
}

/// Another version of the tree: the first Wait named "Renamed", the second one absent, and
/// a Wait "Gone" that the document does not have.
fn other_version(session: &Session, guids: &[String]) -> Value {
    let mut other = json_of(session);
    let gone = "00000000-0000-4000-8000-00000000aaaa";
    let nodes = other["nodes"].as_array_mut().expect("nodes");
    nodes.retain(|n| n["guid"] != json!(guids[2]));
    for n in nodes.iter_mut() {
        if n["guid"] == json!(guids[1]) {
            n["name"] = json!("Renamed");
        }
    }
    nodes.push(json!({"guid": gone, "name": "Gone", "type": "Wait", "params": {"seconds": 1.0}}));
    other["editor"]["positions"]
        .as_object_mut()
        .expect("positions")
        .remove(&guids[2]);
    other["editor"]["positions"][gone] = json!([300.0, 320.0]);
    other
}

/// Clicks a menu bar item, then an item of the menu it opened.
fn menu(h: &mut Harness, top: &str, item: &str) {
    let at = h.text_rect(top, |_| true).expect("the menu bar");
    h.click(at.center());
    h.frames(2);
    let at = h.last_text_rect(item).expect("the menu item");
    h.click(at.center());
    h.frames(2);
}

#[test]
fn comparing_with_a_file_marks_the_canvas_and_leaves_the_document_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (session, guids) = saved_tree(dir.path());
    let other = dir.path().join("other.json");
    std::fs::write(&other, other_version(&session, &guids).to_string()).unwrap();
    let before = session.document().to_json();
    let mut h = Harness::new(session);
    let generation = h.app.session().generation();

    // File → Compare with File…: no native dialog here, so a path field.
    menu(&mut h, "File", "Compare with File…");
    let field = h.last_text_rect(&dir.path().join("tree.json").display().to_string());
    h.click(
        field
            .expect("the path field, holding the document's path")
            .center(),
    );
    h.key(Key::A, CTRL);
    h.type_text(&other.display().to_string());
    h.key(Key::Enter, Modifiers::NONE);
    h.frames(3);

    let c = h.app.canvas().compare().expect("the comparison is shown");
    assert_eq!(c.label(), other.display().to_string());
    let kinds: Vec<(EntryKind, Target)> = c
        .entries()
        .iter()
        .map(|e| (e.kind, e.target.clone()))
        .collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds.contains(&(EntryKind::Changed, Target::Node(guids[1].clone()))));
    assert!(kinds.contains(&(EntryKind::Added, Target::Node(guids[2].clone()))));
    assert!(kinds
        .iter()
        .any(|(k, t)| *k == EntryKind::Removed && matches!(t, Target::Ghost(_))));
    assert_eq!(c.mark(&guids[1]).map(|m| m.kind), Some(MarkKind::Changed));
    assert_eq!(c.mark(&guids[2]).map(|m| m.kind), Some(MarkKind::Added));
    // The panel lists them, the nodes carry their badges, the ghost is painted.
    assert!(h.shows("3 changes"), "the panel's count");
    assert!(h.shows("Gone (Wait)"), "the removed node's ghost");
    assert!(h.shows("added") && h.shows("changed"), "the node badges");
    // A click on a row steps to it and says what differs.
    let row = h
        .texts()
        .into_iter()
        .find(|(text, _)| text.starts_with("changed node"))
        .expect("the changed node's row");
    h.click(row.1.center());
    h.frames(2);
    assert!(h.shows("name: \"Renamed\" → \"Wait\""), "what changed");
    assert_eq!(
        h.app.tab().single_node(),
        Some(guids[1].clone()),
        "and selected"
    );

    let close = h.last_text_rect("Close").expect("the panel's Close");
    h.click(close.center());
    h.frames(2);
    assert!(h.app.canvas().compare().is_none());
    assert!(!h.shows("Gone (Wait)"));
    assert_eq!(
        h.app.session().generation(),
        generation,
        "no command was issued"
    );
    assert!(!h.app.session().is_modified());
    assert_eq!(h.app.session().document().to_json(), before);
}

#[test]
fn stepping_the_list_selects_and_frames_each_node_and_wraps() {
    let dir = tempfile::tempdir().unwrap();
    let (session, guids) = saved_tree(dir.path());
    let other = dir.path().join("other.json");
    std::fs::write(&other, other_version(&session, &guids).to_string()).unwrap();
    let mut h = Harness::new(session);
    h.app.compare_with_file(&other);
    h.frames(3);
    let targets: Vec<Target> = h
        .app
        .canvas()
        .compare()
        .unwrap()
        .entries()
        .iter()
        .map(|e| e.target.clone())
        .collect();

    for (i, target) in targets.iter().enumerate().chain([(0, &targets[0])]) {
        let next = h.last_text_rect("Next").expect("the panel's Next");
        h.click(next.center());
        h.frames(3);
        assert_eq!(h.app.canvas().compare().unwrap().cursor(), Some(i));
        if let Target::Node(guid) = target {
            assert_eq!(h.app.tab().single_node().as_ref(), Some(guid), "step {i}");
            let drawn = h.app.canvas().drawn(guid).expect("the node is drawn");
            assert!(
                h.app.canvas().view_rect().contains(drawn.rect().center()),
                "step {i}: the node is in view"
            );
        }
    }
    let previous = h.last_text_rect("Previous").expect("the panel's Previous");
    h.click(previous.center());
    h.frames(2);
    assert_eq!(
        h.app.canvas().compare().unwrap().cursor(),
        Some(targets.len() - 1),
        "from the first back to the last"
    );
    // An edit while comparing shows at once: naming the first Wait "Renamed" too makes it
    // the same as in the other version.
    let cmd = arbor_editor::commands::SetText::new(
        h.app.session().document(),
        arbor_editor::commands::TextField::NodeName(guids[1].clone()),
        "Renamed",
    );
    h.app.session_mut().apply(cmd.expect("a rename")).unwrap();
    h.frames(2);
    let c = h.app.canvas().compare().unwrap();
    assert_eq!(c.entries().len(), 2);
    assert_eq!(c.mark(&guids[1]), None);
}

#[test]
fn compare_with_head_shows_the_edit_since_the_last_commit() {
    let dir = tempfile::tempdir().unwrap();
    let (session, guids) = saved_tree(dir.path());
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .arg("-C")
            .arg(dir.path())
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .status()
            .expect("git runs")
            .success();
        assert!(ok, "git {args:?}");
    };
    let mut h = Harness::new(session);
    // Not in a repository yet: said so, and nothing is compared.
    h.app.compare_with_revision("HEAD");
    h.frames(2);
    assert!(h.shows("not in a git repository"));
    assert!(h.app.canvas().compare().is_none());

    git(&["init", "-q"]);
    git(&["add", "tree.json"]);
    git(&["commit", "-q", "-m", "tree"]);
    let cmd = arbor_editor::commands::SetParam::new(
        h.app.session().document(),
        arbor_editor::document::Owner::Node(guids[2].clone()),
        "seconds",
        Some(json!(9.0)),
    );
    h.app
        .session_mut()
        .apply(cmd.expect("a parameter"))
        .unwrap();
    h.app.compare_with_revision("HEAD");
    h.frames(3);
    let c = h.app.canvas().compare().expect("compared with HEAD");
    assert_eq!(c.label(), "HEAD:tree.json");
    assert_eq!(c.entries().len(), 1);
    let mark = c.mark(&guids[2]).expect("the edited node is marked");
    assert_eq!(mark.kind, MarkKind::Changed);
    assert_eq!(mark.details.len(), 1);
    assert!(
        mark.details[0].starts_with("params.seconds: "),
        "{:?}",
        mark.details
    );
}

/// A merged file with one conflict: B's `seconds`, 2 in the base, 5 ours, 7 theirs.
fn conflicted(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("merged.json");
    std::fs::write(&path, arbor_editor::document::conflicted_text()).unwrap();
    path
}

#[test]
fn a_conflict_is_resolved_in_the_panel_undone_and_gone_from_the_save() {
    let dir = tempfile::tempdir().unwrap();
    let path = conflicted(dir.path());
    let mut h = Harness::new(Session::open(&path).expect("a merged file opens"));
    h.frames(2);
    assert!(h.shows("Merge conflicts (1)"));
    assert!(h.shows("node \"B\" params.seconds"));
    assert!(h.shows("7.0"), "their value is listed");
    let seconds = |h: &Harness| {
        h.app
            .session()
            .document()
            .nodes()
            .find(|n| n.name == "B")
            .unwrap()
            .params["seconds"]
            .clone()
    };

    let theirs = h.last_text_rect("Take theirs").expect("the panel's button");
    h.click(theirs.center());
    h.frames(2);
    assert!(h.app.session().document().conflicts().is_empty());
    assert_eq!(seconds(&h), json!(7.0));
    assert!(
        !h.shows("Merge conflicts"),
        "the panel goes with the last conflict"
    );

    h.key(Key::Z, CTRL);
    h.frames(2);
    assert_eq!(h.app.session().document().conflicts().len(), 1, "undone");
    assert_eq!(seconds(&h), json!(5.0));
    assert!(h.shows("Merge conflicts (1)"));

    let ours = h.last_text_rect("Take ours").expect("the panel's button");
    h.click(ours.center());
    h.frames(2);
    assert!(h.app.session().document().conflicts().is_empty());
    assert_eq!(seconds(&h), json!(5.0));
    assert!(h.app.save());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(!saved.contains("conflicts"), "{saved}");
}
