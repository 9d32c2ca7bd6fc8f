//! Generated code against the interpreter: every tree of `arbor_codegen_check::generated`
//! (project files and random trees) runs on both engines with the same random stimuli —
//! clock steps, host events, triggers, blackboard writes, halts mid-run, traced and
//! untraced ticks — and everything observable must be equal after every tick: the root's
//! status, the trace, the host actions' calls (in order), the blackboard, the triggers and
//! which nodes are running.

use std::sync::Arc;

use arbor_codegen_check::generated::{COVERAGE, MUTANTS, SKIPPED, TREES, WALK_MUTANTS};
use arbor_codegen_check::{registry, types, DirectTick, Host, Load, LoadDirect};
use arbor_runtime::{Agent, CompiledTree, NodeId, Recorder, Registry, Status, ValueType};
use serde_json::{json, Value};

/// Stimulus runs per tree, ticks per run.
const RUNS: u64 = 12;
const TICKS: u32 = 60;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A value of type `ty` (or, rarely, of another type: both engines must refuse it alike).
fn value(ty: &ValueType, r: &mut Rng) -> Value {
    if r.chance(5) {
        return json!("not this type");
    }
    match ty {
        ValueType::Bool => json!(r.chance(50)),
        ValueType::Int => json!(r.below(6)),
        ValueType::Float => json!(r.below(4) as f64 * 0.5),
        ValueType::String => json!(["a", "b", "patrol"][r.below(3) as usize]),
        _ => [json!("a"), json!(1), json!("z"), json!(true)][r.below(4) as usize].clone(),
    }
}

/// The state both agents must agree on after a step.
fn observed(agent: &Agent<Host>, host: &Host) -> (Value, Vec<String>, Vec<bool>, Host, u64) {
    let tree = agent.tree();
    let running = (0..tree.len())
        .map(|i| agent.is_running(NodeId::from_index(i)))
        .collect();
    (
        Value::Object(agent.blackboard().to_json()),
        agent.triggers_set().map(str::to_owned).collect(),
        running,
        host.clone(),
        agent.ticks(),
    )
}

/// `Err` with where and what if `a != b`.
macro_rules! same {
    ($a:expr, $b:expr, $at:expr) => {{
        let (a, b) = ($a, $b);
        if a != b {
            return Err(format!("{}\n  first:  {:?}\n  second: {:?}", $at, a, b));
        }
    }};
}

/// One stimulus run; the first difference, with the tree, seed and tick. The first agent
/// is the generated one.
fn run(
    path: &str,
    generated: &dyn DirectTick,
    interpreted: &Arc<CompiledTree<Host>>,
    seed: u64,
) -> Result<(), String> {
    let mut r = Rng(0x9e37_79b9 ^ seed.wrapping_mul(0x2545_f491) | 1);
    let mut g = Agent::new(generated.tree().clone(), seed);
    let mut i = Agent::new(interpreted.clone(), seed);
    let (mut hg, mut hi) = (Host::new(seed + 1), Host::new(seed + 1));
    for tick in 0..TICKS {
        let at = format!("{path}, seed {seed}, tick {tick}");
        step(
            &mut r,
            tick,
            (&mut g, &mut hg, Some(generated)),
            (&mut i, &mut hi),
            &at,
        )?;
    }
    Ok(())
}

/// One tick of random stimuli, applied alike to two agents of the same tree, and the tick
/// itself; the first difference, located by `at`. Ticks cycle through three ways of
/// ticking: `advance` then inputs then a traced `run`; the same with an untraced `run`;
/// inputs then `tick` (for the first agent `Direct::tick` when `direct` is given, the call
/// of generated code that can be inlined).
fn step(
    r: &mut Rng,
    tick: u32,
    (g, hg, direct): (&mut Agent<Host>, &mut Host, Option<&dyn DirectTick>),
    (i, hi): (&mut Agent<Host>, &mut Host),
    at: &str,
) -> Result<(), String> {
    let at = |what: &str| format!("{at}: {what} differ");
    let tree = i.tree().clone();
    let dt = [0.0, 0.05, 0.1, 0.3][r.below(4) as usize];
    let mode = tick % 3;
    if mode != 2 {
        g.advance(dt);
        i.advance(dt);
    }
    for e in tree.events() {
        if r.chance(15) {
            same!(g.raise_event(e), i.raise_event(e), at("raising events"));
        }
    }
    for t in tree.triggers() {
        if r.chance(15) {
            same!(g.set_trigger(t), i.set_trigger(t), at("setting triggers"));
        }
    }
    for k in tree.keys() {
        if r.chance(10) {
            let v = value(&k.ty, r);
            let ttl = r.chance(20).then_some(0.2);
            let a = g.blackboard_mut().set_json(&k.name, &v, ttl).is_ok();
            let b = i.blackboard_mut().set_json(&k.name, &v, ttl).is_ok();
            same!(a, b, at("blackboard writes"));
        }
    }
    if r.chance(5) {
        let (mut rg, mut ri) = (Recorder::default(), Recorder::default());
        g.halt(hg, &mut rg);
        i.halt(hi, &mut ri);
        same!(rg.events, ri.events, at("halt traces"));
    }
    let (sg, si) = match mode {
        0 => {
            let (mut rg, mut ri) = (Recorder::default(), Recorder::default());
            let s = (g.run_traced(hg, &mut rg), i.run_traced(hi, &mut ri));
            same!(&rg.events, &ri.events, at("traces"));
            s
        }
        1 => (g.run(hg), i.run(hi)),
        _ => match direct {
            Some(direct) => (direct.tick(g, hg, dt), i.tick(hi, dt)),
            None => (g.tick(hg, dt), i.tick(hi, dt)),
        },
    };
    same!(sg, si, at("statuses"));
    same!(observed(g, hg), observed(i, hi), at("states"));
    Ok(())
}

/// Both engines of `path`: the generated module's tree with its code at hand
/// (`load_direct`; `load` gives the same tree) and the file loaded as usual.
fn engines(
    (load, direct): (Load, LoadDirect),
    path: &str,
    registry: &Registry<Host>,
) -> (Box<dyn DirectTick>, Arc<CompiledTree<Host>>) {
    let loaded = load(registry).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(loaded.is_generated());
    let generated = direct(registry).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(generated.tree().is_generated());
    let interpreted = Arc::new(
        registry
            .loader()
            .load_file(path)
            .unwrap_or_else(|e| panic!("{path}: {e}")),
    );
    assert!(!interpreted.is_generated());
    (generated, interpreted)
}

#[test]
fn generated_code_ticks_as_the_interpreter() {
    let types = types();
    let registry = registry(&types);
    let (mut cases, mut random, mut statuses) = (0, 0, [0u32; 3]);
    for tree in TREES {
        let (generated, interpreted) = engines((tree.load, tree.direct), tree.path, &registry);
        for seed in 0..RUNS {
            if let Err(e) = run(tree.path, &*generated, &interpreted, seed) {
                panic!("{e}");
            }
            cases += 1;
        }
        random += usize::from(tree.random);
        // What the trees do, so a generator that makes only trivial trees shows.
        let mut a = Agent::new(interpreted, 1);
        let mut h = Host::new(3);
        match a.tick(&mut h, 0.1) {
            Status::Success => statuses[0] += 1,
            Status::Failure => statuses[1] += 1,
            Status::Running => statuses[2] += 1,
        }
    }
    eprintln!(
        "{cases} cases: {} trees ({random} random), first ticks S/F/R {statuses:?}",
        TREES.len()
    );
    assert!(random >= 100, "only {random} random trees generated");
    assert!(TREES.len() - random >= 8, "project trees missing");
    assert!(
        statuses.iter().all(|&n| n > 10),
        "trees too uniform: {statuses:?}"
    );
}

/// The comparison can fail: generated code with a wrong loop (resuming at its second child
/// skips it; see build.rs's mutants) is caught. Only trees whose stimuli make a loop
/// resume at its second child can show it: 4 of the 12 did with `RUNS` stimulus runs each
/// when this was written; each mutant gets four times as many.
#[test]
fn a_wrong_generated_loop_is_caught() {
    let registry = registry(&types());
    assert!(MUTANTS.len() >= 10, "{} mutants", MUTANTS.len());
    let mut caught = Vec::new();
    for tree in MUTANTS {
        let (generated, interpreted) = engines((tree.load, tree.direct), tree.path, &registry);
        if let Some(e) =
            (0..RUNS).find_map(|seed| run(tree.path, &*generated, &interpreted, seed).err())
        {
            caught.push(e);
        }
    }
    eprintln!(
        "{} of {} mutants caught; first: {:?}",
        caught.len(),
        MUTANTS.len(),
        caught.first()
    );
    assert!(
        caught.len() * 4 >= MUTANTS.len(),
        "only {} of {} mutants caught",
        caught.len(),
        MUTANTS.len()
    );
}

/// Generated walks with attached conditions and aborts are among what the comparison
/// covers: many modules emit each of their calls (300 random trees: rules 21 to 27 on the
/// emitted side), and a walk whose pre-empting child leaves the running child running
/// (build.rs's walk mutants) is caught. A mutant shows only when the stimuli flip an
/// earlier child's condition while a later child runs, so each gets four times `RUNS`.
#[test]
fn generated_walks_with_aborts_are_covered_and_a_wrong_one_is_caught() {
    let c = &COVERAGE;
    eprintln!(
        "modules with decorated walks {}, pre-empting children {}, re-checked conditions {}",
        c.decorated, c.preempting, c.rechecking
    );
    let floor = TREES.len() / 20;
    assert!(
        c.decorated >= floor && c.preempting >= floor && c.rechecking >= floor / 2,
        "too few walks with aborts among {} modules",
        TREES.len()
    );
    let registry = registry(&types());
    assert!(WALK_MUTANTS.len() >= 10, "{} mutants", WALK_MUTANTS.len());
    let caught = WALK_MUTANTS
        .iter()
        .filter(|tree| {
            let (generated, interpreted) = engines((tree.load, tree.direct), tree.path, &registry);
            (0..4 * RUNS).any(|seed| run(tree.path, &*generated, &interpreted, seed).is_err())
        })
        .count();
    eprintln!("{caught} of {} walk mutants caught", WALK_MUTANTS.len());
    assert!(
        caught * 4 >= WALK_MUTANTS.len(),
        "only {caught} of {} walk mutants caught",
        WALK_MUTANTS.len()
    );
}

#[path = "differential/snapshots.rs"]
mod snapshots;

#[path = "differential/edited.rs"]
mod edited;

/// The build script skips a file only if it does not load; random trees are valid by
/// construction, so none may be skipped (a generator bug would otherwise go unnoticed).
#[test]
fn every_random_tree_loads() {
    for (path, _, why) in SKIPPED.iter().filter(|s| !s.1) {
        eprintln!("skipped project file {path}: {why}");
    }
    let random: Vec<_> = SKIPPED.iter().filter(|s| s.1).collect();
    assert!(
        random.is_empty(),
        "random trees that did not load: {random:#?}"
    );
}

#[path = "differential/sleeping.rs"]
mod sleeping;
