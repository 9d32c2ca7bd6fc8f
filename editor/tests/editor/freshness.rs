//! Nothing stale: the problems on the canvas (the marks and messages on nodes) and in the
//! Problems panel are those of the document as it is, in the frame after an edit made in a
//! panel, after a file is opened or a tree created, and after a tab switch. A panel edits
//! the document in the middle of a frame, before the canvas draws: these tests make their
//! edits as a user does, through the panels, so that ordering is what is tested.

use arbor_editor::app::Action;
use arbor_editor::document::Selection;
use arbor_editor::panels::BlackboardPanel;
use arbor_editor::Session;
use arbor_runtime::Severity;
use egui::{Key, Modifiers};

use crate::common::{session_with, Harness};

/// A Sequence (the root) with a Wait that has no `seconds`: one error on the Wait.
fn wait_without_seconds() -> (Session, String) {
    let (mut session, guids) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [300.0, 0.0])]);
    session.connect(&guids[0], &guids[1]).expect("connected");
    session.mark_saved();
    (session, guids[1].clone())
}

fn problems_on(h: &Harness, guid: &str) -> usize {
    h.app.report().for_node(guid).count()
}

/// The report, the Problems panel, the node's mark and its messages all show `guid`'s
/// error.
fn assert_marked_everywhere(h: &Harness, guid: &str) {
    assert!(problems_on(h, guid) > 0, "the report");
    assert!(!h.shows("No problems"), "the panel");
    assert_eq!(h.app.canvas().problem_mark(guid), Some(Severity::Error));
    let messages = h.app.canvas().node_messages(guid).unwrap_or_default();
    assert!(!messages.is_empty(), "the node's messages");
}

#[test]
fn a_value_typed_in_the_inspector_clears_the_mark_in_the_next_frame() {
    let (session, wait) = wait_without_seconds();
    let mut h = Harness::new(session);
    h.app.set_selection(Selection::of_nodes([&wait]));
    h.frames(3);
    assert!(problems_on(&h, &wait) > 0, "a Wait needs its seconds");
    assert_eq!(h.app.canvas().problem_mark(&wait), Some(Severity::Error));
    let shown = h
        .app
        .canvas()
        .node_messages(&wait)
        .expect("the Wait is drawn");
    assert!(!shown.is_empty(), "the node says what is wrong");

    // One edit, as a user makes it: click the value (a click, not a drag, edits it as
    // text), replace the text, Enter.
    let label = h
        .last_text_rect("seconds")
        .expect("the inspector shows seconds");
    let value = h
        .texts()
        .iter()
        .filter(|(t, r)| {
            t.parse::<f64>().is_ok()
                && r.left() > label.right()
                && (r.center().y - label.center().y).abs() < 4.0
        })
        .map(|(_, r)| *r)
        .next()
        .expect("its value, on the same row");
    h.click(value.center());
    h.frame();
    h.key(Key::End, Modifiers::NONE);
    for _ in 0..6 {
        h.key(Key::Backspace, Modifiers::NONE);
    }
    h.type_text("2.5");
    h.key(Key::Enter, Modifiers::NONE);
    let seconds = h
        .app
        .session()
        .document()
        .node(&wait)
        .and_then(|n| n.params.get("seconds").cloned());
    assert_eq!(seconds, Some(serde_json::json!(2.5)), "the edit was made");

    // `key` ran the frame of the edit and one more: everything agrees already.
    assert_eq!(problems_on(&h, &wait), 0, "the panel's report");
    assert_eq!(h.app.canvas().problem_mark(&wait), None, "the node's mark");
    assert_eq!(
        h.app.canvas().node_messages(&wait),
        Some(Vec::new()),
        "the node's messages"
    );
    assert!(h.shows("No problems"));
}

#[test]
fn deleting_a_used_key_in_the_blackboard_marks_its_user_at_once() {
    let path = arbor_samples::trees_dir().join("counting.json");
    let session = Session::open(&path).expect("the sample opens");
    let condition = session
        .document()
        .nodes()
        .find(|n| n.kind == "Condition")
        .expect("the sample has a Condition")
        .guid
        .clone();
    let mut h = Harness::new(session);
    h.app.canvas_mut().frame(std::slice::from_ref(&condition));
    h.frames(4);
    assert_eq!(problems_on(&h, &condition), 0, "the sample is valid");
    assert_eq!(h.app.canvas().problem_mark(&condition), None);

    // The delete button of `target`'s row, then "Delete anyway" in the question.
    let row = h
        .ctx
        .read_response(BlackboardPanel::name_id("target"))
        .expect("the blackboard lists target")
        .rect;
    let trash = h
        .texts()
        .iter()
        .filter(|(t, r)| t == "🗑" && r.center().y > row.top() && r.center().y < row.bottom())
        .map(|(_, r)| *r)
        .next()
        .expect("the delete button of target's row is inside the panel");
    h.click(trash.center());
    h.frame();
    let anyway = h
        .last_text_rect("Delete anyway")
        .expect("the question is shown");
    h.move_to(anyway.center());
    h.button(anyway.center(), egui::PointerButton::Primary, true);
    // The frame of the release is the frame of the edit.
    h.button(anyway.center(), egui::PointerButton::Primary, false);
    assert!(
        h.app
            .session()
            .document()
            .blackboard()
            .iter()
            .all(|k| k.key != "target"),
        "the key is gone"
    );
    assert!(problems_on(&h, &condition) > 0, "the panel's report");
    assert_eq!(
        h.app.canvas().problem_mark(&condition),
        Some(Severity::Error),
        "the node's mark, in the frame of the edit"
    );
    let messages = h.app.canvas().node_messages(&condition).expect("drawn");
    assert!(
        messages.iter().any(|m| m.contains("target")),
        "the node names the missing key: {messages:?}"
    );
}

#[test]
fn an_opened_file_and_a_new_tree_show_their_problems_in_their_first_frame() {
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let (broken, wait) = wait_without_seconds();
    h.app.show_in_tab(broken);
    h.frame();
    assert!(problems_on(&h, &wait) > 0);
    assert_eq!(h.app.canvas().problem_mark(&wait), Some(Severity::Error));
    assert!(!h.shows("No problems"), "the panel lists it");

    // A new tree has no root: its one problem shows at once, not after the first edit.
    h.act(Action::New);
    h.frame();
    assert_eq!(h.app.tabs().len(), 2, "the blank first tab was replaced");
    assert!(!h.app.report().problems.is_empty());
    assert!(!h.shows("No problems"));
}

#[test]
fn switching_tabs_shows_each_tabs_own_problems_on_canvas_and_panel() {
    let (broken, wait) = wait_without_seconds();
    let mut h = Harness::new(broken);
    let path = arbor_samples::trees_dir().join("counting.json");
    h.app
        .show_in_tab(Session::open(&path).expect("the sample opens"));
    h.frames(2);
    assert!(h.shows("No problems"), "the sample's own (empty) list");
    assert_eq!(h.app.canvas().problem_mark(&wait), None, "not in this tab");

    h.app.switch_to(0);
    h.frame();
    assert_marked_everywhere(&h, &wait);

    h.app.switch_to(1);
    h.frame();
    assert!(h.shows("No problems"));
}

/// A Sequence over `n - 1` Waits of one second, and the first Wait's GUID.
fn big_tree(n: usize) -> (Session, String) {
    let guid = |i: usize| format!("00000000-0000-4000-8000-{i:012x}");
    let mut nodes = vec![serde_json::json!({
        "guid": guid(0), "type": "Sequence",
        "children": (1..n).map(guid).collect::<Vec<_>>(),
    })];
    nodes.extend((1..n).map(
        |i| serde_json::json!({ "guid": guid(i), "type": "Wait", "params": { "seconds": 1.0 } }),
    ));
    let file = serde_json::json!({
        "format": "arbor-tree", "version": 1,
        "guid": "11111111-0000-4000-8000-000000000000", "name": "big",
        "root": guid(0), "nodes": nodes,
    });
    let doc = arbor_editor::document::io::load_str(&file.to_string(), None).expect("valid");
    (Session::new(doc), guid(1))
}

fn unset_seconds(h: &mut Harness, wait: &str) {
    let cmd = arbor_editor::commands::SetParam::new(
        h.app.session().document(),
        arbor_editor::document::Owner::Node(wait.to_owned()),
        "seconds",
        None,
    )
    .expect("a parameter");
    h.app.session_mut().apply(cmd).expect("applied");
}

#[test]
fn a_large_trees_marks_follow_its_background_check() {
    // 1,000 nodes or more are checked on a worker thread.
    let (session, wait) = big_tree(arbor_editor::app::BACKGROUND_FROM + 10);
    let mut h = Harness::new(session);
    h.app.canvas_mut().frame(std::slice::from_ref(&wait));
    h.frames(3);
    assert_eq!(h.app.canvas().problem_mark(&wait), None);

    unset_seconds(&mut h, &wait);
    // Frames go on while the check runs; as soon as its report lands, the mark, the
    // node's message and the panel agree with it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !h.app.tab().validation().is_current(h.app.session()) {
        assert!(std::time::Instant::now() < deadline, "the check ended");
        h.frame();
    }
    h.frame();
    assert_marked_everywhere(&h, &wait);
}

#[test]
fn a_large_tree_reloads_its_preview_once_edits_pause() {
    let (session, wait) = big_tree(arbor_editor::preview::QUIET_RELOAD_FROM + 10);
    let mut h = Harness::new(session);
    h.frames(2);
    assert!(!h.preview().reload_pending());
    unset_seconds(&mut h, &wait);
    h.frame();
    assert!(
        h.preview().reload_pending(),
        "not reloaded in the frame of the edit"
    );
    h.frames(3);
    assert!(h.preview().reload_pending(), "nor while edits may go on");
    h.wait(arbor_editor::preview::QUIET_SECONDS + 0.05);
    assert!(!h.preview().reload_pending(), "reloaded once they paused");
    assert!(
        !h.preview().problems().is_empty(),
        "the reload found the Wait without its seconds"
    );
}
