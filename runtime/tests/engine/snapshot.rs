//! `Agent::snapshot` and `Agent::restore` (rules 90 to 93): what a snapshot keeps, what a
//! restore refuses (another tree, a future version, corrupt, truncated or inconsistent
//! text, a file too large), and the restart of stateful nodes that did not opt in. The
//! differential over random trees is in runtime/codegen-check (tests/differential/).

use std::sync::Arc;

use arbor_runtime::{
    ActionCtx, Agent, CompiledTree, NodeType, Registry, Snapshot, SnapshotError, StatefulAction,
    Status,
};
use serde_json::{json, Value};

use crate::common::{self, bb, bb_set_ttl, compile, scripted, seq, tree_json};

/// A Sequence that is half way through, a timed Wait and a key with a ttl.
fn busy() -> Arc<CompiledTree<()>> {
    compile(
        seq(
            "S",
            vec![
                scripted("A", &["success"]),
                json!({"type": "Wait", "name": "W", "params": {"seconds": 1.0}}),
                scripted("B", &["running", "success"]),
            ],
        ),
        json!([{"key": "seen", "type": "bool"}, {"key": "hp", "type": "int", "default": 3}]),
    )
}

fn busy_agent() -> Agent<()> {
    let mut agent = Agent::new(busy(), 5);
    common::step_dt(&mut agent, 0.25);
    common::step_dt(&mut agent, 0.25);
    bb_set_ttl(&mut agent, "seen", json!(true), 0.5);
    agent
}

fn restore_text(tree: Arc<CompiledTree<()>>, text: &str) -> Result<Agent<()>, SnapshotError> {
    Agent::restore(tree, &Snapshot::from_json(text)?, &mut ())
}

#[test]
fn rule90_a_restored_agent_keeps_time_left_timers_and_cursor() {
    let mut a = busy_agent();
    let text = a.snapshot().to_json();
    let mut b = restore_text(busy(), &text).expect("restores");
    assert_eq!((b.now(), b.ticks()), (a.now(), a.ticks()));
    let seen = a.blackboard().key("seen").expect("declared");
    assert_eq!(
        b.blackboard().remaining(seen),
        a.blackboard().remaining(seen)
    );
    for _ in 0..8 {
        assert_eq!(common::step_dt(&mut b, 0.25), common::step_dt(&mut a, 0.25));
        assert_eq!(bb(&b, "seen"), bb(&a, "seen"));
    }
    assert_eq!(bb(&a, "seen"), Value::Null, "the ttl ran out in both");
}

#[test]
fn rule91_a_snapshot_of_another_tree_is_refused() {
    let snapshot = busy_agent().snapshot();
    // Same GUID, another structure.
    let other = compile(scripted("A", &["success"]), json!([]));
    let err = Agent::restore(other, &snapshot, &mut ()).err();
    assert!(
        matches!(err, Some(SnapshotError::OtherTree { .. })),
        "{err:?}"
    );
    // Same structure, another GUID.
    let mut text: Value = serde_json::from_str(&snapshot.to_json()).expect("json");
    text["tree"] = json!("00000000-0000-4000-8000-999999999999");
    let err = restore_text(busy(), &text.to_string()).err();
    let message = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        message.starts_with("the snapshot is of tree 00000000-0000-4000-8000-999999999999"),
        "{message}"
    );
}

#[test]
fn rule91_parameter_values_are_not_structure() {
    let snapshot = busy_agent().snapshot();
    let edited = compile(
        seq(
            "S",
            vec![
                scripted("A", &["success"]),
                json!({"type": "Wait", "name": "W", "params": {"seconds": 2.0}}),
                scripted("B", &["running", "success"]),
            ],
        ),
        json!([{"key": "seen", "type": "bool"}, {"key": "hp", "type": "int", "default": 3}]),
    );
    assert!(Agent::restore(edited, &snapshot, &mut ()).is_ok());
}

#[test]
fn rule93_a_future_version_corrupt_or_truncated_snapshot_is_refused() {
    let text = busy_agent().snapshot().to_json();
    let future = text.replacen("\"version\": 2", "\"version\": 3", 1);
    let err = restore_text(busy(), &future).err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some(
            "`arbor-agent-snapshot` version 3: this runtime reads `arbor-agent-snapshot` versions 1 to 2"
        )
    );
    let truncated = &text[..text.len() / 2];
    assert!(matches!(
        restore_text(busy(), truncated),
        Err(SnapshotError::Json(_))
    ));
    let corrupt = text.replacen("\"ticks\": 2", "\"ticks\": \"two\"", 1);
    let err = restore_text(busy(), &corrupt).err().map(|e| e.to_string());
    assert!(
        err.as_deref().is_some_and(|e| e.contains("ticks")),
        "located: {err:?}"
    );
    assert!(matches!(
        restore_text(busy(), "[1, 2"),
        Err(SnapshotError::Json(_))
    ));
}

/// Breaks one part of a good snapshot's JSON.
type Break = fn(&mut Value);

/// Every list is checked against the tree before anything is built from it, and the
/// engine's own invariants (a cursor names a child) are checked too.
#[test]
fn rule93_a_snapshot_that_does_not_fit_its_tree_is_refused() {
    let good: Value = serde_json::from_str(&busy_agent().snapshot().to_json()).expect("json");
    let cases: Vec<(&str, Break)> = vec![
        ("nodes", |s| {
            let node = s["nodes"][0].clone();
            s["nodes"] = json!(vec![node; 100]);
        }),
        ("timers", |s| s["timers"] = json!([1.0, 2.0, 3.0])),
        ("blackboard", |s| s["blackboard"] = json!([])),
        ("host", |s| s["host"] = json!([null])),
        ("nodes[0]", |s| {
            s["nodes"][0]["index"] = json!(4_000_000_000u32)
        }),
        ("nodes[0]", |s| s["nodes"][0]["guid"] = json!("x")),
        ("nodes[", |s| s["nodes"][0]["cursor"] = json!(9)),
        ("blackboard.hp", |s| {
            s["blackboard"][1]["value"] = json!("many")
        }),
        ("triggers.t", |s| s["triggers"] = json!(["t"])),
        ("events.e", |s| {
            s["events"] = json!([{"name": "e", "external": 1}]);
        }),
    ];
    for (what, break_it) in cases {
        let mut bad = good.clone();
        break_it(&mut bad);
        match restore_text(busy(), &bad.to_string()) {
            Err(SnapshotError::Invalid { what: at, problem }) => {
                assert!(at.starts_with(what), "{what}: located at {at}: {problem}")
            }
            other => panic!("{what}: {:?}", other.map(|_| "an agent")),
        }
    }
}

#[test]
fn rule93_snapshot_files_go_through_the_bounded_reader() {
    let dir = std::env::temp_dir().join(format!("arbor-snapshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let big = dir.join("big.json");
    let file = std::fs::File::create(&big).expect("create");
    // Sparse: the size is refused from the metadata, before any byte is read.
    file.set_len(arbor_runtime::snapshot::MAX_SNAPSHOT_BYTES + 1)
        .expect("set_len");
    let err = Snapshot::read(&big).err().map(|e| e.to_string());
    assert!(
        err.as_deref().is_some_and(|e| e.contains("limit")),
        "{err:?}"
    );
    assert!(matches!(
        Snapshot::read(&dir),
        Err(SnapshotError::Read { .. })
    ));
    let good = dir.join("good.json");
    let snapshot = busy_agent().snapshot();
    arbor_runtime::files::write_atomic(&good, snapshot.to_json().as_bytes()).expect("write");
    assert_eq!(Snapshot::read(&good).ok(), Some(snapshot));
    std::fs::remove_dir_all(&dir).ok();
}

/// A stateful host node: runs for three ticks per execution, counting them.
struct Three;

impl StatefulAction<Vec<String>> for Three {
    type State = u32;
    fn enter(&self, cx: &mut ActionCtx<'_, Vec<String>>, _: &mut u32) {
        cx.agent.push("enter".into());
    }
    fn tick(&self, cx: &mut ActionCtx<'_, Vec<String>>, ticks: &mut u32) -> Status {
        *ticks += 1;
        let dt = cx.dt();
        cx.agent.push(format!("tick {ticks} after {dt:.1}"));
        if *ticks == 3 {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn exit(&self, cx: &mut ActionCtx<'_, Vec<String>>, _: &mut u32, status: Status) {
        cx.agent.push(format!("exit {status}"));
    }
    fn abort(&self, cx: &mut ActionCtx<'_, Vec<String>>, ticks: &mut u32) {
        cx.agent.push(format!("abort at {ticks}"));
    }
}

fn three_tree(saved: bool) -> Arc<CompiledTree<Vec<String>>> {
    let mut registry = Registry::<Vec<String>>::new();
    let ty = NodeType::action("Three", "Runs three ticks.");
    if saved {
        registry.register_stateful_saved(ty, |_| Ok(Three));
    } else {
        registry.register_stateful(ty, |_| Ok(Three));
    }
    let text = tree_json(
        seq(
            "S",
            vec![scripted("A", &["success"]), json!({"type": "Three"})],
        ),
        json!([]),
    );
    Arc::new(
        registry
            .loader()
            .load_str(&text.to_string(), None)
            .expect("loads"),
    )
}

#[test]
fn rule92_an_opted_in_host_state_goes_on() {
    let mut log = Vec::new();
    let mut a = Agent::new(three_tree(true), 1);
    a.tick(&mut log, 0.1);
    a.tick(&mut log, 0.1);
    let mut restored_log = Vec::new();
    let mut b =
        Agent::restore(three_tree(true), &a.snapshot(), &mut restored_log).expect("restores");
    assert!(restored_log.is_empty(), "nothing restarted");
    assert_eq!(b.tick(&mut restored_log, 0.3), Status::Success);
    assert_eq!(
        restored_log,
        ["tick 3 after 0.3", "exit success"],
        "the state and the time since the last tick go on"
    );
}

#[test]
fn rule92_a_host_state_that_did_not_opt_in_restarts_its_node() {
    let mut log = Vec::new();
    let mut a = Agent::new(three_tree(false), 1);
    a.tick(&mut log, 0.1);
    a.tick(&mut log, 0.1);
    assert_eq!(a.snapshot().host, [Value::Null], "not saved");
    let mut restored_log = Vec::new();
    let mut b =
        Agent::restore(three_tree(false), &a.snapshot(), &mut restored_log).expect("restores");
    assert_eq!(
        restored_log,
        ["abort at 0", "exit failure"],
        "a fresh state"
    );
    restored_log.clear();
    assert_eq!(b.tick(&mut restored_log, 0.1), Status::Running);
    assert_eq!(
        restored_log,
        ["enter", "tick 1 after 0.1"],
        "started anew, in place"
    );
}

#[test]
fn rule90_the_binary_form_restores_as_the_json_form_and_is_smaller() {
    let mut a = busy_agent();
    let snapshot = a.snapshot();
    let bytes = snapshot.to_binary();
    let text = snapshot.to_json();
    assert!(
        bytes.len() * 3 < text.len() * 2,
        "{} bytes against {} of JSON",
        bytes.len(),
        text.len()
    );
    let read = Snapshot::from_binary(&bytes).expect("reads back");
    assert_eq!(read, snapshot);
    let mut b = Agent::restore(busy(), &read, &mut ()).expect("restores");
    for _ in 0..8 {
        assert_eq!(common::step_dt(&mut b, 0.25), common::step_dt(&mut a, 0.25));
        assert_eq!(bb(&b, "seen"), bb(&a, "seen"));
    }
}

#[test]
fn rule93_a_truncated_corrupt_or_future_binary_snapshot_is_refused() {
    let snapshot = busy_agent().snapshot();
    let bytes = snapshot.to_binary();
    for cut in [0, 1, bytes.len() / 2, bytes.len() - 1] {
        let err = Snapshot::from_binary(&bytes[..cut]).err();
        assert!(
            matches!(err, Some(SnapshotError::Binary(_))),
            "{cut}: {err:?}"
        );
    }
    let mut future = snapshot.clone();
    future.version = 3;
    let err = Snapshot::from_binary(&future.to_binary()).err();
    assert!(
        matches!(err, Some(SnapshotError::Version { version: 3, .. })),
        "{err:?}"
    );
    // A map that claims four billion entries, in five bytes: refused, nothing allocated
    // for the claim.
    let err = Snapshot::from_binary(&[0xdf, 0xff, 0xff, 0xff, 0xff]).err();
    assert!(matches!(err, Some(SnapshotError::Binary(_))), "{err:?}");
}
