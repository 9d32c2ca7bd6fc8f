// The miner's world: its data and host actions, shared by `examples/embed.rs` and the Rust
// snippets of docs/embedding.md, which `include!` it so that they compile as written. Not an
// example of its own (it has no `main`). Plain comments rather than `//!`: inner doc
// comments are not allowed in an `include!`d file.

use arbor_runtime::{
    Action, ActionCtx, Args, Key, NodeType, ParamKind, ParamSpec, Registry, Status,
};

/// The program's own data for one agent: the behavior tree acts on it through host actions.
pub struct Miner {
    pub position: f64,
    pub food: f64,
    pub meals: u32,
}

/// Where places are on the miner's one-dimensional world.
pub fn place(name: &str) -> Option<f64> {
    match name {
        "home" => Some(0.0),
        "mine" => Some(10.0),
        _ => None,
    }
}

/// Walks towards a place: running until it arrives. Built once per tree node from the node's
/// parameters; shared by every agent, so per-agent state lives in `Miner`.
pub struct WalkTo {
    pub target: f64,
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
pub struct Dig {
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
pub struct Eat {
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

pub fn registry() -> Registry<Miner> {
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
