//! Headless UI tests of the canvas: gestures on the real editor become commands on the
//! document, and undo/redo keep the canvas and the document in step.

use crate::common::{session_with, Harness, CTRL, CTRL_SHIFT};
use egui::{Key, Modifiers};

#[test]
fn dragging_from_children_port_to_parent_port_connects_and_ctrl_z_undoes_it() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let (seq, wait) = (g[0].clone(), g[1].clone());
    let mut h = Harness::new(session);
    let from = h
        .app
        .canvas()
        .drawn(&seq)
        .and_then(|d| d.output_port())
        .expect("Sequence has a children port");
    let to = h
        .app
        .canvas()
        .drawn(&wait)
        .and_then(|d| d.input_port())
        .expect("Wait has a parent port");
    assert!(h.app.session().document().children(&seq).is_empty());

    h.drag(from, to);
    assert_eq!(
        h.app.session().document().children(&seq),
        std::slice::from_ref(&wait),
        "connected by the drag"
    );
    assert_eq!(
        h.app.session().undo_text().as_deref(),
        Some("Undo Connect \"Sequence\" ➡ \"Wait\"")
    );

    h.key(Key::Z, CTRL);
    assert!(
        h.app.session().document().children(&seq).is_empty(),
        "Ctrl+Z undoes the connection"
    );
    h.frame();
    // The view followed the undo: the library's graph holds no connection either.
    h.key(Key::Z, CTRL_SHIFT);
    assert_eq!(
        h.app.session().document().children(&seq),
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
        .canvas()
        .drawn(&g[0])
        .and_then(|d| d.output_port())
        .expect("port");
    let to = h
        .app
        .canvas()
        .drawn(&g[2])
        .and_then(|d| d.input_port())
        .expect("port");
    h.drag(from, to);
    assert_eq!(
        h.app.session().document().children(&g[0]),
        [g[1].clone()],
        "unchanged"
    );
    assert!(!h.app.session().is_modified());
    let toasts = h.app.toasts().texts().join("\n");
    assert!(toasts.starts_with("Cannot connect:"), "{toasts}");
}

#[test]
fn dragging_a_node_moves_it_as_one_undo_step() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    let before = h
        .app
        .session()
        .document()
        .position(&g[1])
        .expect("positioned");
    let steps_before = h.app.session().steps().iter().filter(|s| s.done).count();
    let title = h
        .app
        .canvas()
        .drawn(&g[1])
        .expect("drawn")
        .content
        .left_top()
        + egui::vec2(20.0, 4.0);
    h.drag(title, title + egui::vec2(0.0, 150.0));
    let after = h
        .app
        .session()
        .document()
        .position(&g[1])
        .expect("positioned");
    assert!(
        after[1] > before[1] + 50.0,
        "moved down: {before:?} -> {after:?}"
    );
    let steps = h.app.session().steps();
    assert_eq!(
        steps.iter().filter(|s| s.done).count(),
        steps_before + 1,
        "one merged step: {steps:?}"
    );
    h.key(Key::Z, CTRL);
    assert_eq!(h.app.session().document().position(&g[1]), Some(before));
}

#[test]
fn delete_key_removes_the_selection_and_undo_restores_it() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    let title = h
        .app
        .canvas()
        .drawn(&g[1])
        .expect("drawn")
        .content
        .left_top()
        + egui::vec2(20.0, 4.0);
    h.click(title);
    assert!(h.app.selection().nodes.contains(&g[1]), "click selects");
    h.key(Key::Delete, Modifiers::NONE);
    assert!(h.app.session().document().node(&g[1]).is_none());
    h.key(Key::Z, CTRL);
    assert!(h.app.session().document().node(&g[1]).is_some());
}

#[test]
fn copy_then_paste_adds_nodes_with_new_guids() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    h.key(Key::A, CTRL);
    assert_eq!(h.app.selection().nodes.len(), 2);
    h.push(egui::Event::Copy);
    h.frame();
    let text = h.copied().expect("the selection went to the clipboard");
    assert!(text.contains("arbor-fragment"), "{text}");
    h.push(egui::Event::Paste(text));
    h.frame();
    let doc = h.app.session().document();
    assert_eq!(doc.node_count(), 4);
    let guids = doc.all_guids();
    let unique: std::collections::HashSet<_> = guids.iter().collect();
    assert_eq!(unique.len(), guids.len(), "pasted nodes have new GUIDs");
    assert!(
        h.app.selection().nodes.iter().all(|n| !g.contains(n)),
        "the pasted copies are selected"
    );
}

#[test]
fn space_opens_the_palette_and_enter_adds_the_typed_node_where_the_pointer_is() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let seq = h
        .app
        .canvas()
        .drawn(&g[0])
        .map(|d| d.rect())
        .expect("drawn");
    // An empty spot of the canvas, right of the Sequence.
    let spot = seq.right_center() + egui::vec2(250.0, 0.0);
    h.move_to(spot);
    h.key(Key::Space, Modifiers::NONE);
    h.frame();
    h.type_text("Wait");
    h.frame();
    h.key(Key::Enter, Modifiers::NONE);
    h.frame();

    let doc = h.app.session().document();
    assert_eq!(doc.node_count(), 2, "one node added");
    let added = doc
        .nodes()
        .find(|n| n.kind == "Wait")
        .map(|n| n.guid.clone())
        .expect("a Wait node");
    assert_eq!(
        h.app.session().undo_text().as_deref(),
        Some("Undo Add \"Wait\"")
    );
    // It lands where the palette was opened, not at some fixed place.
    let drawn = h
        .app
        .canvas()
        .drawn(&added)
        .map(|d| d.rect())
        .expect("drawn");
    assert!(
        drawn.min.distance(spot) < 60.0,
        "added at {:?}, opened at {spot:?}",
        drawn.min
    );
    h.key(Key::Z, CTRL);
    assert_eq!(
        h.app.session().document().node_count(),
        1,
        "Ctrl+Z removes it"
    );
}

/// A Sequence at the origin with a child far to the right and one far below: at 100 % zoom
/// only the Sequence and its neighbours are near the view.
fn spread_tree() -> (arbor_editor::Session, Vec<String>) {
    let (mut session, g) = session_with(&[
        ("Sequence", [0.0, 0.0]),
        ("Wait", [420.0, 0.0]),
        ("Wait", [20_000.0, 0.0]),
        ("Wait", [0.0, 30_000.0]),
        ("Wait", [300.0, 30_000.0]),
        ("Wait", [0.0, 1_500.0]),
    ]);
    session.connect(&g[0], &g[1]).expect("connected");
    session.connect(&g[0], &g[2]).expect("connected");
    session.mark_saved();
    (session, g)
}

/// Centres the view on `guid` at 100 % and lets it settle.
fn look_at(h: &mut Harness, guid: &str) {
    h.app.canvas_mut().frame(&[guid.to_owned()]);
    h.frame();
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(2);
}

#[test]
fn culling_keeps_far_nodes_out_of_the_widget_graph_until_panned_into_view() {
    let (session, g) = spread_tree();
    let mut h = Harness::new(session);
    look_at(&mut h, &g[0]);
    assert!(h.app.canvas().has_widget(&g[0]) && h.app.canvas().has_widget(&g[1]));
    assert!(
        !h.app.canvas().has_widget(&g[3]) && !h.app.canvas().has_widget(&g[4]),
        "far, unconnected nodes are culled"
    );
    assert!(h.app.canvas().drawn(&g[3]).is_none());

    // g[5] is 1,500 units below: culled, until a middle-drag (egui_node_editor's pan)
    // brings it into view, a step at a time as a hand would.
    assert!(!h.app.canvas().has_widget(&g[5]));
    let start = h.app.canvas().view_rect().center() + egui::vec2(150.0, 250.0);
    let mut at = start;
    h.move_to(at);
    h.button(at, egui::PointerButton::Middle, true);
    for _ in 0..25 {
        at -= egui::vec2(0.0, 50.0);
        h.move_to(at);
    }
    h.button(at, egui::PointerButton::Middle, false);
    let centre = h.app.canvas().to_doc(h.app.canvas().view_rect().center());
    assert!(centre[1] > 1_000.0, "the view panned down: {centre:?}");
    assert!(h.app.canvas().has_widget(&g[5]), "panned into view: built");
    let drawn = h.app.canvas().drawn(&g[5]).expect("and drawn");
    assert!(h.app.canvas().view_rect().intersects(drawn.rect()));

    // Jump the view to the far nodes: they are built and drawn, the first ones leave.
    look_at(&mut h, &g[3]);
    assert!(h.app.canvas().has_widget(&g[3]) && h.app.canvas().has_widget(&g[4]));
    let drawn = h.app.canvas().drawn(&g[3]).expect("drawn once in view");
    assert!(h.app.canvas().view_rect().intersects(drawn.rect()));
    assert!(
        !h.app.canvas().has_widget(&g[0]),
        "the first nodes are culled now"
    );
    // And clicking one there selects it, as with any node.
    let title = drawn.content.left_top() + egui::vec2(20.0, 4.0);
    h.click(title);
    assert!(h.app.selection().nodes.contains(&g[3]));
}

#[test]
fn an_edge_to_an_off_screen_node_is_still_drawn_and_connected() {
    let (session, g) = spread_tree();
    let mut h = Harness::new(session);
    look_at(&mut h, &g[0]);
    let view = h.app.canvas().view_rect();
    // g[2] is 20,000 units right of the Sequence: off screen, but its parent is in view.
    assert!(
        h.app.canvas().has_widget(&g[2]),
        "a neighbour of a visible node is built"
    );
    assert!(h.app.canvas().widgets_connected(&g[0], &g[2]));
    let far = h.app.canvas().drawn(&g[2]).expect("drawn (off screen)");
    assert!(!view.intersects(far.rect()), "it really is off screen");
    let from = h
        .app
        .canvas()
        .drawn(&g[0])
        .and_then(|d| d.output_port())
        .expect("port in view");
    assert!(view.contains(from));
    assert!(h.app.canvas().widgets_connected(&g[0], &g[1]));
    // Undo/redo of a connection to the off-screen node keeps the widget graph in step.
    let d = arbor_editor::commands::Disconnect::new(h.app.session().document(), &g[0], &g[2])
        .expect("connected");
    h.app.session_mut().apply(d).expect("applies");
    h.frame();
    assert!(!h.app.canvas().widgets_connected(&g[0], &g[2]));
    assert!(
        !h.app.canvas().has_widget(&g[2]),
        "no longer a neighbour: culled"
    );
    h.key(Key::Z, CTRL);
    h.frame();
    assert!(h.app.canvas().widgets_connected(&g[0], &g[2]));
}

#[test]
fn below_the_lod_zoom_boxes_are_drawn_and_a_click_selects_a_node() {
    let (session, g) = spread_tree();
    let mut h = Harness::new(session);
    look_at(&mut h, &g[0]);
    assert!(!h.app.canvas().level_of_detail());
    h.app
        .canvas_mut()
        .set_zoom(arbor_editor::canvas::LOD_ZOOM * 0.6);
    h.frames(2);
    assert!(h.app.canvas().level_of_detail());
    assert_eq!(h.app.canvas().widget_count(), 0, "no node widgets at all");
    assert!(h.app.canvas().drawn(&g[0]).is_none());
    let seq = h
        .app
        .canvas()
        .lod_box(&g[0])
        .expect("the Sequence is a box");
    let wait = h.app.canvas().lod_box(&g[1]).expect("its child is a box");
    assert!(h.app.canvas().view_rect().contains_rect(seq));
    assert!(
        h.app.canvas().lod_box(&g[3]).is_none(),
        "far nodes are not drawn"
    );

    h.click(wait.center());
    assert_eq!(
        h.app.selection().nodes.iter().collect::<Vec<_>>(),
        [&g[1]],
        "a click on a box selects its node"
    );
    h.key(Key::Delete, Modifiers::NONE);
    assert!(
        h.app.session().document().node(&g[1]).is_none(),
        "and the usual keys act on it"
    );
    h.key(Key::Z, CTRL);
    h.frame();
    // A click on the background clears the selection.
    h.click(seq.left_top() - egui::vec2(60.0, 60.0));
    assert!(h.app.selection().nodes.is_empty());
    // A double-click zooms in to 100 % on the node, back to full widgets.
    let seq = h.app.canvas().lod_box(&g[0]).expect("still a box");
    h.wait(1.0);
    h.click(seq.center());
    h.click(seq.center());
    h.frames(2);
    assert!(!h.app.canvas().level_of_detail());
    assert!(
        (h.app.canvas().zoom() - 1.0).abs() < 1e-3,
        "{}",
        h.app.canvas().zoom()
    );
    assert!(h.app.canvas().drawn(&g[0]).is_some());
}

#[test]
fn a_selected_node_stays_selected_while_culled_and_moves_with_the_selection() {
    let (session, g) = spread_tree();
    let mut h = Harness::new(session);
    look_at(&mut h, &g[3]);
    h.key(Key::A, CTRL);
    assert_eq!(
        h.app.selection().nodes.len(),
        6,
        "Ctrl+A selects culled nodes too"
    );
    look_at(&mut h, &g[0]);
    assert!(!h.app.canvas().has_widget(&g[3]));
    // Hovering and clicking around the canvas does not drop the culled part.
    h.move_to(h.app.canvas().view_rect().center());
    h.frames(2);
    assert_eq!(h.app.selection().nodes.len(), 6);
    assert!(h.app.selection().nodes.contains(&g[3]));
    // Dragging a visible selected node moves the culled ones too.
    let before = h.app.session().document().position(&g[3]).expect("placed");
    let title = h
        .app
        .canvas()
        .drawn(&g[1])
        .expect("drawn")
        .content
        .left_top()
        + egui::vec2(20.0, 4.0);
    h.drag(title, title + egui::vec2(0.0, 100.0));
    let after = h.app.session().document().position(&g[3]).expect("placed");
    assert!(after[1] > before[1] + 50.0, "{before:?} -> {after:?}");
    assert_eq!(h.app.selection().nodes.len(), 6);
    // The culled node comes back selected.
    look_at(&mut h, &g[3]);
    assert!(h.app.canvas().has_widget(&g[3]));
    assert!(h.app.selection().nodes.contains(&g[3]));
}

#[test]
fn the_children_of_if_then_else_and_switch_are_labelled_with_their_roles() {
    let (mut session, g) = session_with(&[
        ("IfThenElse", [0.0, 0.0]),
        ("Wait", [320.0, -150.0]),
        ("Wait", [320.0, 0.0]),
        ("Wait", [320.0, 150.0]),
    ]);
    for child in &g[1..] {
        session.connect(&g[0], child).expect("connected");
    }
    let h = Harness::new(session);
    for role in ["if", "then", "else"] {
        let at = h
            .text_rect(role, |_| true)
            .unwrap_or_else(|| panic!("{role} is written"));
        assert!(at.height() >= 11.0, "{role} is legible");
    }

    let (mut session, g) = session_with(&[
        ("Switch", [0.0, 0.0]),
        ("Wait", [320.0, -150.0]),
        ("Wait", [320.0, 0.0]),
        ("Wait", [320.0, 150.0]),
    ]);
    for child in &g[1..] {
        session.connect(&g[0], child).expect("connected");
    }
    let cmd = arbor_editor::commands::SetParam::new(
        session.document(),
        arbor_editor::document::Owner::Node(g[0].clone()),
        "case_1",
        Some(serde_json::json!("patrol")),
    )
    .expect("a case");
    session.apply(cmd).expect("set");
    let h = Harness::new(session);
    assert!(h.shows("= \"patrol\""), "a case shows its value");
    assert!(
        h.text_rect("case_2", |_| true).is_some(),
        "an unset case its name"
    );
    assert!(h.text_rect("default", |_| true).is_some());
}
