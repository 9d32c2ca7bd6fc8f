//! Headless UI tests of sticky notes and groups: created, edited and moved with
//! the mouse and keyboard, each change one undo step.

use crate::common::{session_with, Harness, CTRL};
use arbor_editor::commands::SetGroup;
use egui::{Key, Modifiers, Pos2};

#[test]
fn n_adds_a_note_at_the_cursor_and_typing_edits_it_in_place() {
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    let spot = h.app.canvas().view_rect().center() + egui::vec2(-250.0, 150.0);
    h.move_to(spot);
    h.key(Key::N, Modifiers::NONE);
    let doc = h.app.session().document();
    assert_eq!(doc.notes().len(), 1);
    let note = doc.notes()[0].clone();
    let expected = h.app.canvas().to_doc(spot);
    assert!(
        (note.pos[0] - expected[0]).abs() < 1.0 && (note.pos[1] - expected[1]).abs() < 1.0,
        "at the cursor"
    );
    assert_eq!(
        h.app.canvas_mut().annotations.editing_note.as_deref(),
        Some(note.guid.as_str())
    );
    h.frame();
    // The in-place editor has focus: select all, type.
    h.key(Key::A, CTRL);
    h.type_text("Remember the milk");
    assert_eq!(
        h.app.session().document().notes()[0].text,
        "Remember the milk"
    );
    h.key(Key::Escape, Modifiers::NONE);
    h.key(Key::Z, CTRL);
    assert_eq!(
        h.app.session().document().notes()[0].text,
        "New note",
        "typing is one undo step"
    );
}

#[test]
fn ctrl_g_groups_the_selection_and_dragging_the_title_moves_the_members() {
    let (session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    let mut h = Harness::new(session);
    h.key(Key::A, CTRL);
    h.key(Key::G, CTRL);
    let group = h
        .app
        .session()
        .document()
        .groups()
        .first()
        .cloned()
        .expect("a group");
    assert_eq!(group.members.len(), 2);
    assert!(h.app.selection().groups.contains(&group.guid));
    // Finish the title edit that grouping starts, then drag the title bar.
    h.key(Key::Enter, Modifiers::NONE);
    h.app.canvas_mut().annotations.renaming_group = None;
    h.frame();
    let before: Vec<[f64; 2]> = g
        .iter()
        .map(|n| h.app.session().document().position(n).expect("pos"))
        .collect();
    let steps_before = h.app.session().steps().iter().filter(|s| s.done).count();
    let zoom = h.app.canvas().zoom();
    let origin = h.app.canvas().view_rect().min;
    let _ = origin;
    let title = title_point(&h, &group.guid);
    h.drag(title, title + egui::vec2(0.0, 100.0));
    let after: Vec<[f64; 2]> = g
        .iter()
        .map(|n| h.app.session().document().position(n).expect("pos"))
        .collect();
    for (b, a) in before.iter().zip(&after) {
        assert!(
            (a[1] - b[1] - 100.0 / f64::from(zoom)).abs() < 2.0,
            "member moved with the title: {b:?} -> {a:?}"
        );
    }
    let moved_group = h
        .app
        .session()
        .document()
        .group(&group.guid)
        .expect("group")
        .clone();
    assert!((moved_group.rect[1] - group.rect[1] - 100.0 / f64::from(zoom)).abs() < 2.0);
    assert_eq!(
        h.app.session().steps().iter().filter(|s| s.done).count(),
        steps_before + 1,
        "one step"
    );
    h.key(Key::Z, CTRL);
    assert_eq!(h.app.session().document().position(&g[0]), Some(before[0]));
}

#[test]
fn a_collapsed_group_hides_its_members_from_the_graph() {
    let (mut session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    session.connect(&g[0], &g[1]).expect("connect");
    let group = arbor_editor::document::Group {
        title: "Waiting".into(),
        rect: [380.0, -60.0, 300.0, 200.0],
        members: vec![g[1].clone()],
        collapsed: true,
        ..Default::default()
    };
    session.apply(SetGroup::add(group)).expect("group");
    let mut h = Harness::new(session);
    assert!(h.app.canvas().drawn(&g[1]).is_none(), "member hidden");
    assert!(h.app.canvas().drawn(&g[0]).is_some());
    let guid = h.app.session().document().groups()[0].guid.clone();
    let mut expanded = h.app.session().document().groups()[0].clone();
    expanded.collapsed = false;
    h.app
        .session_mut()
        .apply(SetGroup::replace(expanded))
        .expect("expand");
    h.frames(2);
    assert!(
        h.app.canvas().drawn(&g[1]).is_some(),
        "member shown after expanding {guid}"
    );
}

/// A point on a group's title bar, in screen coordinates.
fn title_point(h: &Harness, guid: &str) -> Pos2 {
    let group = h.app.session().document().group(guid).expect("group");
    let view = h.app.canvas().view_rect();
    // The title bar is the top strip of the frame; aim 40 units right of its corner.
    let doc = [group.rect[0] + 40.0, group.rect[1] + 8.0];
    let zoom = h.app.canvas().zoom();
    // to_doc is the inverse of the camera: search the screen point whose doc coordinate is `doc`.
    let probe = h.app.canvas().to_doc(view.min);
    Pos2::new(
        view.min.x + ((doc[0] - probe[0]) as f32) * zoom,
        view.min.y + ((doc[1] - probe[1]) as f32) * zoom,
    )
}
