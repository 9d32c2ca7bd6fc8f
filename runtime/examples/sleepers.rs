//! A population of waiting agents at 60 frames a second: each runs
//! `Repeat(Sequence(Wait 5 s, Act))`, `Act` being a host action that succeeds at once.
//! Their first ticks are spread over the first 5 s, as in a world whose agents did not
//! all start together; then 300 frames (5 s) of warm-up bring every agent into its cycle,
//! and `FRAMES` frames are timed. Prints ns per agent-frame.
//!
//! ```text
//! cargo run --release -p arbor-runtime --example sleepers -- 10000 600
//! cargo run --release -p arbor-runtime --example sleepers -- 10000 600 every-frame
//! ```
//!
//! `sleepers AGENTS FRAMES` ticks them in a [`Population`], which ticks only the agents
//! whose Wait ends (semantics rule 82); `every-frame` ticks every agent at every frame
//! (`Agent::tick`, the interpreter), the same agents and tree. For instruction counts run it
//! under callgrind with 120 and with 60 frames: the difference is 60 frames with setup and
//! warm-up cancelled (docs/performance.md, "Sleeping agents").

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use arbor_runtime::{Agent, CompiledTree, NodeType, Population, Registry, Status};

/// The program's data: how many times the agent acted.
#[derive(Default)]
struct Sleeper {
    acts: u64,
}

const TREE: &str = r#"{
  "format": "arbor-tree", "version": 1,
  "guid": "5e1e9e75-0000-4000-8000-000000000000", "name": "sleeper",
  "root": "5e1e9e75-0000-4000-8000-000000000001",
  "nodes": [
    {"guid": "5e1e9e75-0000-4000-8000-000000000001", "type": "Repeat", "params": {"count": 0},
     "children": ["5e1e9e75-0000-4000-8000-000000000002"]},
    {"guid": "5e1e9e75-0000-4000-8000-000000000002", "type": "Sequence",
     "children": ["5e1e9e75-0000-4000-8000-000000000003", "5e1e9e75-0000-4000-8000-000000000004"]},
    {"guid": "5e1e9e75-0000-4000-8000-000000000003", "type": "Wait", "params": {"seconds": 5}},
    {"guid": "5e1e9e75-0000-4000-8000-000000000004", "type": "Act"}
  ]
}"#;

const DT: f64 = 1.0 / 60.0;
const WARM_UP: u32 = 300;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (agents, frames, every_frame) = match args.as_slice() {
        [a, f] => (a.parse::<u32>(), f.parse::<u32>(), false),
        [a, f, mode] if mode == "every-frame" => (a.parse(), f.parse(), true),
        _ => return usage(),
    };
    let (Ok(agents), Ok(frames)) = (agents, frames) else {
        return usage();
    };
    let tree = match tree() {
        Ok(tree) => tree,
        Err(e) => {
            eprintln!("sleepers: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (elapsed, acts) = if every_frame {
        run_every_frame(&tree, agents, frames)
    } else {
        run_population(&tree, agents, frames)
    };
    let agent_frames = f64::from(agents) * f64::from(frames);
    println!(
        "{} agents, {frames} frames ({}): {:.2} ns per agent-frame, {acts} acts",
        agents,
        if every_frame {
            "every frame"
        } else {
            "sleeping"
        },
        elapsed * 1e9 / agent_frames.max(1.0),
    );
    ExitCode::SUCCESS
}

fn tree() -> Result<Arc<CompiledTree<Sleeper>>, arbor_runtime::LoadError> {
    let mut registry = Registry::<Sleeper>::new();
    registry.action(NodeType::action("Act", "Acts at once."), |cx| {
        cx.agent.acts += 1;
        Status::Success
    });
    Ok(Arc::new(registry.loader().load_str(TREE, None)?))
}

/// The first tick of agent `i`: spread over the 300 frames of a Wait.
fn start(i: u32) -> f64 {
    f64::from(i % WARM_UP) * DT
}

/// Seconds for the timed frames, and the acts over the whole run.
fn run_population(tree: &Arc<CompiledTree<Sleeper>>, agents: u32, frames: u32) -> (f64, u64) {
    let mut population = Population::new();
    for i in 0..agents {
        population.insert_at(
            Agent::new(tree.clone(), u64::from(i)),
            Sleeper::default(),
            start(i),
        );
    }
    for _ in 0..WARM_UP {
        population.frame(DT);
    }
    let clock = Instant::now();
    for _ in 0..frames {
        population.frame(DT);
    }
    let elapsed = clock.elapsed().as_secs_f64();
    let acts = (0..agents)
        .map(|i| population.data(arbor_runtime::MemberId(i)).acts)
        .sum();
    (elapsed, acts)
}

/// As [`run_population`], every agent ticked at every frame (from its start on).
fn run_every_frame(tree: &Arc<CompiledTree<Sleeper>>, agents: u32, frames: u32) -> (f64, u64) {
    let mut all: Vec<(Agent<Sleeper>, Sleeper)> = (0..agents)
        .map(|i| (Agent::new(tree.clone(), u64::from(i)), Sleeper::default()))
        .collect();
    for frame in 0..WARM_UP {
        for (i, (agent, data)) in all.iter_mut().enumerate() {
            // Each agent starts at its own frame, as in the population.
            if frame >= i as u32 % WARM_UP {
                agent.tick(data, DT);
            }
        }
    }
    let clock = Instant::now();
    for _ in 0..frames {
        for (agent, data) in &mut all {
            agent.tick(data, DT);
        }
    }
    let elapsed = clock.elapsed().as_secs_f64();
    (elapsed, all.iter().map(|(_, d)| d.acts).sum())
}

fn usage() -> ExitCode {
    eprintln!("usage: sleepers AGENTS FRAMES [every-frame]");
    ExitCode::FAILURE
}
