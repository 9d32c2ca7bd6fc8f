//! Undo history and memory: 1,000 undo/redo round-trips over a 1,000-node
//! document do not grow memory, and a long session's history is capped at
//! [`HISTORY_LIMIT`] steps, so its memory stops growing too.
//!
//! Memory is the process's resident set (the `memory-stats` crate). This file holds one
//! test so that no other test in the same process allocates meanwhile; where the platform
//! does not tell, only the history lengths are checked.

use arbor_editor::commands::{MoveItems, SetRoot};
use arbor_editor::document::Selection;
use arbor_editor::{Session, HISTORY_LIMIT};

/// Resident memory in KiB, where the platform tells.
fn rss_kib() -> Option<u64> {
    memory_stats::memory_stats().map(|m| m.physical_mem as u64 / 1024)
}

/// A Sequence root with 999 children: 1,000 nodes, in a session with an empty history.
fn thousand_nodes() -> (Session, Vec<String>) {
    let mut build = Session::default();
    let root = build.add_node("Sequence", [0.0, 0.0]).expect("root");
    let cmd = SetRoot::new(build.document(), Some(&root)).expect("set root");
    build.apply(cmd).expect("root set");
    let mut guids = vec![root.clone()];
    for i in 0..999 {
        let child = build
            .add_node("Wait", [f64::from(i) * 10.0, 200.0])
            .expect("child");
        build.connect(&root, &child).expect("connected");
        guids.push(child);
    }
    let session = Session::new(build.document().clone());
    assert_eq!(session.document().node_count(), 1000);
    assert_eq!(session.history().len(), 0);
    (session, guids)
}

fn moved(s: &Session, nodes: &[String], gesture: u64) -> MoveItems {
    MoveItems::by(s.document(), &Selection::of_nodes(nodes), [1.0, 0.0])
        .expect("a move")
        // Distinct gestures: each move is its own step, as separate drags are.
        .gesture(gesture)
}

#[test]
fn undo_redo_round_trips_and_long_sessions_keep_memory_bounded() {
    let (mut s, guids) = thousand_nodes();

    // 1,000 undo/redo round-trips of a move of a tenth of the nodes (a move of all of
    // them behaves the same, ten times slower in a debug build).
    let some = &guids[..100];
    let cmd = moved(&s, some, 1);
    s.apply(cmd).expect("applied");
    let after_edit = s.document().clone();
    for _ in 0..100 {
        assert!(s.undo() && s.redo());
    }
    let start = rss_kib();
    for _ in 0..1000 {
        assert!(s.undo());
        assert!(s.redo());
    }
    let end = rss_kib();
    assert_eq!(s.history().len(), 1, "round-trips add no steps");
    assert_eq!(*s.document(), after_edit);
    if let (Some(start), Some(end)) = (start, end) {
        println!("1,000 round-trips: RSS {start} KiB -> {end} KiB");
        assert!(
            end <= start + 2048,
            "memory grew by {} KiB over 1,000 round-trips",
            end - start
        );
    }

    // A long session: the history stops at HISTORY_LIMIT steps, and so does memory.
    let fewer = &guids[..50];
    for i in 0..HISTORY_LIMIT as u64 {
        let cmd = moved(&s, fewer, 10 + i);
        s.apply(cmd).expect("applied");
    }
    assert_eq!(s.history().len(), HISTORY_LIMIT);
    let full = rss_kib();
    for i in 0..HISTORY_LIMIT as u64 {
        let cmd = moved(&s, fewer, 10_000 + i);
        s.apply(cmd).expect("applied");
    }
    assert_eq!(s.history().len(), HISTORY_LIMIT, "capped");
    let later = rss_kib();
    if let (Some(end), Some(full), Some(later)) = (end, full, later) {
        let filling = full.saturating_sub(end);
        println!(
            "{HISTORY_LIMIT} steps of 50-node moves: +{filling} KiB; {HISTORY_LIMIT} more steps: {full} KiB -> {later} KiB"
        );
        // Without the cap, as many steps again would add about `filling` again.
        assert!(
            later <= full + filling / 4 + 1024,
            "memory kept growing past the cap: {full} KiB -> {later} KiB (filling took {filling} KiB)"
        );
    }

    // Undo goes back at most HISTORY_LIMIT steps; the saved state was dropped with the
    // oldest steps, so the document stays modified.
    let mut undone = 0;
    while s.undo() {
        undone += 1;
    }
    assert_eq!(undone, HISTORY_LIMIT);
    assert!(s.is_modified());
    assert_ne!(*s.document(), after_edit);
}
