//! Snapshots against an agent never interrupted (semantics rule 90): on every tree of
//! `generated::TREES` (the project files and the random trees), an agent is ticked with
//! random stimuli; at a random tick its snapshot goes to JSON text and back and is restored
//! into a fresh agent; then both are ticked with the same stimuli, and statuses, traces,
//! host calls, blackboards, triggers and running nodes must be equal after every tick.
//! Half the runs restore the interpreter's snapshot into the generated engine's tree (one
//! state for both engines); half go through `Agent::restore_edited`, which on the tree
//! itself must keep every node's state (rules 94 to 97) and so go on as `restore` does.

use std::sync::Arc;

use arbor_codegen_check::generated::TREES;
use arbor_codegen_check::{registry, types, Host};
use arbor_runtime::{Agent, CompiledTree, Snapshot};

use super::{engines, step, Rng, TICKS};

/// Stimulus runs per tree.
const RUNS: u64 = 4;

/// One run: ticks before the snapshot are drawn from the seed.
fn run(
    path: &str,
    original: &Arc<CompiledTree<Host>>,
    restored_tree: &Arc<CompiledTree<Host>>,
    seed: u64,
) -> Result<(), String> {
    let mut r = Rng(0x5eed_0000 ^ seed.wrapping_mul(0x9e37_79b9) | 1);
    let mut a = Agent::new(original.clone(), seed);
    let mut ha = Host::new(seed + 7);
    // A twin ticked alongside until the snapshot, so that both branches of `step` draw the
    // same stimuli before it as after it.
    let mut twin = Agent::new(original.clone(), seed);
    let mut ht = ha.clone();
    let at = r.below(u64::from(TICKS)) as u32;
    for tick in 0..at {
        step(
            &mut r,
            tick,
            (&mut a, &mut ha, None),
            (&mut twin, &mut ht),
            path,
        )?;
    }
    let text = a.snapshot().to_json();
    let snapshot = Snapshot::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    if snapshot != a.snapshot() {
        return Err(format!(
            "{path}, seed {seed}: the JSON text changed the snapshot"
        ));
    }
    // The program's data is the program's to save: the restored agent gets a copy.
    let mut hb = ha.clone();
    let mut b = if seed >= RUNS / 2 {
        let (b, report) = Agent::restore_edited(restored_tree.clone(), &snapshot, &mut hb)
            .map_err(|e| format!("{path}, seed {seed}: restore_edited refused: {e}"))?;
        if !report.dropped.is_empty() || !report.dropped_keys.is_empty() {
            return Err(format!(
                "{path}, seed {seed}: restore_edited into the same tree dropped {report:?}"
            ));
        }
        b
    } else {
        Agent::restore(restored_tree.clone(), &snapshot, &mut hb)
            .map_err(|e| format!("{path}, seed {seed}: restore refused: {e}"))?
    };
    if hb != ha {
        return Err(format!("{path}: restoring called host actions"));
    }
    for tick in at..TICKS {
        let where_ = format!("{path}, seed {seed}, snapshot at {at}, tick {tick}");
        step(
            &mut r,
            tick,
            (&mut a, &mut ha, None),
            (&mut b, &mut hb),
            &where_,
        )?;
    }
    Ok(())
}

#[test]
fn rule90_a_restored_agent_goes_on_as_the_one_never_interrupted() {
    let registry = registry(&types());
    let (mut runs, mut random) = (0, 0);
    for tree in TREES {
        let (generated, interpreted) = engines((tree.load, tree.direct), tree.path, &registry);
        for seed in 0..RUNS {
            let into = if seed % 2 == 0 {
                &interpreted
            } else {
                generated.tree()
            };
            if let Err(e) = run(tree.path, &interpreted, into, seed) {
                panic!("{e}");
            }
            runs += 1;
        }
        random += usize::from(tree.random);
    }
    eprintln!(
        "{runs} snapshot runs on {} trees ({random} random)",
        TREES.len()
    );
    assert!(random >= 300, "only {random} random trees");
}
