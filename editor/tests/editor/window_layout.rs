//! Headless UI tests of how the window is shared: the default layout leaves the canvas
//! most of it, each panel collapses and comes back, focus mode gives the canvas the window,
//! and the minimap never covers a node, after framing or wherever the view goes.

use arbor_editor::app::{Action, Panels};
use arbor_editor::Session;
use egui::{Key, Modifiers, Rect};

use crate::common::{Harness, CTRL};

fn villager(screen: [f32; 2], panels: Panels) -> Harness {
    let path = arbor_samples::trees_dir().join("villager.json");
    let session = Session::open(&path).expect("the villager sample opens");
    let mut h = Harness::unstarted(session, 1.0 / 60.0);
    h.screen = screen;
    h.app.prefs_mut().panels = panels;
    h.frames(3);
    h
}

/// The canvas's share of the window's area.
fn canvas_share(h: &Harness) -> f32 {
    let view = h.app.canvas().view_rect();
    view.area() / (h.screen[0] * h.screen[1])
}

/// Where each node is drawn on screen (as a box or a widget), for the nodes drawn.
fn node_rects(h: &Harness) -> Vec<(String, Rect)> {
    let canvas = h.app.canvas();
    let doc = h.app.session().document();
    doc.nodes()
        .filter_map(|n| {
            let rect = if canvas.level_of_detail() {
                canvas.lod_box(&n.guid)
            } else {
                canvas.drawn(&n.guid).map(|d| d.rect())
            };
            rect.map(|r| (n.name.clone(), r))
        })
        .collect()
}

fn assert_minimap_clear(h: &Harness, when: &str) {
    let Some(mini) = h.app.canvas().minimap_rect() else {
        return;
    };
    for (name, rect) in node_rects(h) {
        assert!(
            !rect.intersects(mini),
            "{when}: the minimap {mini:?} covers {name} at {rect:?}"
        );
    }
}

#[test]
fn the_default_layout_gives_the_canvas_most_of_the_window() {
    let h = villager([1500.0, 950.0], Panels::default());
    let share = canvas_share(&h);
    assert!(share >= 0.6, "the canvas has {:.0} %", share * 100.0);
    // The inspector and the palette are open beside it.
    assert!(h.shows("Nodes"), "the palette is open");
}

#[test]
fn focus_mode_gives_the_canvas_the_window_and_leaving_it_restores_the_panels() {
    let mut h = villager([1500.0, 950.0], Panels::all());
    let before = canvas_share(&h);
    h.key(Key::F11, Modifiers::NONE);
    h.frames(2);
    let focused = canvas_share(&h);
    assert!(
        focused >= 0.85,
        "focused, the canvas has {:.0} %",
        focused * 100.0
    );
    assert!(h.app.prefs().panels.focus);
    h.key(Key::F11, Modifiers::NONE);
    h.frames(2);
    assert!(!h.app.prefs().panels.focus);
    assert_eq!(h.app.prefs().panels, Panels::all());
    let after = canvas_share(&h);
    assert!((after - before).abs() < 0.01, "{before} then {after}");
}

#[test]
fn each_panel_collapses_to_a_strip_and_comes_back() {
    let mut h = villager([1500.0, 950.0], Panels::all());
    let mut last = canvas_share(&h);
    for key in [Key::Num1, Key::Num2, Key::Num3, Key::Num4] {
        h.key(key, CTRL);
        h.frames(2);
        let share = canvas_share(&h);
        assert!(
            share > last,
            "{key:?} collapsed a panel: {last} then {share}"
        );
        last = share;
    }
    assert_eq!(
        h.app.prefs().panels,
        Panels {
            palette: false,
            left: false,
            right: false,
            bottom: false,
            focus: false,
        }
    );
    // The strips' buttons open them again.
    let strip = h
        .text_rect("Preview", |r| r.min.y > 900.0)
        .expect("the preview's strip");
    h.click(strip.center());
    h.frames(2);
    assert!(h.app.prefs().panels.bottom);
    // Playing the preview opens it too.
    h.key(Key::Num4, CTRL);
    h.act(Action::PlayPause);
    assert!(h.app.prefs().panels.bottom);
}

#[test]
fn the_villager_opens_framed_clear_of_the_minimap() {
    let h = villager([1600.0, 1000.0], Panels::default());
    assert!(
        h.app.canvas().minimap_rect().is_some(),
        "a minimap is shown"
    );
    let view = h.app.canvas().view_rect();
    let rects = node_rects(&h);
    assert_eq!(rects.len(), h.app.session().document().node_count());
    for (name, rect) in &rects {
        assert!(view.contains_rect(*rect), "{name} is in view");
    }
    assert_minimap_clear(&h, "first view");
}

#[test]
fn the_minimap_never_covers_a_node_wherever_the_view_goes() {
    let mut h = villager([1600.0, 1000.0], Panels::default());
    h.move_to(h.app.canvas().view_rect().center());
    h.key(Key::F, Modifiers::SHIFT);
    h.frames(2);
    assert_minimap_clear(&h, "frame all");
    assert!(h.app.canvas().minimap_rect().is_some());
    // At 100 % the tree is larger than the view: the minimap moves or hides.
    h.key(Key::Num0, CTRL);
    h.frames(2);
    assert_minimap_clear(&h, "100 %");
    let names: Vec<String> = h
        .app
        .session()
        .document()
        .nodes()
        .map(|n| n.guid.clone())
        .collect();
    for guid in names.iter().step_by(5) {
        h.app.canvas_mut().frame(std::slice::from_ref(guid));
        h.frames(2);
        assert_minimap_clear(&h, "framed on one node");
    }
}
