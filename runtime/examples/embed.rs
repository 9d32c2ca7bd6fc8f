//! Embedding the runtime: register host actions, load a tree file, tick 10,000 agents.
//! Run with `cargo run --release -p arbor-runtime --example embed`; docs/embedding.md walks
//! through it.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use arbor_runtime::{
    Action, ActionCtx, Agent, Args, Key, NodeType, ParamKind, ParamSpec, Registry, Status,
};

/// The program's own data for one agent: the behavior tree acts on it through host actions.
struct Miner {
    position: f64,
    food: f64,
    meals: u32,
}

/// Where places are on the miner's one-dimensional world.
fn place(name: &str) -> Option<f64> {
    match name {
        "home" => Some(0.0),
        "mine" => Some(10.0),
        _ => None,
    }
}

/// Walks towards a place: running until it arrives. Built once per tree node from the node's
/// parameters; shared by every agent, so per-agent state lives in `Miner`.
struct WalkTo {
    target: f64,
}

impl Action<Miner> for WalkTo {
    fn tick(&self, cx: &mut ActionCtx<'_, Miner>) -> Status {
        let step = 4.0 * 0.1; // metres per tick at 4 m/s and dt = 0.1 s
        let miner = &mut *cx.agent;
        let gap = self.target - miner.position;
        if gap.abs() <= step {
            miner.position = self.target;
            Status::Success
        } else {
            miner.position += step * gap.signum();
            Status::Running
        }
    }
}

/// Digs forever (running), adding gold to the blackboard; it only stops when aborted.
struct Dig {
    rate: f64,
    gold: Key,
}

impl Action<Miner> for Dig {
    fn tick(&self, cx: &mut ActionCtx<'_, Miner>) -> Status {
        let gold = cx.blackboard.get_f64(self.gold).unwrap_or(0.0);
        // Typed at load: `gold` is a float key, so this write cannot fail.
        let _ = cx.blackboard.set(self.gold, gold + self.rate * 0.1);
        Status::Running
    }

    fn abort(&self, _cx: &mut ActionCtx<'_, Miner>) {
        // A real game would stop the digging animation here.
    }
}

/// Eats for a while: records when it started on enter, succeeds after `seconds`.
struct Eat {
    seconds: f64,
    hungry: Key,
}

impl Action<Miner> for Eat {
    fn enter(&self, cx: &mut ActionCtx<'_, Miner>) {
        cx.agent.food = cx.agent.food.max(0.0);
    }

    fn tick(&self, cx: &mut ActionCtx<'_, Miner>) -> Status {
        cx.agent.food += 1.0 / self.seconds * 0.1;
        if cx.agent.food >= 1.0 {
            cx.agent.meals += 1;
            let _ = cx.blackboard.set(self.hungry, false);
            Status::Success
        } else {
            Status::Running
        }
    }
}

fn registry() -> Registry<Miner> {
    let mut registry = Registry::new();
    registry
        .register(
            NodeType::action(
                "WalkTo",
                "Walks to a named place; running until it arrives.",
            )
            .param(ParamSpec::new("place", ParamKind::String, "home or mine")),
            |args: &Args| {
                let name = args.str("place")?;
                let target = place(name).ok_or_else(|| format!("no place called `{name}`"))?;
                Ok(WalkTo { target })
            },
        )
        .register(
            NodeType::action("Dig", "Digs gold until interrupted.")
                .param(
                    ParamSpec::new("gold_per_second", ParamKind::Float, "Digging speed.")
                        .default(1.0.into()),
                )
                // Keys are parameters too: the editor offers a key picker and the loader
                // checks the key is declared, then hands the action a resolved `Key`.
                .param(
                    ParamSpec::new("into", ParamKind::Key, "Where to count the gold.")
                        .default("gold".into()),
                ),
            |args: &Args| {
                Ok(Dig {
                    rate: args.f64("gold_per_second")?,
                    gold: args.key("into")?,
                })
            },
        )
        .register(
            NodeType::action("Eat", "Eats until full.")
                .param(ParamSpec::new(
                    "seconds",
                    ParamKind::Float,
                    "Time to get full.",
                ))
                .param(
                    ParamSpec::new("hungry", ParamKind::Key, "Cleared when full.")
                        .default("hungry".into()),
                ),
            |args: &Args| {
                Ok(Eat {
                    seconds: args.f64("seconds")?,
                    hungry: args.key("hungry")?,
                })
            },
        );
    registry
}

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
