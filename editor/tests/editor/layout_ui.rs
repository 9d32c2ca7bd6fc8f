//! Layout in the running editor: Ctrl+L gives the same positions at any zoom, in both
//! directions; the canvas menu sets the direction as one undo step; cards keep their width
//! while warnings and breakpoints come and go; a drag past a sibling shows the new place.

use std::collections::BTreeMap;
use std::path::Path;

use arbor_editor::canvas::MenuTarget;
use arbor_editor::Session;
use arbor_runtime::format::layout::LayoutDirection;
use egui::{Key, Modifiers, PointerButton};

use crate::common::{session_with, Harness, CTRL};

fn villager() -> Session {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/trees/villager.json");
    Session::open(&path).expect("the villager sample opens")
}

fn positions(h: &Harness) -> BTreeMap<String, [f64; 2]> {
    let doc = h.app.session().document();
    doc.nodes()
        .filter_map(|n| Some((n.guid.clone(), doc.position(&n.guid)?)))
        .collect()
}

/// Ctrl+L at `zoom`; the positions it gives; then undone.
fn layout_at(h: &mut Harness, zoom: f32) -> BTreeMap<String, [f64; 2]> {
    h.app.canvas_mut().set_zoom(zoom);
    h.frames(3);
    h.key(Key::L, CTRL);
    let laid_out = positions(h);
    h.key(Key::Z, CTRL);
    laid_out
}

/// A Sequence with a Wait and a Log under it, at the given places, in the editor.
fn sequence_of_two(wait: [f64; 2], log: [f64; 2]) -> (Harness, Vec<String>) {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", wait), ("Log", log)]);
    let mut h = Harness::new(session);
    for child in &g[1..] {
        h.app.session_mut().connect(&g[0], child).expect("connects");
    }
    h.frames(2);
    (h, g)
}

#[test]
fn auto_layout_is_the_same_at_30_and_100_percent_in_both_directions() {
    let mut h = Harness::new(villager());
    let original = positions(&h);
    // The sample is saved laid out left to right: Ctrl+L at either zoom keeps it.
    for zoom in [0.3, 1.0] {
        assert_eq!(
            layout_at(&mut h, zoom),
            original,
            "left to right at {zoom}: the zoom changed the layout"
        );
    }
    // Top down lays the tree out anew, the same at either zoom.
    h.act(arbor_editor::app::Action::LayoutTopDown);
    assert_eq!(
        h.app.session().document().layout().direction,
        LayoutDirection::TopDown
    );
    assert_ne!(positions(&h), original, "top down moved nodes");
    let mut laid_out = Vec::new();
    for zoom in [0.3, 1.0] {
        h.app.canvas_mut().set_zoom(zoom);
        h.frames(3);
        if zoom < 0.5 {
            assert!(h.app.canvas().level_of_detail(), "30 % draws boxes");
        }
        h.key(Key::L, CTRL);
        laid_out.push(positions(&h));
    }
    assert_eq!(
        laid_out[0], laid_out[1],
        "top down: the zoom changed the layout"
    );
    // Undo goes back to left to right and every saved position.
    for _ in 0..6 {
        if h.app.session().document().layout().direction == LayoutDirection::LeftToRight {
            break;
        }
        h.key(Key::Z, CTRL);
    }
    assert_eq!(positions(&h), original, "undo restores every position");
}

#[test]
fn the_canvas_menu_sets_the_direction_as_one_step() {
    let (mut h, g) = sequence_of_two([400.0, 0.0], [400.0, 200.0]);
    let steps = h.app.session().history().len();
    let view = h.app.canvas().view_rect();
    let empty = view.left_bottom() + egui::vec2(20.0, -20.0);
    h.move_to(empty);
    h.button(empty, PointerButton::Secondary, true);
    h.button(empty, PointerButton::Secondary, false);
    h.frame();
    let menu = h.app.canvas().context_menu().expect("a menu").clone();
    assert!(matches!(menu.target, MenuTarget::Canvas(_)));
    let item = menu.item("Layout Top Down").expect("the item");
    h.click(item.center());
    h.frames(2);
    let doc = h.app.session().document();
    assert_eq!(doc.layout().direction, LayoutDirection::TopDown);
    assert_eq!(h.app.session().history().len(), steps + 1, "one step");
    let (a, b, c) = (
        doc.position(&g[0]).expect("placed"),
        doc.position(&g[1]).expect("placed"),
        doc.position(&g[2]).expect("placed"),
    );
    assert!(b[1] > a[1] && c[1] > a[1], "children below");
    assert!(b[0] < c[0], "siblings left to right in execution order");
}

#[test]
fn a_card_keeps_its_width_when_warnings_and_breakpoints_come_and_go() {
    let (mut h, g) = sequence_of_two([400.0, 0.0], [400.0, 300.0]);
    let drawn = |h: &Harness| h.app.canvas().drawn(&g[1]).expect("drawn");
    // A Wait without `seconds`: its card shows the problem.
    assert!(!h
        .app
        .canvas()
        .node_messages(&g[1])
        .expect("a widget")
        .is_empty());
    let with_problem = drawn(&h);
    let fix = arbor_editor::commands::SetParam::new(
        h.app.session().document(),
        arbor_editor::document::Owner::Node(g[1].clone()),
        "seconds",
        Some(serde_json::json!(1.5)),
    )
    .expect("a parameter edit");
    h.app.session_mut().apply(fix).expect("applies");
    h.frames(3);
    assert!(h
        .app
        .canvas()
        .node_messages(&g[1])
        .expect("a widget")
        .is_empty());
    let fixed = drawn(&h);
    assert_eq!(with_problem.rect().width(), fixed.rect().width());
    assert_eq!(
        with_problem.input_port(),
        fixed.input_port(),
        "the port stays"
    );
    // A breakpoint adds a dot to the title: still the same width.
    h.app
        .set_selection(arbor_editor::document::Selection::of_nodes([&g[1]]));
    h.key(Key::F9, Modifiers::NONE);
    h.frames(2);
    assert_eq!(drawn(&h).rect().width(), fixed.rect().width());
    // The drawn card is the size the layout reserves.
    let size =
        arbor_editor::document::card_size(h.app.session().document().node(&g[1]).expect("node"));
    assert!(
        (f64::from(fixed.rect().width()) - size[0]).abs() < 1.0,
        "{fixed:?} {size:?}"
    );
}

#[test]
fn dragging_past_a_sibling_shows_its_new_place_and_reorders() {
    let (mut h, g) = sequence_of_two([400.0, 0.0], [400.0, 160.0]);
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(3);
    let title = h
        .app
        .canvas()
        .drawn(&g[1])
        .expect("drawn")
        .content
        .left_top()
        + egui::vec2(20.0, 4.0);
    // A little way down, not past the Log: no badge, no change.
    h.move_to(title);
    h.button(title, PointerButton::Primary, true);
    let mut at = title;
    for _ in 0..4 {
        at += egui::vec2(0.0, 20.0);
        h.move_to(at);
    }
    assert!(!h.shows("1 → 2"));
    assert_eq!(h.app.session().document().children(&g[0])[0], g[1]);
    // Past it: the badge tells the new place while the button is still down.
    for _ in 0..6 {
        at += egui::vec2(0.0, 20.0);
        h.move_to(at);
    }
    assert!(h.shows("1 → 2"), "the badge shows while dragging");
    h.button(at, PointerButton::Primary, false);
    h.frames(2);
    assert!(!h.shows("1 → 2"), "gone after the drop");
    assert_eq!(
        h.app.session().document().children(&g[0]),
        [g[2].clone(), g[1].clone()]
    );
    // One step: undo puts the order back.
    h.key(Key::Z, CTRL);
    assert_eq!(
        h.app.session().document().children(&g[0]),
        [g[1].clone(), g[2].clone()]
    );
}
