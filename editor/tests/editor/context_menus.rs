//! Headless UI tests of right-click menus and of where new items are placed: a right-click
//! opens exactly one menu, the one of what is under the pointer (node, note, note inside a
//! group, group, wire, empty canvas), never the node finder as well; menu items run the
//! same actions as the shortcuts; paste and duplicate never land on existing nodes; a
//! collapsed group hides its notes; a new note's placeholder is replaced by typing.

use crate::common::{session_with, Harness, CTRL};
use arbor_editor::canvas::MenuTarget;
use arbor_editor::commands::{SetGroup, SetNote};
use arbor_editor::document::{Group, Note, Selection};
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Rect};

/// Sequence → Wait, a free note, and a group holding a note of its own.
fn scene() -> (Harness, Vec<String>, String, String, String) {
    let (mut session, g) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [420.0, 0.0])]);
    session.connect(&g[0], &g[1]).expect("connect");
    let free = SetNote::add(Note {
        text: "free".into(),
        pos: [0.0, 300.0],
        size: [220.0, 120.0],
        ..Note::default()
    });
    let free_guid = free.guid().to_owned();
    session.apply(free).expect("note");
    let inner = SetNote::add(Note {
        text: "inside".into(),
        pos: [460.0, 360.0],
        size: [200.0, 100.0],
        ..Note::default()
    });
    let inner_guid = inner.guid().to_owned();
    session.apply(inner).expect("note");
    let group = SetGroup::add(Group {
        title: "Box".into(),
        rect: [400.0, 250.0, 420.0, 300.0],
        members: vec![inner_guid.clone()],
        ..Group::default()
    });
    let group_guid = group.guid().to_owned();
    session.apply(group).expect("group");
    let mut h = Harness::new(session);
    // Readable zoom, everything in view.
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(2);
    (h, g, free_guid, inner_guid, group_guid)
}

/// The screen point of a document point.
fn screen(h: &Harness, doc: [f64; 2]) -> Pos2 {
    let view = h.app.canvas().view_rect();
    let probe = h.app.canvas().to_doc(view.min);
    let zoom = h.app.canvas().zoom();
    Pos2::new(
        view.min.x + ((doc[0] - probe[0]) as f32) * zoom,
        view.min.y + ((doc[1] - probe[1]) as f32) * zoom,
    )
}

fn right_click(h: &mut Harness, pos: Pos2) {
    h.move_to(pos);
    h.button(pos, PointerButton::Secondary, true);
    h.button(pos, PointerButton::Secondary, false);
    h.frame();
}

/// The middle of the wire from `parent` to `child` (the curve is symmetric between its
/// ports).
fn wire_middle(h: &Harness, parent: &str, child: &str) -> Pos2 {
    let port = |guid: &str, out: bool| {
        let drawn = h.app.canvas().drawn(guid).expect("drawn");
        let port = if out {
            drawn.output_port()
        } else {
            drawn.input_port()
        };
        port.expect("port")
    };
    let (from, to) = (port(parent, true), port(child, false));
    from + (to - from) / 2.0
}

fn node_rect(h: &Harness, guid: &str) -> Rect {
    h.app.canvas().drawn(guid).map(|d| d.rect()).expect("drawn")
}

/// The open menu's target, checking that the finder did not open as well.
fn only_menu(h: &Harness) -> MenuTarget {
    assert!(!h.app.tab().palette_is_open(), "the node finder opened too");
    h.app
        .canvas()
        .context_menu()
        .map(|m| m.target.clone())
        .expect("a menu is open")
}

fn choose(h: &mut Harness, label: &str) {
    let item = h
        .app
        .canvas()
        .context_menu()
        .and_then(|m| m.item(label))
        .unwrap_or_else(|| panic!("no item {label:?}"));
    h.click(item.center());
    h.frame();
}

#[test]
fn each_thing_under_the_pointer_opens_its_own_menu_and_only_that() {
    let (mut h, g, free, inner, group) = scene();
    assert!(!h.app.canvas().level_of_detail());

    let node = node_rect(&h, &g[0]).center();
    right_click(&mut h, node);
    assert_eq!(only_menu(&h), MenuTarget::Node(g[0].clone()));
    assert_eq!(h.app.selection(), &Selection::of_nodes([g[0].clone()]));
    let menu = h.app.canvas().context_menu().expect("menu");
    for item in [
        "Cut",
        "Copy",
        "Duplicate",
        "Delete",
        "Set as Root",
        "Export as Subtree…",
    ] {
        assert!(menu.item(item).is_some(), "node menu lacks {item}");
    }
    assert!(menu.item("Open Source of Sequence").is_some());

    let at = screen(&h, [100.0, 360.0]);
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Note(free.clone()));

    // A note inside a group: the note's menu, not the group's, not the finder.
    let at = screen(&h, [560.0, 420.0]);
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Note(inner.clone()));

    // The group: on its title bar, and on its empty body.
    let at = screen(&h, [450.0, 262.0]);
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Group(group.clone()));
    let at = screen(&h, [780.0, 520.0]);
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Group(group.clone()));

    // The wire's middle.
    let at = wire_middle(&h, &g[0], &g[1]);
    right_click(&mut h, at);
    assert_eq!(
        only_menu(&h),
        MenuTarget::Wire {
            parent: g[0].clone(),
            child: g[1].clone()
        }
    );

    // Empty canvas: "Add Node…" opens the finder there.
    let view = h.app.canvas().view_rect();
    let empty = view.left_bottom() + egui::vec2(20.0, -20.0);
    right_click(&mut h, empty);
    assert!(matches!(only_menu(&h), MenuTarget::Canvas(_)));
    choose(&mut h, "Add Node…");
    assert!(h.app.canvas().context_menu().is_none(), "the menu closed");
    assert!(h.app.tab().palette_is_open(), "the finder opened");

    // Escape closes an open menu.
    h.key(Key::Escape, Modifiers::NONE);
    right_click(&mut h, node);
    h.key(Key::Escape, Modifiers::NONE);
    assert!(h.app.canvas().context_menu().is_none());

    // Zoomed out, nodes are plain boxes: the same hit test finds them.
    h.app.canvas_mut().set_zoom(0.3);
    h.frames(3);
    assert!(h.app.canvas().level_of_detail());
    let at = h
        .app
        .canvas()
        .lod_box(&g[1])
        .expect("drawn as a box")
        .center();
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Node(g[1].clone()));
}

/// Disable from a node's menu greys out its whole branch and switches it off in the file;
/// the item then reads Enable, and undo brings the branch back.
#[test]
fn disable_in_the_node_menu_greys_out_the_branch_and_undo_restores_it() {
    let (mut h, g, _, _, _) = scene();
    assert_eq!(h.app.canvas().greyed(&g[0]), Some(false));
    assert_eq!(h.app.canvas().greyed(&g[1]), Some(false));

    let node = node_rect(&h, &g[0]).center();
    right_click(&mut h, node);
    assert!(h
        .app
        .canvas()
        .context_menu()
        .and_then(|m| m.item("Enable"))
        .is_none());
    choose(&mut h, "Disable");
    h.frames(2);
    let doc = h.app.session().document();
    assert!(!doc.node(&g[0]).expect("node").enabled);
    assert!(
        doc.node(&g[1]).expect("node").enabled,
        "only the clicked node is switched off"
    );
    assert_eq!(h.app.canvas().greyed(&g[0]), Some(true));
    assert_eq!(
        h.app.canvas().greyed(&g[1]),
        Some(true),
        "its child is greyed too"
    );

    right_click(&mut h, node);
    assert!(h
        .app
        .canvas()
        .context_menu()
        .and_then(|m| m.item("Disable"))
        .is_none());
    assert!(h
        .app
        .canvas()
        .context_menu()
        .and_then(|m| m.item("Enable"))
        .is_some());
    h.key(Key::Escape, Modifiers::NONE);

    h.key(Key::Z, CTRL);
    h.frames(2);
    assert!(
        h.app
            .session()
            .document()
            .node(&g[0])
            .expect("node")
            .enabled
    );
    assert_eq!(h.app.canvas().greyed(&g[0]), Some(false));
    assert_eq!(h.app.canvas().greyed(&g[1]), Some(false));
}

#[test]
fn menu_items_run_the_same_actions_as_the_shortcuts() {
    let (mut h, g, free, _, group) = scene();
    // Delete a wire.
    let at = wire_middle(&h, &g[0], &g[1]);
    right_click(&mut h, at);
    choose(&mut h, "Delete Connection");
    assert!(h.app.session().document().children(&g[0]).is_empty());
    // Delete a note.
    let at = screen(&h, [100.0, 360.0]);
    right_click(&mut h, at);
    choose(&mut h, "Delete Note");
    assert!(h.app.session().document().note(&free).is_none());
    // Collapse a group.
    let at = screen(&h, [450.0, 262.0]);
    right_click(&mut h, at);
    choose(&mut h, "Collapse");
    assert!(
        h.app
            .session()
            .document()
            .group(&group)
            .expect("group")
            .collapsed
    );
    // Duplicate a node: one undo step named as the shortcut's, placed clear of the rest.
    let at = node_rect(&h, &g[1]).center();
    right_click(&mut h, at);
    choose(&mut h, "Duplicate");
    assert_eq!(
        h.app.session().undo_text().as_deref(),
        Some("Undo Duplicate 1 node")
    );
    assert_eq!(h.app.session().document().node_count(), 3);
    h.frames(2);
    assert_no_overlap(&h);
    // Copy puts the node on the clipboard.
    let at = node_rect(&h, &g[0]).center();
    right_click(&mut h, at);
    choose(&mut h, "Copy");
    assert!(h.copied().is_some_and(|t| t.contains("Sequence")));
    // Delete through the menu, undone by Ctrl+Z.
    let at = node_rect(&h, &g[0]).center();
    right_click(&mut h, at);
    choose(&mut h, "Delete");
    assert!(!h.app.session().document().contains(&g[0]));
    h.key(Key::Z, CTRL);
    assert!(h.app.session().document().contains(&g[0]));
}

/// No two drawn nodes overlap.
fn assert_no_overlap(h: &Harness) {
    let doc = h.app.session().document();
    let rects: Vec<(String, Rect)> = doc
        .nodes()
        .filter_map(|n| Some((n.guid.clone(), h.app.canvas().drawn(&n.guid)?.rect())))
        .collect();
    assert_eq!(rects.len(), doc.node_count(), "every node drawn");
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in &rects[i + 1..] {
            // Touching edges do not count, as in the model's `Bounds::overlaps`.
            let shared = ra.intersect(*rb);
            assert!(
                shared.width() <= 0.0 || shared.height() <= 0.0,
                "{a} {ra:?} overlaps {b} {rb:?}"
            );
        }
    }
}

#[test]
fn paste_and_duplicate_never_land_on_existing_nodes() {
    let (session, g) = session_with(&[
        ("Sequence", [0.0, 0.0]),
        ("Wait", [420.0, 0.0]),
        ("Wait", [420.0, 120.0]),
    ]);
    let mut h = Harness::new(session);
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(2);
    // Copy everything, paste with the pointer on the first node: the copy goes beside.
    h.key(Key::A, CTRL);
    h.push(Event::Copy);
    h.frame();
    let text = h.copied().expect("copied");
    h.move_to(node_rect(&h, &g[0]).center());
    h.push(Event::Paste(text.clone()));
    h.frames(3);
    assert_eq!(h.app.session().document().node_count(), 6);
    assert_no_overlap(&h);
    // Again: the second copy avoids the first one too.
    h.move_to(node_rect(&h, &g[1]).center());
    h.push(Event::Paste(text));
    h.frames(3);
    assert_eq!(h.app.session().document().node_count(), 9);
    // Duplicate (Ctrl+D) the selection, the last paste.
    h.key(Key::D, CTRL);
    h.frames(3);
    assert_eq!(h.app.session().document().node_count(), 12);
    h.app.canvas_mut().frame(&[]);
    h.frames(3);
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(3);
    assert_no_overlap_in_document(&h);
}

/// No two nodes overlap, by their positions and measured sizes (some may be off screen).
fn assert_no_overlap_in_document(h: &Harness) {
    let doc = h.app.session().document();
    let sizes = h.app.canvas().measured_sizes();
    let boxes: Vec<(String, Rect)> = doc
        .nodes()
        .map(|n| {
            let p = doc.position(&n.guid).expect("positioned");
            let s = sizes
                .get(&n.guid)
                .copied()
                .unwrap_or(arbor_editor::canvas::DEFAULT_NODE_SIZE);
            let r = Rect::from_min_size(
                Pos2::new(p[0] as f32, p[1] as f32),
                egui::vec2(s[0] as f32, s[1] as f32),
            );
            (n.guid.clone(), r)
        })
        .collect();
    for (i, (a, ra)) in boxes.iter().enumerate() {
        for (b, rb) in &boxes[i + 1..] {
            // Touching edges do not count, as in the model's `Bounds::overlaps`.
            let shared = ra.intersect(*rb);
            assert!(
                shared.width() <= 0.0 || shared.height() <= 0.0,
                "{a} {ra:?} overlaps {b} {rb:?}"
            );
        }
    }
}

#[test]
fn a_collapsed_group_hides_its_notes() {
    let (mut h, _, _, inner, group) = scene();
    let on_note = screen(&h, [560.0, 420.0]);
    let mut g = h
        .app
        .session()
        .document()
        .group(&group)
        .cloned()
        .expect("group");
    g.collapsed = true;
    h.app
        .session_mut()
        .apply(SetGroup::replace(g))
        .expect("collapse");
    h.frames(2);
    let doc = h.app.session().document();
    let target = h.app.canvas().target_at(doc, on_note);
    assert_ne!(
        target,
        MenuTarget::Note(inner.clone()),
        "the hidden note was hit"
    );
    // And it takes no clicks: clicking where it was does not select it.
    h.click(on_note);
    assert!(!h.app.selection().notes.contains(&inner));
}

#[test]
fn a_new_notes_placeholder_is_replaced_by_typing() {
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    h.move_to(h.app.canvas().view_rect().center() + egui::vec2(-250.0, 150.0));
    h.key(Key::N, Modifiers::NONE);
    h.frames(2);
    h.type_text("Check the guard's route");
    assert_eq!(
        h.app.session().document().notes()[0].text,
        "Check the guard's route"
    );
}

#[test]
fn inline_from_the_node_menu_lands_clear_of_the_other_nodes() {
    let g = |n: u32| format!("00000000-0000-4000-8000-{n:012}");
    let dir = tempfile::tempdir().expect("temp dir");
    let sub = serde_json::json!({
        "format": "arbor-tree", "version": 2, "guid": g(100), "name": "count",
        "root": g(101),
        "nodes": [
            {"guid": g(101), "type": "Sequence", "children": [g(102), g(103)]},
            {"guid": g(102), "type": "Wait", "params": {"seconds": 1.0}},
            {"guid": g(103), "type": "Wait", "params": {"seconds": 2.0}}
        ],
        "editor": {"positions": {g(101): [0.0, 0.0], g(102): [280.0, -60.0], g(103): [280.0, 60.0]}}
    });
    // "after" sits right under the Subtree node: the inlined Sequence would cover it.
    let parent = serde_json::json!({
        "format": "arbor-tree", "version": 2, "guid": g(1), "name": "parent",
        "root": g(2),
        "nodes": [
            {"guid": g(2), "type": "Sequence", "children": [g(5), g(7)]},
            {"guid": g(5), "name": "use counter", "type": "Subtree", "params": {"path": "count.json"}},
            {"guid": g(7), "name": "after", "type": "Wait", "params": {"seconds": 0.5}}
        ],
        "editor": {"positions": {g(2): [0.0, 0.0], g(5): [280.0, 0.0], g(7): [280.0, 60.0]}}
    });
    std::fs::write(dir.path().join("count.json"), sub.to_string()).expect("write");
    let path = dir.path().join("parent.json");
    std::fs::write(&path, parent.to_string()).expect("write");
    let session = arbor_editor::Session::open(&path).expect("opens");
    let mut h = Harness::new(session);
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(3);
    // Its title: "after" covers its lower half.
    let at = node_rect(&h, &g(5)).left_top() + egui::vec2(30.0, 12.0);
    right_click(&mut h, at);
    assert_eq!(only_menu(&h), MenuTarget::Node(g(5)));
    choose(&mut h, "Inline Subtree");
    let doc = h.app.session().document();
    assert!(!doc.contains(&g(5)), "inlined");
    assert_eq!(doc.node_count(), 5);
    h.frames(3);
    assert_no_overlap_in_document(&h);
}

#[test]
fn open_source_runs_the_configured_command_or_says_why_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("jump.rs");
    std::fs::write(&source, "// registers Jump\n").expect("write");
    let mut types = arbor_runtime::NodeTypes::builtin();
    types.insert(
        arbor_runtime::NodeType::action("Jump", "Jumps.").source(&source.display().to_string(), 1),
    );
    let mut session = arbor_editor::Session::with_types(Default::default(), types);
    let jump = session.add_node("Jump", [0.0, 0.0]).expect("added");
    let mut h = Harness::new(session);
    h.app.canvas_mut().set_zoom(1.0);
    h.frames(2);
    let open = |h: &mut Harness| {
        let at = node_rect(h, &jump).center();
        right_click(h, at);
        choose(h, "Open Source of Jump");
    };
    h.app.prefs_mut().source_command = "true {file}:{line}".into();
    open(&mut h);
    let texts: Vec<String> = h
        .app
        .toasts()
        .texts()
        .into_iter()
        .map(str::to_owned)
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("Opened") && t.ends_with("jump.rs:1")),
        "{texts:?}"
    );
    h.app.prefs_mut().source_command = "no-such-editor-for-arbor {file}".into();
    open(&mut h);
    let texts = h.app.toasts().texts();
    assert!(
        texts.iter().any(
            |t| t.contains("`no-such-editor-for-arbor {file}` did not start")
                && t.contains("View ▸ Source Editor")
        ),
        "{texts:?}"
    );
}
