//! Test helpers: load a sample, find nodes by name, tick with a recorded trace rendered
//! with node names.
#![allow(dead_code)]

use arbor_runtime::{NodeId, Recorded, Recorder, Status};
use arbor_samples::{by_name, Simulation};

/// The sample `name` seeded with `seed`, with its own tree loaded.
pub fn loaded(name: &str, seed: u64) -> Box<dyn Simulation> {
    let mut sim = by_name(name, seed).unwrap_or_else(|| panic!("no sample `{name}`"));
    if let Err(e) = sim.load_default() {
        panic!("{name}: {e}");
    }
    sim
}

/// The node called `name` in the loaded tree (the first one, in pre-order).
pub fn node(sim: &dyn Simulation, name: &str) -> NodeId {
    let tree = sim.tree().expect("a loaded tree");
    (0..tree.len())
        .map(NodeId::from_index)
        .find(|&n| tree.info(n).name == name)
        .unwrap_or_else(|| panic!("no node named `{name}`"))
}

/// One tick; the root's status and the trace as `enter X`, `exit X success`,
/// `exit X aborted`, `abort X`, `check X#0 false` strings.
pub fn step(sim: &mut dyn Simulation, dt: f64) -> (Option<Status>, Vec<String>) {
    let mut rec = Recorder::default();
    let status = sim.tick(dt, &mut rec);
    (status, render(sim, &rec))
}

pub fn render(sim: &dyn Simulation, rec: &Recorder) -> Vec<String> {
    let Some(tree) = sim.tree() else {
        return Vec::new();
    };
    let name = |n: NodeId| tree.info(n).name.clone();
    rec.events
        .iter()
        .map(|e| match e {
            Recorded::Enter(n) => format!("enter {}", name(*n)),
            Recorded::Tick(n, s) => format!("tick {} {s}", name(*n)),
            Recorded::Exit(n, Some(s)) => format!("exit {} {s}", name(*n)),
            Recorded::Exit(n, None) => format!("exit {} aborted", name(*n)),
            Recorded::Abort(n) => format!("abort {}", name(*n)),
            Recorded::Check {
                node,
                decorator,
                passed,
            } => format!("check {}#{decorator} {passed}", name(*node)),
            Recorded::Log(n, m) => format!("log {} {m}", name(*n)),
        })
        .collect()
}

/// Log lines written since line number `seen`, as text.
pub fn log_since(sim: &dyn Simulation, seen: u64) -> Vec<String> {
    sim.log().since(seen).map(|l| l.text.clone()).collect()
}

/// Whether `events` contains `wanted`.
pub fn has(events: &[String], wanted: &str) -> bool {
    events.iter().any(|e| e == wanted)
}
