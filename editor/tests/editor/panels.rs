//! The panels inside the real editor: edits made in the inspector go through the app's
//! undo (Ctrl+Z once the field has lost focus), and the side panels keep their width
//! whatever node the inspector shows (a widget asking for more room each frame would make a
//! side panel grow without end). The panels' own behaviour is tested in their files.

use crate::common::{has_glyphs, Harness, CTRL};
use arbor_editor::document::Selection;
use arbor_editor::panels::Inspector;
use arbor_editor::Session;
use egui::containers::panel::PanelState;
use egui::{Id, Key, Modifiers};

fn samples() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/trees");
    let mut trees: Vec<_> = std::fs::read_dir(&dir)
        .expect("samples/trees exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    trees.sort();
    assert!(!trees.is_empty());
    trees
}

/// The first node of the first sample, in a harness with the whole editor.
fn first_sample_node() -> (Harness, String) {
    let session = Session::open(&samples()[0]).expect("sample opens");
    let node = session
        .document()
        .nodes()
        .next()
        .expect("a node")
        .guid
        .clone();
    let mut h = Harness::new(session);
    // On its widget at 100 %, whatever the first view of the whole sample is.
    h.app.canvas_mut().frame(std::slice::from_ref(&node));
    h.frames(2);
    (h, node)
}

#[test]
fn an_inspector_rename_is_one_step_that_ctrl_z_undoes_after_leaving_the_field() {
    let (mut h, node) = first_sample_node();
    let before = h.app.session().document().node(&node).unwrap().name.clone();
    h.app.set_selection(Selection::of_nodes([&node]));
    h.frames(5);
    let id = Inspector::name_id(&node);
    assert!(
        h.ctx.read_response(id).is_some(),
        "the inspector shows the name field"
    );
    // Focused without a click: see the ignored test below for why.
    h.ctx.memory_mut(|m| m.request_focus(id));
    h.frame();
    assert!(h.ctx.memory(|m| m.has_focus(id)));
    h.key(Key::End, Modifiers::NONE);
    for text in ["x", "y", "z"] {
        h.type_text(text);
    }
    let name = |h: &Harness| h.app.session().document().node(&node).unwrap().name.clone();
    assert_eq!(name(&h), format!("{before}xyz"));
    assert_eq!(h.app.session().history().len(), 1);
    // Enter leaves the field; Ctrl+Z is then the editor's undo, not the field's.
    h.key(Key::Enter, Modifiers::NONE);
    assert!(!h.ctx.memory(|m| m.has_focus(id)));
    h.key(Key::Z, CTRL);
    assert_eq!(name(&h), before);
    assert!(!h.app.session().can_undo());
}

#[test]
fn clicking_in_the_inspector_keeps_the_canvas_selection() {
    let (mut h, node) = first_sample_node();
    // Selected as a user does: a click on the node's title on the canvas.
    let drawn = h.app.canvas().drawn(&node).expect("the node is on screen");
    h.click(drawn.content.center_top() + egui::vec2(0.0, 6.0));
    h.frames(2);
    assert_eq!(*h.app.selection(), Selection::of_nodes([&node]));
    let field = h
        .ctx
        .read_response(Inspector::name_id(&node))
        .expect("the inspector shows the name field");
    h.click(field.rect.center());
    h.frame();
    assert_eq!(
        *h.app.selection(),
        Selection::of_nodes([&node]),
        "still selected"
    );
    assert!(h.ctx.memory(|m| m.has_focus(Inspector::name_id(&node))));
}

#[test]
fn side_panels_keep_their_width_whatever_the_inspector_shows() {
    for path in samples() {
        let session = Session::open(&path).expect("sample opens");
        let nodes: Vec<String> = session.document().nodes().map(|n| n.guid.clone()).collect();
        let mut h = Harness::new(session);
        let width = |h: &Harness, id: &str| {
            PanelState::load(&h.ctx, Id::new(id)).map(|s| s.outer_rect.width())
        };
        for node in nodes.iter().map(Some).chain([None]) {
            h.app
                .set_selection(node.map_or_else(Selection::default, |n| Selection::of_nodes([n])));
            h.frames(15);
            let settled = (width(&h, "left"), width(&h, "right"));
            h.frames(5);
            assert_eq!(
                (width(&h, "left"), width(&h, "right")),
                settled,
                "{}: {node:?}",
                path.display()
            );
            let right = settled.1.expect("a right panel");
            assert!(right < 700.0, "{}: {node:?}: {right}", path.display());
        }
        assert!(
            h.app.toasts().texts().is_empty(),
            "{:?}",
            h.app.toasts().texts()
        );
    }
}

#[test]
fn dragging_a_side_panel_wide_leaves_the_canvas_and_preview_their_room() {
    let (mut h, _) = first_sample_node();
    let width = |h: &Harness, id: &str| {
        PanelState::load(&h.ctx, Id::new(id))
            .map(|s| s.outer_rect)
            .expect("the panel is shown")
    };
    for (id, towards) in [("left", 1500.0), ("right", 100.0)] {
        let rect = width(&h, id);
        // Just inside the panel, where its resize handle is and the canvas is not.
        let edge = if id == "left" {
            rect.right() - 3.0
        } else {
            rect.left() + 3.0
        };
        let y = rect.center().y;
        h.drag(egui::pos2(edge, y), egui::pos2(towards, y));
        h.frames(3);
        let after = width(&h, id).width();
        assert!(
            after > rect.width() + 20.0,
            "{id}: the drag resized the panel ({} → {after})",
            rect.width()
        );
        assert!(
            after <= crate::common::SCREEN[0] * 0.25 + 1.0,
            "{id}: {after} is more than a quarter of the window"
        );
    }
    let preview = width(&h, "preview");
    assert!(
        preview.width() >= crate::common::SCREEN[0] * 0.45,
        "the preview keeps half the width: {}",
        preview.width()
    );
}

#[test]
fn the_panels_icons_have_glyphs_in_the_default_fonts() {
    let h = Harness::new(Session::default());
    let font = egui::FontId::proportional(14.0);
    for icon in ["↺", "⏶", "⏷", "×", "⛔", "⚠", "🗑", "▶", "…", "›", "➡"] {
        assert!(has_glyphs(&h.ctx, &font, icon), "{icon}");
    }
    assert!(
        !has_glyphs(&h.ctx, &font, "🛑"),
        "the check sees a missing glyph"
    );
}
