//! Headless UI tests of the canvas: gestures on the real editor become commands on the
//! document, and undo/redo keep the canvas and the document in step.

mod common;

use common::{session_with, Harness, CTRL, CTRL_SHIFT};
use egui::{Key, Modifiers};

#[test]
fn dragging_from_children_port_to_parent_port_connects_and_ctrl_z_undoes_it() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let (seq, wait) = (g[0].clone(), g[1].clone());
    let mut h = Harness::new(session);
    let from = h
        .app
        .canvas
        .drawn(&seq)
        .and_then(|d| d.output_port())
        .expect("Sequence has a children port");
    let to = h
        .app
        .canvas
        .drawn(&wait)
        .and_then(|d| d.input_port())
        .expect("Wait has a parent port");
    assert!(h.app.session.document().children(&seq).is_empty());

    h.drag(from, to);
    assert_eq!(
        h.app.session.document().children(&seq),
        std::slice::from_ref(&wait),
        "connected by the drag"
    );
    assert_eq!(
        h.app.session.undo_text().as_deref(),
        Some("Undo Connect \"Sequence\" ➡ \"Wait\"")
    );

    h.key(Key::Z, CTRL);
    assert!(
        h.app.session.document().children(&seq).is_empty(),
        "Ctrl+Z undoes the connection"
    );
    h.frame();
    // The view followed the undo: the library's graph holds no connection either.
    h.key(Key::Z, CTRL_SHIFT);
    assert_eq!(
        h.app.session.document().children(&seq),
        [wait],
        "Ctrl+Shift+Z redoes it"
    );
}

#[test]
fn an_invalid_connection_is_refused_with_a_reason() {
    // A Wait has no children port; an Inverter already holding a child refuses a second.
    let (mut session, g) = session_with(&[
        ("Inverter", [0.0, 0.0]),
        ("Wait", [420.0, -120.0]),
        ("Wait", [420.0, 120.0]),
    ]);
    session.connect(&g[0], &g[1]).expect("first child");
    session.mark_saved();
    let mut h = Harness::new(session);
    let from = h
        .app
        .canvas
        .drawn(&g[0])
        .and_then(|d| d.output_port())
        .expect("port");
    let to = h
        .app
        .canvas
        .drawn(&g[2])
        .and_then(|d| d.input_port())
        .expect("port");
    h.drag(from, to);
    assert_eq!(
        h.app.session.document().children(&g[0]),
        [g[1].clone()],
        "unchanged"
    );
    assert!(!h.app.session.is_modified());
    let toasts = h.app.toasts.texts().join("\n");
    assert!(toasts.starts_with("Cannot connect:"), "{toasts}");
}

#[test]
fn dragging_a_node_moves_it_as_one_undo_step() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    let before = h
        .app
        .session
        .document()
        .position(&g[1])
        .expect("positioned");
    let steps_before = h.app.session.steps().iter().filter(|s| s.done).count();
    let title =
        h.app.canvas.drawn(&g[1]).expect("drawn").content.left_top() + egui::vec2(20.0, 4.0);
    h.drag(title, title + egui::vec2(0.0, 150.0));
    let after = h
        .app
        .session
        .document()
        .position(&g[1])
        .expect("positioned");
    assert!(
        after[1] > before[1] + 50.0,
        "moved down: {before:?} -> {after:?}"
    );
    let steps = h.app.session.steps();
    assert_eq!(
        steps.iter().filter(|s| s.done).count(),
        steps_before + 1,
        "one merged step: {steps:?}"
    );
    h.key(Key::Z, CTRL);
    assert_eq!(h.app.session.document().position(&g[1]), Some(before));
}

#[test]
fn delete_key_removes_the_selection_and_undo_restores_it() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    let title =
        h.app.canvas.drawn(&g[1]).expect("drawn").content.left_top() + egui::vec2(20.0, 4.0);
    h.click(title);
    assert!(h.app.selection.nodes.contains(&g[1]), "click selects");
    h.key(Key::Delete, Modifiers::NONE);
    assert!(h.app.session.document().node(&g[1]).is_none());
    h.key(Key::Z, CTRL);
    assert!(h.app.session.document().node(&g[1]).is_some());
}

#[test]
fn copy_then_paste_adds_nodes_with_new_guids() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    h.key(Key::A, CTRL);
    assert_eq!(h.app.selection.nodes.len(), 2);
    h.push(egui::Event::Copy);
    h.frame();
    let text = h.copied().expect("the selection went to the clipboard");
    assert!(text.contains("arbor-fragment"), "{text}");
    h.push(egui::Event::Paste(text));
    h.frame();
    let doc = h.app.session.document();
    assert_eq!(doc.node_count(), 4);
    let guids = doc.all_guids();
    let unique: std::collections::HashSet<_> = guids.iter().collect();
    assert_eq!(unique.len(), guids.len(), "pasted nodes have new GUIDs");
    assert!(
        h.app.selection.nodes.iter().all(|n| !g.contains(n)),
        "the pasted copies are selected"
    );
}

#[test]
fn space_opens_the_palette_and_enter_adds_the_typed_node_where_the_pointer_is() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let seq = h.app.canvas.drawn(&g[0]).map(|d| d.rect()).expect("drawn");
    // An empty spot of the canvas, right of the Sequence.
    let spot = seq.right_center() + egui::vec2(250.0, 0.0);
    h.move_to(spot);
    h.key(Key::Space, Modifiers::NONE);
    h.frame();
    h.type_text("Wait");
    h.frame();
    h.key(Key::Enter, Modifiers::NONE);
    h.frame();

    let doc = h.app.session.document();
    assert_eq!(doc.node_count(), 2, "one node added");
    let added = doc
        .nodes()
        .find(|n| n.kind == "Wait")
        .map(|n| n.guid.clone())
        .expect("a Wait node");
    assert_eq!(
        h.app.session.undo_text().as_deref(),
        Some("Undo Add \"Wait\"")
    );
    // It lands where the palette was opened, not at some fixed place.
    let drawn = h.app.canvas.drawn(&added).map(|d| d.rect()).expect("drawn");
    assert!(
        drawn.min.distance(spot) < 60.0,
        "added at {:?}, opened at {spot:?}",
        drawn.min
    );
    h.key(Key::Z, CTRL);
    assert_eq!(
        h.app.session.document().node_count(),
        1,
        "Ctrl+Z removes it"
    );
}
