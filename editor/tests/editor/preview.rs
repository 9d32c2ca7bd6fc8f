//! The live preview, headless: it ticks the document's tree, follows edits (hot reload in
//! the same frame), pauses at breakpoints, scrubs back through the timeline, and takes
//! blackboard edits as stimuli to the agent rather than document changes.
//!
//! The whole editor runs (the common harness) with a clock of 0.25 s per frame at 4 ticks
//! per second, so each frame after the first runs exactly one tick.

use std::path::Path;

use crate::common::Harness;
use arbor_editor::app::Action;
use arbor_editor::commands::{RemoveItems, RemoveKey, SetParam};
use arbor_editor::document::{Document, Owner, Selection};
use arbor_editor::live::LiveSource;
use arbor_editor::preview::PlainSim;
use arbor_editor::Session;
use arbor_runtime::Status;
use serde_json::json;

const FRAME: f64 = 0.25;

/// The preview of the editor's active tab, one tick per frame from the second frame on.
fn harness(session: Session) -> Harness {
    Harness::unstarted(session, FRAME)
}

/// The first frame (the preview starts), then one tick per frame.
fn start(h: &mut Harness) {
    h.frame();
    h.preview_mut().set_speed(1.0 / FRAME);
}

/// F10 (Step) while paused: whether a tick ran.
fn step(h: &mut Harness) -> bool {
    let before = h.preview().ticks();
    h.act(Action::Step);
    h.preview().ticks() > before
}

fn status(h: &Harness, guid: &str) -> Option<Status> {
    h.preview().node_live(guid).and_then(|live| live.status)
}

fn guid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// A document of built-in nodes: `Sequence(1)[Scripted(2) a, Scripted(3) b]`, with an
/// unused key `spare`.
fn scripted(a: serde_json::Value, b: serde_json::Value) -> Session {
    let text = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(0), "name": "prototype",
        "blackboard": [{"key": "spare", "type": "int", "default": 1}],
        "root": guid(1),
        "nodes": [
            {"guid": guid(1), "name": "Do both", "type": "Sequence", "children": [guid(2), guid(3)]},
            {"guid": guid(2), "name": "First", "type": "Scripted", "params": {"returns": a}},
            {"guid": guid(3), "name": "Second", "type": "Scripted", "params": {"returns": b}}
        ]
    });
    let file = arbor_runtime::parse_str(&text.to_string(), None).expect("a valid tree file");
    Session::new(Document::from_tree_file(file, None).expect("a valid document"))
}

fn sample(name: &str) -> Session {
    let path = arbor_samples::trees_dir().join(format!("{name}.json"));
    Session::open(Path::new(&path)).expect("the sample opens")
}

#[test]
fn ticks_the_documents_tree_and_shows_an_edit_in_the_next_tick() {
    let mut h = harness(scripted(json!(["success"]), json!(["running"])));
    start(&mut h);
    assert_eq!(h.preview().sample(), Some("none"), "built-in nodes only");
    assert!(h.preview().is_playing(), "a newly shown tree plays");
    h.frames(3);
    assert_eq!(h.preview().ticks(), 3);
    assert_eq!(h.preview().last_status(), Some(Status::Running));
    assert_eq!(status(&h, &guid(3)), Some(Status::Running));
    assert_eq!(status(&h, &guid(1)), Some(Status::Running));
    // The first leaf completed in tick 1 and is skipped since (rule 10): it fades.
    let first = h.preview().node_live(&guid(2)).expect("visited in tick 1");
    assert_eq!(first.status, Some(Status::Success));
    assert_eq!(first.ticks_ago, 2);
    assert!(first.age > 0.4, "{}", first.age);

    let edit = SetParam::new(
        h.app.session().document(),
        Owner::Node(guid(3)),
        "returns",
        Some(json!(["failure"])),
    )
    .expect("a valid edit");
    h.app.session_mut().apply(edit).expect("applies");
    h.frames(1);
    assert_eq!(h.preview().ticks(), 4, "the world went on: no reset");
    assert_eq!(status(&h, &guid(3)), Some(Status::Failure));
    assert_eq!(status(&h, &guid(1)), Some(Status::Failure));
    assert_eq!(
        h.preview().node_live(&guid(3)).map(|l| l.ticks_ago),
        Some(0)
    );

    // Undo is an edit too.
    h.app.session_mut().undo();
    h.frames(1);
    assert_eq!(status(&h, &guid(3)), Some(Status::Running));

    // Removing a node: the Sequence now succeeds, and the removed node shows nothing.
    let remove = RemoveItems::new(h.app.session().document(), &Selection::of_nodes([guid(3)]));
    h.app.session_mut().apply(remove).expect("applies");
    h.frames(1);
    assert_eq!(h.preview().last_status(), Some(Status::Success));
    assert_eq!(h.preview().node_live(&guid(3)), None);
}

#[test]
fn a_tree_that_stops_loading_keeps_the_last_good_one_running() {
    let mut h = harness(scripted(json!(["success"]), json!(["running"])));
    start(&mut h);
    h.frames(2);
    let remove_root = RemoveItems::new(h.app.session().document(), &Selection::of_nodes([guid(1)]));
    h.app.session_mut().apply(remove_root).expect("applies");
    h.frames(2);
    assert!(
        h.preview().problems().iter().any(|p| p.contains("root")),
        "{:?}",
        h.preview().problems()
    );
    assert!(h.preview().note().is_some_and(|n| n.contains("last good")));
    assert_eq!(h.preview().ticks(), 4, "the last good tree kept ticking");
    h.app.session_mut().undo();
    h.frames(1);
    assert!(h.preview().problems().is_empty());

    // A reload that drops a blackboard value says which.
    let remove_key = RemoveKey::new(h.app.session().document(), "spare").expect("declared");
    h.app.session_mut().apply(remove_key).expect("applies");
    h.frames(1);
    let note = h.preview().note().unwrap_or_default();
    assert!(note.contains("dropped") && note.contains("spare"), "{note}");
}

#[test]
fn a_breakpoint_pauses_and_frames_its_node() {
    let mut h = harness(scripted(json!(["success"]), json!(["running"])));
    start(&mut h);
    h.preview_mut().toggle_breakpoint(&guid(3));
    assert!(h.preview().has_breakpoint(&guid(3)));
    h.frames(3);
    assert!(!h.preview().is_playing(), "paused when the node entered");
    assert_eq!(h.preview().ticks(), 1, "no tick after the breakpoint");
    assert_eq!(
        *h.app.selection(),
        Selection::of_nodes([guid(3)]),
        "the app framed and selected it"
    );
    assert!(h.preview().note().is_some_and(|n| n.contains("Second")));

    // Resuming: the leaf keeps running, so it is not entered again.
    h.app.set_selection(Selection::default());
    h.preview_mut().play();
    h.frames(2);
    assert_eq!(h.preview().ticks(), 3);
    assert!(h.app.selection().is_empty(), "not framed again");
    h.preview_mut().toggle_breakpoint(&guid(3));
    assert!(!h.preview().has_breakpoint(&guid(3)));
}

#[test]
fn the_pause_note_goes_with_its_breakpoint() {
    for clear_all in [false, true] {
        let mut h = harness(scripted(json!(["success"]), json!(["running"])));
        start(&mut h);
        h.preview_mut().toggle_breakpoint(&guid(3));
        h.frames(3);
        assert!(!h.preview().is_playing());
        assert!(h.preview().note().is_some_and(|n| n.contains("breakpoint")));
        if clear_all {
            h.preview_mut().clear_breakpoints();
        } else {
            h.preview_mut().toggle_breakpoint(&guid(3));
        }
        h.frame();
        assert_eq!(h.preview().note(), None, "clear_all: {clear_all}");
    }
}

#[test]
fn scrubbing_the_timeline_shows_an_earlier_tick() {
    // The second leaf runs, then succeeds, then fails (and fails from then on).
    let mut h = harness(scripted(
        json!(["success"]),
        json!(["running", "success", "failure"]),
    ));
    start(&mut h);
    h.frames(4);
    assert_eq!(h.preview().timeline().range(), Some((1, 4)));
    assert_eq!(status(&h, &guid(3)), Some(Status::Failure));

    h.preview_mut().scrub_to(1);
    assert!(!h.preview().is_playing(), "scrubbing pauses");
    assert_eq!(status(&h, &guid(3)), Some(Status::Running));
    h.preview_mut().scrub_to(2);
    assert_eq!(status(&h, &guid(3)), Some(Status::Success));
    assert_eq!(status(&h, &guid(1)), Some(Status::Success));
    h.frames(2);
    assert_eq!(h.preview().ticks(), 4, "paused while scrubbed");

    h.preview_mut().go_live();
    assert_eq!(status(&h, &guid(3)), Some(Status::Failure));
    h.preview_mut().play();
    h.frames(1);
    assert_eq!(h.preview().ticks(), 5);
}

#[test]
fn a_blackboard_edit_is_a_stimulus_not_a_document_change() {
    // MathTree (rule 35), target 20: tick 1 succeeds at the second AddTen with current 20.
    let mut h = harness(sample("counting"));
    start(&mut h);
    assert_eq!(h.preview().sample(), Some("counting"));
    h.frames(1);
    assert_eq!(h.preview().last_status(), Some(Status::Success));
    // AddTen (2A) is a Subtree node: its status comes from the subtree's nodes.
    let add_ten_2a = h
        .app
        .session()
        .document()
        .nodes()
        .find(|n| n.name == "AddTen (2A)")
        .map(|n| n.guid.clone())
        .expect("the counting tree has AddTen (2A)");
    let add_ten_2a = add_ten_2a.as_str();
    assert_eq!(status(&h, add_ten_2a), Some(Status::Failure));

    assert!(
        h.preview_mut().set_blackboard("current", "10").is_err(),
        "not while playing"
    );
    h.preview_mut().pause();
    let generation = h.app.session().generation();
    let before = h.app.session().document().clone();
    h.preview_mut()
        .set_blackboard("current", "10")
        .expect("an int key");
    assert!(h
        .preview_mut()
        .set_blackboard("current", "\"ten\"")
        .is_err());
    assert!(h.preview_mut().set_blackboard("nothing", "1").is_err());
    assert_eq!(h.app.session().generation(), generation);
    assert_eq!(*h.app.session().document(), before);

    // Without the edit current would be 30 after the first AddTen, and it would fail.
    assert!(step(&mut h));
    assert_eq!(status(&h, add_ten_2a), Some(Status::Success));
    let bb = h
        .preview()
        .simulation()
        .and_then(|s| s.blackboard())
        .expect("running");
    let current = bb.key("current").and_then(|k| bb.get_i64(k));
    assert_eq!(current, Some(20));
}

#[test]
fn the_villager_opens_playing() {
    let mut h = harness(sample("villager"));
    h.frames(1);
    assert_eq!(h.preview().sample(), Some("villager"));
    assert!(h.preview().is_playing());
    assert!(
        h.preview().problems().is_empty(),
        "{:?}",
        h.preview().problems()
    );
    h.frames(8);
    assert!(h.preview().ticks() > 0);
    let root = h
        .app
        .session()
        .document()
        .root()
        .expect("a root")
        .to_owned();
    assert_eq!(status(&h, &root), Some(Status::Running), "Repeat forever");
}

/// A BehaviorTree.CPP file's custom nodes have no program yet: the preview runs them as
/// stand-ins, success until the user picks another status for one (docs/interop.md).
#[test]
fn an_imported_trees_custom_nodes_run_as_stand_ins_the_user_can_steer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = dir.path().join("crossdoor.xml");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/tests/data/btcpp/crossdoor.xml"),
        &xml,
    )
    .expect("copy the fixture");
    let mut h = harness(Session::open(&xml).expect("the XML opens"));
    let find = |h: &Harness, kind: &str| {
        h.app
            .session()
            .document()
            .nodes()
            .find(|n| n.kind == kind)
            .map(|n| n.guid.clone())
            .unwrap_or_else(|| panic!("no {kind}"))
    };
    let (is_open, open_it) = (find(&h, "IsDoorOpen"), find(&h, "Subtree"));
    start(&mut h);
    assert_eq!(h.preview().sample(), Some("none"));
    // The canvas badges exactly the host nodes that run as stand-ins.
    let stand_ins = LiveSource::stand_ins(h.preview());
    assert!(stand_ins.contains(&is_open.as_str()), "{stand_ins:?}");
    assert!(
        !stand_ins.contains(&open_it.as_str()),
        "a built-in Subtree node"
    );
    assert!(
        h.preview().problems().is_empty(),
        "{:?}",
        h.preview().problems()
    );
    h.frames(1);
    assert_eq!(
        status(&h, &is_open),
        Some(Status::Success),
        "stand-ins succeed"
    );
    assert_eq!(
        h.preview().node_live(&open_it),
        None,
        "the door was open: not tried"
    );

    let plain = h
        .preview_mut()
        .simulation_mut()
        .and_then(|s| s.as_any_mut().downcast_mut::<PlainSim>())
        .expect("the stand-in simulation");
    let hosts: Vec<String> = plain.host_nodes().iter().map(|n| n.kind.clone()).collect();
    for kind in [
        "IsDoorOpen",
        "OpenDoor",
        "PickLock",
        "SmashDoor",
        "PassThroughDoor",
    ] {
        assert!(hosts.iter().any(|k| k == kind), "{kind} in {hosts:?}");
    }
    plain.set_stand_in(&is_open, Status::Failure);
    assert_eq!(plain.stand_in(&is_open), Status::Failure);
    h.frames(1);
    assert_eq!(status(&h, &is_open), Some(Status::Failure));
    assert_eq!(
        status(&h, &open_it),
        Some(Status::Success),
        "the subtree ran in its place"
    );
}

/// A tree that doubles a string every tick: the preview runs whatever is opened, so it
/// must stop on its own, say why, and never let the blackboard grow past its budget (one
/// tick can at most double what was there).
#[test]
fn a_tree_that_grows_a_string_every_tick_stops_the_preview_with_a_message() {
    let text = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(0), "name": "hostile",
        "blackboard": [{"key": "s", "type": "string", "default": "x".repeat(64)}],
        "root": guid(1),
        "nodes": [
            {"guid": guid(1), "name": "Double", "type": "Script", "params": {"code": "s := s .. s"}}
        ]
    });
    let file = arbor_runtime::parse_str(&text.to_string(), None).expect("a valid tree file");
    let session = Session::new(Document::from_tree_file(file, None).expect("a document"));
    let mut h = harness(session);
    start(&mut h);
    let bytes = |h: &Harness| {
        h.preview()
            .simulation()
            .and_then(|s| s.blackboard())
            .map_or(0, arbor_editor::preview::blackboard_bytes)
    };
    for _ in 0..40 {
        h.frame();
        assert!(
            bytes(&h) <= 2 * arbor_editor::preview::MAX_BLACKBOARD_BYTES,
            "the blackboard grew to {} bytes at tick {}",
            bytes(&h),
            h.preview().ticks()
        );
        if !h.preview().is_playing() {
            break;
        }
    }
    // Either the preview stopped itself, or the runtime's own string limit kept the
    // string bounded (the Script node fails); either way the editor lives on.
    if !h.preview().is_playing() {
        let note = h.preview().note().unwrap_or_default().to_owned();
        assert!(note.starts_with("Stopped:"), "{note}");
        h.act(Action::PlayPause);
        assert!(
            !h.preview().is_playing(),
            "Play is refused while over budget"
        );
    }
}

/// Three nested `Repeat count=1000` over a Script (runtime/tests/data/limits): opened, the
/// preview ticks it, and every tick ends within the runtime's loop budget (semantics
/// rule 81) instead of running the script a billion times. Work is counted, not timed:
/// the script's counter grows by at most one budget per tick.
#[test]
fn rule81_a_preview_of_nested_repeats_ticks_within_the_loop_budget() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/data/limits/nested_repeats.json");
    let text = std::fs::read_to_string(&path).expect("the nested-Repeat file");
    let file = arbor_runtime::parse_str(&text, None).expect("a valid tree file");
    let session = Session::new(Document::from_tree_file(file, None).expect("a document"));
    let mut h = harness(session);
    start(&mut h);
    let x = |h: &Harness| {
        h.preview()
            .simulation()
            .and_then(|s| s.blackboard())
            .and_then(|bb| bb.key("x").and_then(|k| bb.get(k)).and_then(|v| v.as_i64()))
            .unwrap_or(0)
    };
    let per_tick = i64::from(arbor_runtime::LOOP_BUDGET_PER_TICK) + 1;
    for _ in 0..3 {
        h.frame();
    }
    let ticks = h.preview().ticks() as i64;
    assert!(ticks >= 3, "the preview keeps ticking: {ticks} ticks");
    assert!(h.preview().is_playing(), "{:?}", h.preview().note());
    assert_eq!(
        x(&h),
        ticks * per_tick,
        "one budget of script runs per tick"
    );
}

/// Every key of the running blackboard and its value, as text.
fn blackboard_text(h: &Harness) -> String {
    let bb = h
        .preview()
        .simulation()
        .and_then(|s| s.blackboard())
        .expect("running");
    bb.keys()
        .map(|(key, info)| format!("{}={:?}; ", info.name, bb.get(key).map(|v| v.to_json())))
        .collect()
}

/// The world as the preview shows it: its summary and how many log lines it wrote.
fn world_text(h: &Harness) -> String {
    let sim = h.preview().simulation().expect("running");
    format!("{} / {} log lines", sim.summary(), sim.log().total())
}

#[test]
fn scrubbing_back_restores_the_blackboard_and_world_of_that_tick() {
    let mut h = harness(sample("guard"));
    start(&mut h);
    h.frames(2);
    let seq = h.preview().ticks();
    let (blackboard, world) = (blackboard_text(&h), world_text(&h));
    // Long enough for the guard to reach its next waypoint (the key advances).
    h.frames(160);
    let (latest, latest_world) = (blackboard_text(&h), world_text(&h));
    assert_ne!(blackboard, latest, "the guard's blackboard changes");
    assert_ne!(world, latest_world, "the guard's log grows");

    h.preview_mut().scrub_to(seq);
    assert!(h.preview().is_scrubbed());
    assert_eq!(
        blackboard_text(&h),
        blackboard,
        "the blackboard of tick {seq}"
    );
    assert_eq!(world_text(&h), world, "the world of tick {seq}");
    h.frames(2);
    assert!(h.shows("(pause to edit)"), "an earlier tick is not edited");

    h.preview_mut().go_live();
    assert_eq!(blackboard_text(&h), latest, "back to the present");
    assert_eq!(world_text(&h), latest_world);

    // Playing from a scrubbed tick goes on from the present, not from the tick looked at.
    h.preview_mut().scrub_to(seq);
    h.preview_mut().play();
    assert_eq!(blackboard_text(&h), latest);
}

#[test]
fn the_keys_a_sample_writes_each_tick_are_marked() {
    let mut h = harness(sample("guard"));
    start(&mut h);
    h.frames(2);
    h.preview_mut().pause();
    h.frames(2);
    let sensed = h.preview().simulation().unwrap().sensed_keys();
    assert!(sensed.contains(&"enemy_visible") && !sensed.contains(&"waypoint"));
    let tags = h.painted().iter().filter(|p| p.text == "sensed").count();
    assert_eq!(
        tags, 3,
        "enemy_visible, enemy_tracked and last_seen are tagged"
    );
}
