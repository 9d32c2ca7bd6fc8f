//! Embedding the runtime: register host actions, load a tree file, tick 10,000 agents.
//! Run with `cargo run --release -p arbor-runtime --example embed`; docs/embedding.md walks
//! through it.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

#[path = "shared/miner.rs"]
mod miner;

use arbor_runtime::Agent;
use miner::{registry, Miner};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/miner.json");
    let registry = registry();
    // Every problem in the file, located, or a tree shared by all agents.
    let tree = Arc::new(registry.loader().load_file(&path)?);
    println!(
        "loaded `{}`: {} nodes, {} bytes of state per agent",
        tree.name(),
        tree.len(),
        tree.state_size()
    );

    const AGENTS: usize = 10_000;
    let mut agents: Vec<(Agent<Miner>, Miner)> = (0..AGENTS)
        .map(|i| {
            (
                Agent::new(tree.clone(), i as u64),
                Miner {
                    position: 0.0,
                    food: 1.0,
                    meals: 0,
                },
            )
        })
        .collect();
    let hungry = agents[0]
        .0
        .blackboard()
        .key("hungry")
        .ok_or("the tree declares `hungry`")?;
    let gold = agents[0]
        .0
        .blackboard()
        .key("gold")
        .ok_or("the tree declares `gold`")?;

    let start = Instant::now();
    const TICKS: usize = 600; // one minute of game time at 10 ticks per second
    for tick in 0..TICKS {
        for (i, (agent, miner)) in agents.iter_mut().enumerate() {
            // The program's own simulation: food runs down; the tree reacts through the
            // blackboard (the Condition decorator's LowerPriority abort interrupts digging).
            miner.food -= 0.004;
            if miner.food < 0.3 && (tick + i) % 3 == 0 {
                let _ = agent.blackboard_mut().set(hungry, true);
            }
            agent.tick(miner, 0.1);
        }
    }
    let elapsed = start.elapsed();
    let per_agent_tick = elapsed.as_nanos() as f64 / (AGENTS * TICKS) as f64;
    let total_gold: f64 = agents
        .iter()
        .filter_map(|(a, _)| a.blackboard().get_f64(gold))
        .sum();
    let meals: u32 = agents.iter().map(|(_, m)| m.meals).sum();
    println!(
        "{AGENTS} agents x {TICKS} ticks in {:.1} ms ({per_agent_tick:.0} ns per agent-tick)",
        elapsed.as_secs_f64() * 1e3
    );
    println!("{total_gold:.0} gold dug; digging interrupted for {meals} meals");
    Ok(())
}
