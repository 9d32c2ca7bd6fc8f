//! The `Simulation` interface across all samples: determinism (same seed, same trace),
//! reset, hot reload keeping the world and blackboard, failed loads changing nothing, and
//! node lookup through `TreeView`.

mod common;

use arbor_runtime::{parse_str, NodeId, Status};
use arbor_samples::villager::Villager;
use arbor_samples::{all, by_name, SampleMut, Simulation, SAMPLES};
use common::{loaded, log_since, render};

/// Everything observable about a run: per tick the status and the trace, then the log
/// and the summary.
fn transcript(sim: &mut dyn Simulation, ticks: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let dt = sim.default_dt();
    for _ in 0..ticks {
        let mut rec = arbor_runtime::Recorder::default();
        let status = sim.tick(dt, &mut rec);
        lines.push(format!("{status:?}"));
        lines.extend(render(sim, &rec));
    }
    lines.extend(log_since(sim, 0));
    lines.push(sim.summary());
    lines
}

fn ticks_for(name: &str) -> usize {
    match name {
        "counting" => 5,
        "card_duel" => 60,
        _ => 2000,
    }
}

#[test]
fn samples_are_listed_once_and_found_by_name() {
    let names: Vec<&str> = all().iter().map(|s| s.name()).collect();
    assert_eq!(names, ["villager", "card_duel", "counting", "guard"]);
    for name in names {
        let sim = by_name(name, 3).expect("listed samples are found");
        assert_eq!(sim.name(), name);
        assert_eq!(sim.seed(), 3);
        assert!(sim.tree_path().exists(), "{}", sim.tree_path().display());
        assert!(sim.tree().is_none() && sim.blackboard().is_none());
    }
    assert!(by_name("dragon", 1).is_none());
}

#[test]
fn each_listed_sample_names_its_own_type() {
    for entry in SAMPLES {
        let mut sim = entry.create(1);
        assert_eq!((sim.name(), sim.title()), (entry.name, entry.title));
        let name = match sim.sample_mut() {
            Some(SampleMut::Villager(s)) => s.name(),
            Some(SampleMut::CardDuel(s)) => s.name(),
            Some(SampleMut::Counting(s)) => s.name(),
            Some(SampleMut::Guard(s)) => s.name(),
            None => panic!("{}: not a sample", entry.name),
        };
        assert_eq!(name, entry.name);
    }
}

fn villager(sim: &mut dyn Simulation) -> &mut Villager {
    match sim.sample_mut() {
        Some(SampleMut::Villager(sample)) => sample,
        _ => panic!("not the villager sample"),
    }
}

#[test]
fn ticking_without_a_tree_does_nothing() {
    for mut sim in all() {
        assert_eq!(sim.tick(0.5, &mut ()), None, "{}", sim.name());
        assert_eq!(sim.now(), 0.0);
    }
}

#[test]
fn the_same_seed_gives_the_same_run() {
    for name in ["villager", "card_duel", "counting", "guard"] {
        let ticks = ticks_for(name);
        let a = transcript(loaded(name, 11).as_mut(), ticks);
        let b = transcript(loaded(name, 11).as_mut(), ticks);
        assert!(a == b, "{name}: two runs with seed 11 differ");
        if name != "counting" {
            let c = transcript(loaded(name, 12).as_mut(), ticks);
            assert!(a != c, "{name}: seeds 11 and 12 gave the same run");
        }
    }
}

#[test]
fn reset_replays_the_run_and_set_seed_changes_it() {
    for name in ["villager", "card_duel", "counting", "guard"] {
        let ticks = ticks_for(name);
        let mut sim = loaded(name, 5);
        let first = transcript(sim.as_mut(), ticks);
        sim.reset();
        assert_eq!(sim.now(), 0.0);
        let again = transcript(sim.as_mut(), ticks);
        assert!(first == again, "{name}: reset did not replay the run");
        sim.set_seed(5);
        let fresh = transcript(sim.as_mut(), ticks);
        assert!(first == fresh, "{name}: set_seed(5) did not replay the run");
    }
}

#[test]
fn hot_reload_keeps_the_world_clock_and_blackboard() {
    let mut sim = loaded("villager", 4);
    for _ in 0..300 {
        sim.tick(0.25, &mut ());
    }
    let before = villager(&mut *sim).world.clone();
    let now = sim.now();
    let board = sim.blackboard().expect("an agent").to_json();

    let outcome = sim.load_default().expect("the same tree loads");
    assert!(outcome.reloaded);
    assert!(
        outcome.dropped_keys.is_empty(),
        "{:?}",
        outcome.dropped_keys
    );
    let after = villager(&mut *sim).world.clone();
    assert_eq!(after.pos, before.pos);
    assert_eq!(after.needs, before.needs);
    assert_eq!(sim.now(), now);
    assert_eq!(sim.blackboard().expect("an agent").to_json(), board);
    assert_eq!(sim.tick(0.25, &mut ()), Some(Status::Running));

    // Retyping a key drops its value, and the outcome says so. (A key no node reads: a
    // bound port would refuse the new type.)
    let path = sim.tree_path();
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut file = parse_str(&text, Some(&path)).expect("parses");
    let mut note = file.blackboard[0].clone();
    note.key = "note".to_owned();
    note.ty = arbor_runtime::ValueType::String;
    note.default = Some(serde_json::json!("x"));
    file.blackboard.push(note);
    sim.load(&file, Some(&path))
        .expect("loads with the extra key");
    let note = file.blackboard.last_mut().expect("just pushed");
    note.ty = arbor_runtime::ValueType::Int;
    note.default = None;
    let outcome = sim.load(&file, Some(&path)).expect("still loads");
    assert_eq!(outcome.dropped_keys, ["note"]);
}

#[test]
fn a_tree_that_does_not_load_leaves_the_old_one_running() {
    let mut sim = loaded("guard", 1);
    for _ in 0..10 {
        sim.tick(0.25, &mut ());
    }
    let path = sim.tree_path();
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut file = parse_str(&text, Some(&path)).expect("parses");
    file.nodes[1].kind = "Teleport".to_owned();
    let err = sim.load(&file, Some(&path)).expect_err("unknown node type");
    assert!(err.to_string().contains("Teleport"), "{err}");
    assert_eq!(sim.tree().expect("still loaded").len(), file.nodes.len());
    assert_eq!(sim.now(), 2.5);
    assert_eq!(sim.tick(0.25, &mut ()), Some(Status::Running));

    let missing = sim.load_file(std::path::Path::new("no/such/tree.json"));
    assert!(missing
        .expect_err("no file")
        .to_string()
        .contains("cannot read"));
}

#[test]
fn unsaved_documents_load_without_a_path() {
    for mut sim in all() {
        let path = sim.tree_path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let file = parse_str(&text, Some(&path)).expect("parses");
        let outcome = sim.load(&file, None);
        assert!(outcome.is_ok(), "{}: {:?}", sim.name(), outcome.err());
    }
}

#[test]
fn tree_view_maps_trace_ids_to_the_files_guids_and_names() {
    for sim in all().into_iter().map(|s| loaded(s.name(), 1)) {
        let path = sim.tree_path();
        let file =
            parse_str(&std::fs::read_to_string(&path).expect("readable"), None).expect("parses");
        let tree = sim.tree().expect("loaded");
        if file.nodes.iter().any(|n| n.kind == "Subtree") {
            // Subtree files are spliced in under their Subtree nodes: every node of this
            // file is still found by its GUID, with its name, and the tree is larger.
            assert!(tree.len() > file.nodes.len(), "{}", sim.name());
            for def in &file.nodes {
                let id = tree
                    .find(&def.guid)
                    .expect("every file node is in the tree");
                assert_eq!(tree.info(id).name, def.name);
            }
            continue;
        }
        // No subtrees: the compiled pre-order is the file's depth-first order.
        assert_eq!(tree.len(), file.nodes.len(), "{}", sim.name());
        for (i, def) in file.nodes.iter().enumerate() {
            let id = NodeId::from_index(i);
            assert_eq!(tree.info(id).guid, def.guid);
            assert_eq!(tree.info(id).name, def.name);
            assert_eq!(tree.find(&def.guid), Some(id));
            let children: Vec<String> = tree
                .children(id)
                .into_iter()
                .map(|c| tree.info(c).guid.clone())
                .collect();
            assert_eq!(children, def.children);
            assert_eq!(tree.decorators(id).len(), def.decorators.len());
        }
        assert_eq!(tree.parent(NodeId::from_index(0)), None);
        assert_eq!(tree.guid(), file.guid);
    }
}

/// A FIFO at `path` (made with the system's `mkfifo`), nobody writing to it.
#[cfg(unix)]
fn fifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// `--tree` and every other tree a sample loads go through the bounded reader: `/dev/zero`
/// and a FIFO are refused with an error instead of exhausting memory or blocking. Each load
/// runs on its own thread; the generous timeout only turns a hang into a failure.
#[cfg(unix)]
#[test]
fn a_device_or_fifo_as_the_tree_is_refused() {
    let dir = std::env::temp_dir().join(format!("arbor-samples-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pipe = dir.join("pipe.json");
    fifo(&pipe);
    for name in ["villager", "counting"] {
        for path in [std::path::PathBuf::from("/dev/zero"), pipe.clone()] {
            let (tx, rx) = std::sync::mpsc::channel();
            let p = path.clone();
            std::thread::spawn(move || {
                let mut sim = by_name(name, 1).expect("listed");
                let _ = tx.send(sim.load_file(&p).map(|_| ()).map_err(|e| e.to_string()));
            });
            let result = rx
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("{name}: loading {} never returned", path.display()));
            let err = result.expect_err("refused");
            assert!(err.contains("not a regular file"), "{name}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rewinding_to_a_checkpoint_replays_the_same_run() {
    for name in ["villager", "card_duel", "counting", "guard"] {
        let ticks = ticks_for(name).min(300);
        let mut sim = loaded(name, 11);
        transcript(sim.as_mut(), ticks / 2);
        let checkpoint = sim.checkpoint().expect("a loaded sample can checkpoint");
        let blackboard = format!("{:?}", checkpoint.agent.blackboard);
        let first = transcript(sim.as_mut(), ticks);
        sim.rewind(&checkpoint).expect("its own checkpoint");
        assert_eq!(
            format!("{:?}", sim.checkpoint().unwrap().agent.blackboard),
            blackboard,
            "{name}: the blackboard is back"
        );
        let again = transcript(sim.as_mut(), ticks);
        assert!(first == again, "{name}: the run after the rewind differs");
    }
}

#[test]
fn a_checkpoint_of_another_world_is_refused_and_changes_nothing() {
    let guard = loaded("guard", 3).checkpoint().unwrap();
    let mut villager = loaded("villager", 3);
    transcript(villager.as_mut(), 10);
    let before = villager.summary();
    let err = villager.rewind(&guard).unwrap_err();
    assert!(
        matches!(err, arbor_samples::RewindError::OtherWorld),
        "{err}"
    );
    assert_eq!(villager.summary(), before);
    assert!(
        by_name("villager", 1).unwrap().checkpoint().is_none(),
        "no agent, nothing to keep"
    );
}
