//! Headless UI tests of renaming a node on the canvas: F2 or a double-click opens a field
//! over its title; Enter commits one undoable rename, Escape cancels.

use crate::common::{session_with, Harness, CTRL};
use arbor_editor::canvas::Canvas;
use arbor_editor::document::Selection;
use egui::{Key, Modifiers};

fn name(h: &Harness, guid: &str) -> String {
    h.app
        .session()
        .document()
        .node(guid)
        .expect("node")
        .name
        .clone()
}

/// Replaces the field's text: select all, then type.
fn retype(h: &mut Harness, text: &str) {
    h.key(Key::A, CTRL);
    h.type_text(text);
}

#[test]
fn f2_renames_the_selected_node_in_one_step_that_ctrl_z_undoes() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let steps = h.app.session().history().len();
    h.app.set_selection(Selection::of_nodes([&g[0]]));
    h.key(Key::F2, Modifiers::NONE);
    h.frame();
    assert_eq!(h.app.canvas().renaming(), Some(g[0].as_str()));
    assert!(
        h.ctx.memory(|m| m.has_focus(Canvas::rename_id())),
        "the field has the keys"
    );
    retype(&mut h, "Patrol");
    assert_eq!(name(&h, &g[0]), "Sequence", "nothing changes while typing");
    h.key(Key::Enter, Modifiers::NONE);
    h.frame();
    assert_eq!(name(&h, &g[0]), "Patrol");
    assert_eq!(h.app.canvas().renaming(), None);
    assert_eq!(h.app.session().history().len(), steps + 1, "one step");
    assert_eq!(
        h.app.session().document().children(&g[0]).len(),
        0,
        "Enter added no sibling"
    );
    h.key(Key::Z, CTRL);
    assert_eq!(name(&h, &g[0]), "Sequence");
}

#[test]
fn escape_cancels_a_rename() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let steps = h.app.session().history().len();
    h.app.set_selection(Selection::of_nodes([&g[0]]));
    h.key(Key::F2, Modifiers::NONE);
    h.frame();
    retype(&mut h, "Nope");
    h.key(Key::Escape, Modifiers::NONE);
    h.frame();
    assert_eq!(name(&h, &g[0]), "Sequence");
    assert_eq!(h.app.canvas().renaming(), None);
    assert_eq!(h.app.session().history().len(), steps);
}

#[test]
fn a_double_click_on_a_node_renames_it() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [400.0, 0.0])]);
    let mut h = Harness::new(session);
    let steps = h.app.session().history().len();
    let title = h
        .app
        .canvas()
        .drawn(&g[1])
        .map(|d| d.content.center_top() + egui::vec2(0.0, 6.0))
        .expect("drawn");
    h.click(title);
    h.click(title);
    h.frame();
    assert_eq!(h.app.canvas().renaming(), Some(g[1].as_str()));
    retype(&mut h, "Breathe");
    h.key(Key::Enter, Modifiers::NONE);
    h.frame();
    assert_eq!(name(&h, &g[1]), "Breathe");
    assert_eq!(h.app.session().history().len(), steps + 1);
}
