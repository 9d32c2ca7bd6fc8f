//! Headless UI tests of adding nodes already connected: a wire dropped on empty canvas
//! opens the node finder there and the chosen node is added on the wire's end; Tab adds a
//! child and Enter a sibling of the selected node through the same finder; ports are hit
//! from a few points off their centre at any zoom. Each addition is one undo step.

use crate::common::{session_with, Harness, CTRL};
use arbor_editor::canvas::PORT_HIT;
use egui::{Key, Modifiers, Rect};

/// Types `kind` into the open finder and chooses it.
fn choose(h: &mut Harness, kind: &str) {
    assert!(h.app.tab().palette_is_open(), "the finder is open");
    h.frame();
    h.type_text(kind);
    h.frame();
    h.key(Key::Enter, Modifiers::NONE);
    h.frames(2);
}

fn drawn_rect(h: &Harness, guid: &str) -> Rect {
    h.app
        .canvas()
        .drawn(guid)
        .map(|d| d.rect())
        .unwrap_or_else(|| panic!("{guid} is drawn"))
}

fn assert_no_overlap(h: &Harness) {
    let doc = h.app.session().document();
    let rects: Vec<(String, Rect)> = doc
        .nodes()
        .map(|n| (n.name.clone(), drawn_rect(h, &n.guid)))
        .collect();
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            assert!(!ra.intersects(*rb), "{a} {ra:?} overlaps {b} {rb:?}");
        }
    }
}

#[test]
fn a_wire_dropped_on_empty_canvas_adds_the_chosen_node_as_a_child_in_one_step() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let seq = g[0].clone();
    let mut h = Harness::new(session);
    let port = h
        .app
        .canvas()
        .drawn(&seq)
        .and_then(|d| d.output_port())
        .expect("a children port");
    let spot = port + egui::vec2(260.0, 40.0);
    h.drag(port, spot);
    choose(&mut h, "Wait");

    let doc = h.app.session().document();
    assert_eq!(doc.node_count(), 2);
    let children = doc.children(&seq).to_vec();
    assert_eq!(children.len(), 1, "the new node is connected");
    assert_eq!(
        doc.node(&children[0]).map(|n| n.kind.as_str()),
        Some("Wait")
    );
    assert_eq!(
        h.app.session().undo_text().as_deref(),
        Some("Undo Add \"Wait\" under \"Sequence\"")
    );
    // Its parent port is where the wire was dropped.
    let input = h
        .app
        .canvas()
        .drawn(&children[0])
        .and_then(|d| d.input_port())
        .expect("drawn");
    assert!(input.distance(spot) < 40.0, "{input:?} vs {spot:?}");
    h.key(Key::Z, CTRL);
    let doc = h.app.session().document();
    assert_eq!(doc.node_count(), 1, "one Ctrl+Z removes node and wire");
    assert!(doc.children(&seq).is_empty());
}

#[test]
fn a_wire_dropped_from_a_parent_port_adds_the_new_parent() {
    let (session, g) = session_with(&[("Wait", [300.0, 0.0])]);
    let wait = g[0].clone();
    let mut h = Harness::new(session);
    let port = h
        .app
        .canvas()
        .drawn(&wait)
        .and_then(|d| d.input_port())
        .expect("a parent port");
    h.drag(port, port - egui::vec2(200.0, 0.0));
    choose(&mut h, "Sequence");
    let doc = h.app.session().document();
    let root = doc.root().expect("a root").to_owned();
    assert_eq!(doc.node(&root).map(|n| n.kind.as_str()), Some("Sequence"));
    assert_eq!(doc.children(&root), std::slice::from_ref(&wait));
    assert_no_overlap(&h);
}

#[test]
fn escape_in_the_finder_after_a_wire_drop_adds_nothing() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let port = h
        .app
        .canvas()
        .drawn(&g[0])
        .and_then(|d| d.output_port())
        .expect("a children port");
    let steps = h.app.session().history().len();
    h.drag(port, port + egui::vec2(260.0, 0.0));
    assert!(h.app.tab().palette_is_open());
    h.key(Key::Escape, Modifiers::NONE);
    h.frame();
    assert!(!h.app.tab().palette_is_open());
    assert_eq!(h.app.session().document().node_count(), 1);
    assert_eq!(h.app.session().history().len(), steps);
}

#[test]
fn tab_adds_a_child_and_enter_a_sibling_of_the_selected_node() {
    let (mut session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [300.0, 0.0])]);
    session.connect(&g[0], &g[1]).expect("connected");
    let (seq, wait) = (g[0].clone(), g[1].clone());
    let mut h = Harness::new(session);
    let steps = h.app.session().history().len();

    h.app
        .set_selection(arbor_editor::document::Selection::of_nodes([&seq]));
    h.key(Key::Tab, Modifiers::NONE);
    choose(&mut h, "Log");
    let children = h.app.session().document().children(&seq).to_vec();
    assert_eq!(children.len(), 2);
    assert_eq!(children[0], wait, "a child is added last");
    let log = children[1].clone();
    assert_eq!(h.app.selection().nodes.iter().next(), Some(&log));
    assert_eq!(h.app.session().history().len(), steps + 1, "one step");

    h.app
        .set_selection(arbor_editor::document::Selection::of_nodes([&wait]));
    h.key(Key::Enter, Modifiers::NONE);
    choose(&mut h, "Succeeder");
    let children = h.app.session().document().children(&seq).to_vec();
    assert_eq!(children.len(), 3);
    assert_eq!(children[0], wait);
    assert_eq!(children[2], log, "the sibling goes right after Wait");
    assert_eq!(h.app.session().history().len(), steps + 2);
    assert_no_overlap(&h);
}

#[test]
fn a_port_takes_a_press_a_few_points_off_its_centre_when_zoomed_out() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let (seq, wait) = (g[0].clone(), g[1].clone());
    let mut h = Harness::new(session);
    h.app.canvas_mut().set_zoom(0.6);
    h.frames(3);
    assert!(!h.app.canvas().level_of_detail(), "widgets at 60 %");
    let off = PORT_HIT / 2.0 - 1.5;
    let from = h
        .app
        .canvas()
        .drawn(&seq)
        .and_then(|d| d.output_port())
        .expect("port");
    let to = h
        .app
        .canvas()
        .drawn(&wait)
        .and_then(|d| d.input_port())
        .expect("port");
    let before = h.app.session().document().position(&seq);
    h.drag(from + egui::vec2(off, 0.0), to + egui::vec2(0.0, off));
    let doc = h.app.session().document();
    assert_eq!(doc.children(&seq), std::slice::from_ref(&wait), "connected");
    assert_eq!(doc.position(&seq), before, "the node was not dragged");
}
