//! Headless UI tests of the canvas's readability and navigation: the first view, framing
//! everything, the level of detail (legible, and still editable), the zoom badge, the
//! minimap, find in tree, the docked palette and the node look.

use arbor_editor::app::Panels;
use arbor_editor::canvas::{FIRST_VIEW_FLOOR, FRAME_FLOOR, LOD_ZOOM};
use arbor_editor::Session;
use egui::{Key, Modifiers, Pos2};

use crate::common::{session_with, Harness, CTRL};

fn villager() -> Harness {
    let path = arbor_samples::trees_dir().join("villager.json");
    Harness::new(Session::open(&path).expect("the villager sample opens"))
}

/// The labels a node may show: its name (or type), whole, or cut after a whole word.
fn legible_forms(label: &str) -> Vec<String> {
    let mut forms = vec![label.to_owned()];
    let chars: Vec<(usize, char)> = label.char_indices().collect();
    for w in chars.windows(2) {
        let ((_, p), (at, c)) = (w[0], w[1]);
        if (p.is_whitespace() && !c.is_whitespace()) || (c.is_uppercase() && p.is_lowercase()) {
            forms.push(format!("{}…", label[..at].trim_end()));
        }
    }
    forms
}

#[test]
fn a_sample_opens_framed_whole_with_its_names_written() {
    // In the default layout, as a first launch shows it.
    let path = arbor_samples::trees_dir().join("villager.json");
    let session = Session::open(&path).expect("the villager sample opens");
    let mut h = Harness::unstarted(session, 1.0 / 60.0);
    h.app.prefs_mut().panels = Panels::default();
    h.frames(3);
    let canvas = h.app.canvas();
    assert!(
        canvas.zoom() >= FIRST_VIEW_FLOOR,
        "first view at {:.0} %",
        canvas.zoom() * 100.0
    );
    let view = canvas.view_rect();
    let doc = h.app.session().document();
    let painted = h.painted();
    let mut named = 0;
    for node in doc.nodes() {
        let rect = canvas
            .lod_box(&node.guid)
            .or_else(|| canvas.drawn(&node.guid).map(|d| d.rect()))
            .unwrap_or_else(|| panic!("{} is drawn", node.name));
        assert!(view.contains_rect(rect), "{} is in view", node.name);
        // Whole, on one line or wrapped at words onto several (not cut with an ellipsis).
        let label: String = doc.label(&node.guid).split_whitespace().collect();
        let whole = |text: &str| text.split_whitespace().collect::<String>() == label;
        if painted
            .iter()
            .any(|p| whole(&p.text) && rect.contains(p.rect.center()) && p.size >= 11.0)
        {
            named += 1;
        }
    }
    assert!(
        named * 2 >= doc.node_count(),
        "{named} of {} names written whole",
        doc.node_count()
    );
}

#[test]
fn a_small_tree_opens_framed_whole() {
    let (mut session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [300.0, 0.0])]);
    session.connect(&g[0], &g[1]).expect("connected");
    let h = Harness::new(session);
    let canvas = h.app.canvas();
    assert!((canvas.zoom() - 1.0).abs() < 1e-3, "fits at 100 %");
    for guid in &g {
        let d = canvas.drawn(guid).expect("drawn");
        assert!(canvas.view_rect().contains_rect(d.rect()));
    }
}

#[test]
fn frame_all_stops_at_a_floor_where_zoomed_out_labels_are_legible() {
    let mut h = villager();
    h.move_to(h.app.canvas().view_rect().center());
    h.key(Key::F, Modifiers::SHIFT);
    h.frames(2);
    let canvas = h.app.canvas();
    assert!(canvas.zoom() >= FRAME_FLOOR - 1e-4, "{}", canvas.zoom());
    assert!(canvas.level_of_detail(), "the villager is large: boxes");
    let view = canvas.view_rect();
    let doc = h.app.session().document();
    let labels: Vec<String> = doc.nodes().map(|n| doc.label(&n.guid)).collect();
    let painted = h.painted();
    let mut written = 0;
    for node in doc.nodes() {
        let Some(rect) = canvas.lod_box(&node.guid) else {
            continue;
        };
        let forms = legible_forms(&doc.label(&node.guid));
        // The text painted in this box, if any.
        let Some(text) = painted
            .iter()
            .find(|p| rect.contains(p.rect.left_center()) && view.contains(p.rect.center()))
        else {
            continue;
        };
        assert!(
            forms.contains(&text.text)
                || labels.iter().any(|l| legible_forms(l).contains(&text.text)),
            "{:?} is cut mid-word (label {:?})",
            text.text,
            doc.label(&node.guid)
        );
        assert!(text.size >= 11.0, "{text:?} is too small to read");
        written += 1;
    }
    assert!(
        written * 2 >= doc.node_count(),
        "most names are written: {written} of {}",
        doc.node_count()
    );
    // Notes and group titles: nothing below 11 points either.
    for p in painted.iter().filter(|p| view.contains(p.rect.center())) {
        assert!(p.size >= 11.0, "{p:?}");
    }
}

fn two_nodes_zoomed_out() -> (Harness, Vec<String>) {
    let (session, g) = session_with(&[
        ("Sequence", [0.0, 0.0]),
        ("Wait", [420.0, 0.0]),
        ("Wait", [420.0, 300.0]),
    ]);
    let mut h = Harness::new(session);
    h.app.canvas_mut().frame(&[g[0].clone()]);
    h.frame();
    h.app.canvas_mut().set_zoom(LOD_ZOOM * 0.6);
    h.frames(2);
    assert!(h.app.canvas().level_of_detail());
    (h, g)
}

#[test]
fn dragging_a_box_at_low_zoom_moves_the_node_as_one_undo_step() {
    let (mut h, g) = two_nodes_zoomed_out();
    let before = h.app.session().document().position(&g[1]).expect("placed");
    let zoom = h.app.canvas().zoom();
    let wait = h.app.canvas().lod_box(&g[1]).expect("a box");
    let from = wait.left_top() + egui::vec2(wait.width() * 0.3, wait.height() * 0.5);
    h.drag(from, from + egui::vec2(60.0, 30.0));
    let after = h.app.session().document().position(&g[1]).expect("placed");
    let moved = [after[0] - before[0], after[1] - before[1]];
    let expected = [60.0 / f64::from(zoom), 30.0 / f64::from(zoom)];
    // egui starts a drag after a few points of movement, which the drag does not replay.
    let slack = 6.0 / f64::from(zoom);
    assert!(
        (moved[0] - expected[0]).abs() < slack && (moved[1] - expected[1]).abs() < slack,
        "moved {moved:?}, expected {expected:?}"
    );
    assert_eq!(
        h.app.selection().nodes.iter().collect::<Vec<_>>(),
        [&g[1]],
        "the dragged node is selected, not a box selection"
    );
    assert_eq!(
        h.app.session().document().position(&g[0]),
        Some([0.0, 0.0]),
        "nothing else moved"
    );
    h.key(Key::Z, CTRL);
    assert_eq!(
        h.app.session().document().position(&g[1]),
        Some(before),
        "one undo step"
    );
}

#[test]
fn at_low_zoom_a_drag_from_a_box_port_connects_and_a_click_selects() {
    let (mut h, g) = two_nodes_zoomed_out();
    let seq = h.app.canvas().lod_box(&g[0]).expect("a box");
    let wait = h.app.canvas().lod_box(&g[2]).expect("a box");
    h.drag(seq.right_center(), wait.center());
    assert_eq!(
        h.app.session().document().children(&g[0]),
        std::slice::from_ref(&g[2]),
        "connected from the port"
    );
    let wait = h.app.canvas().lod_box(&g[1]).expect("a box");
    h.click(wait.center());
    assert_eq!(h.app.selection().nodes.iter().collect::<Vec<_>>(), [&g[1]]);
}

#[test]
fn the_zoom_badge_shows_the_zoom_and_a_click_resets_it() {
    let (mut h, _) = two_nodes_zoomed_out();
    let percent = format!("{:.0}%", h.app.canvas().zoom() * 100.0);
    let badge = h
        .text_rect(&percent, |_| true)
        .unwrap_or_else(|| panic!("{percent} is shown"));
    h.click(badge.center());
    h.frames(2);
    assert!((h.app.canvas().zoom() - 1.0).abs() < 1e-3);
    assert!(h.text_rect("100%", |_| true).is_some());
}

#[test]
fn a_click_on_the_minimap_centres_the_view_there() {
    let mut h = villager();
    let mini = h.app.canvas().minimap_rect().expect("a minimap");
    let view = h.app.canvas().view_rect();
    let centre_before = h.app.canvas().to_doc(view.center());
    // The far right of the minimap, then its far left: the view follows both ways.
    h.click(Pos2::new(mini.right() - 12.0, mini.center().y));
    h.frame();
    let right = h.app.canvas().to_doc(view.center());
    h.click(Pos2::new(mini.left() + 12.0, mini.center().y));
    h.frame();
    let left = h.app.canvas().to_doc(view.center());
    assert!(right[0] > left[0] + 100.0, "{right:?} vs {left:?}");
    assert!(right != centre_before);
    // Dragging along it pans continuously.
    h.drag(
        Pos2::new(mini.left() + 12.0, mini.center().y),
        Pos2::new(mini.center().x, mini.center().y),
    );
    let dragged = h.app.canvas().to_doc(view.center());
    assert!(dragged[0] > left[0] + 50.0, "{dragged:?} vs {left:?}");
    assert!(
        h.app.selection().nodes.is_empty(),
        "no node was clicked through it"
    );
    // The switch beside the zoom level hides it, and shows it again.
    let switch = h.text_rect("Map", |_| true).expect("the minimap switch");
    h.click(switch.center());
    assert!(h.app.canvas().minimap_rect().is_none());
    h.click(switch.center());
    assert!(h.app.canvas().minimap_rect().is_some());
}

#[test]
fn find_in_tree_highlights_and_frames_each_match_in_turn() {
    let mut h = villager();
    h.key(Key::F, CTRL);
    assert!(h.app.canvas().find_bar().is_open());
    h.type_text("walk");
    h.frame();
    let hits: Vec<String> = h
        .app
        .canvas()
        .find_bar()
        .hits()
        .iter()
        .map(|hit| hit.guid.clone())
        .collect();
    assert!(hits.len() >= 3, "{hits:?}");
    let in_view = |h: &Harness, guid: &str| {
        let canvas = h.app.canvas();
        let rect = canvas
            .drawn(guid)
            .map(|d| d.rect())
            .or_else(|| canvas.lod_box(guid))
            .expect("drawn");
        canvas.view_rect().contains_rect(rect)
    };
    for (k, expected) in hits.iter().enumerate().take(3) {
        h.key(Key::Enter, Modifiers::NONE);
        h.frames(2);
        assert_eq!(
            h.app.selection().nodes.iter().collect::<Vec<_>>(),
            [expected],
            "Enter #{k} selects the next match"
        );
        assert!(in_view(&h, expected), "and frames it");
    }
    h.key(Key::Enter, Modifiers::SHIFT);
    h.frames(2);
    assert_eq!(
        h.app.selection().nodes.iter().collect::<Vec<_>>(),
        [&hits[1]],
        "Shift+Enter goes back"
    );
    assert!(h.text_rect("2 of 5", |_| true).is_some() || hits.len() != 5);
    assert!(
        h.ctx
            .memory(|m| m.has_focus(arbor_editor::canvas::FindBar::field_id())),
        "typing still goes to the field"
    );
    h.key(Key::Escape, Modifiers::NONE);
    assert!(!h.app.canvas().find_bar().is_open());
    assert!(
        h.app.canvas().find_bar().highlighted().is_empty(),
        "no outlines once closed"
    );
    // Opened again, the last query is selected: typing replaces it.
    h.key(Key::F, CTRL);
    h.type_text("eat");
    h.frame();
    assert_eq!(h.app.canvas().find_bar().query(), "eat");
}

#[test]
fn a_type_dragged_from_the_docked_palette_is_added_where_dropped() {
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    assert!(h.app.palette_dock().open);
    h.app.palette_dock_mut().search("wait");
    h.frame();
    let view = h.app.canvas().view_rect();
    let row = h
        .text_rect("Wait", |r| r.right() < view.left())
        .expect("Wait is listed in the dock");
    let drop = view.center() + egui::vec2(-200.0, 150.0);
    let count = h.app.session().document().node_count();
    h.drag(row.center(), drop);
    let doc = h.app.session().document();
    assert_eq!(doc.node_count(), count + 1);
    let added = h
        .app
        .selection()
        .nodes
        .iter()
        .next()
        .expect("selected")
        .clone();
    assert_eq!(doc.node(&added).map(|n| n.kind.as_str()), Some("Wait"));
    let at = h.app.canvas().to_doc(drop);
    let pos = doc.position(&added).expect("placed");
    assert!(
        (pos[0] - at[0]).abs() < 1.0 && (pos[1] - at[1]).abs() < 1.0,
        "{pos:?} vs {at:?}"
    );
    assert_eq!(
        h.app
            .session()
            .undo_text()
            .as_deref()
            .map(|t| t.starts_with("Undo Add")),
        Some(true)
    );
}

#[test]
fn node_widgets_have_no_port_names_and_show_their_type_line() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [400.0, 0.0])]);
    let h = Harness::new(session);
    let texts: Vec<String> = h.painted().into_iter().map(|p| p.text).collect();
    assert!(
        !texts.iter().any(|t| t == "parent" || t == "children"),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t == "Sequence · Composite"),
        "{texts:?}"
    );
    // Ports are still where a drag starts a connection.
    assert!(h
        .app
        .canvas()
        .drawn(&g[0])
        .and_then(|d| d.output_port())
        .is_some());
}
