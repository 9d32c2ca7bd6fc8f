//! Hot reload of 10,000 soldiers (docs/performance.md, "Hot reload"): each soldier runs the
//! soldier tree of `benches/soldier_tree` with a rest after each patrol walk, ticked a
//! different number of times so that they are spread over chasing, fleeing, walking and
//! resting. Then the tree is edited and every agent reloaded, two ways:
//!
//! - **restart all**: every agent halted, then reloaded (what a reload did when it kept
//!   no node state: every running node aborted, every agent restarting from the root);
//! - **matching**: `Agent::reload`, which keeps the state of every node whose place and
//!   shape are unchanged (semantics rules 94 to 97).
//!
//! The edits: the rest's duration changed (a value: no node changes shape), and the rest
//! removed (the patrol Sequence loses a child: its walkers restart, chasers go on).
//! For each way and each edit it prints the wall time of reloading all agents and how many
//! running nodes were restarted. Wall time is measured here, never asserted in a test.
//!
//! ```text
//! cargo run --release -p arbor-runtime --example reload_soldiers
//! ```

#[path = "../benches/soldier_tree/mod.rs"]
mod soldier_tree;

use std::sync::Arc;
use std::time::Instant;

use arbor_runtime::{Agent, CompiledTree, NodeId};

use soldier_tree::{registry, resting, Positions, Soldier};

const AGENTS: usize = 10_000;

/// The tree whose patrol rests `rest` seconds, or (`None`) does not rest at all.
fn load(rest: Option<f64>) -> Arc<CompiledTree<Soldier>> {
    let tree = match rest {
        Some(seconds) => resting(Positions::Vec2, seconds),
        None => soldier_tree::tree(Positions::Vec2),
    };
    match tree.build(&registry(Positions::Vec2)) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("the soldier tree loads: {e}"),
    }
}

fn running(agent: &Agent<Soldier>) -> usize {
    (0..agent.tree().len())
        .filter(|&i| agent.is_running(NodeId::from_index(i)))
        .count()
}

fn moving(agent: &Agent<Soldier>) -> bool {
    let tree = agent.tree();
    (0..tree.len())
        .map(NodeId::from_index)
        .any(|n| agent.is_running(n) && matches!(tree.info(n).kind.as_str(), "MoveTo" | "FleeFrom"))
}

fn main() {
    let before = load(Some(2.0));
    let mut agents = Vec::with_capacity(AGENTS);
    for i in 0..AGENTS {
        let mut agent = Agent::new(before.clone(), i as u64);
        let mut soldier = Soldier::new();
        for _ in 0..(i * 7919) % 400 {
            agent.tick(&mut soldier, 0.1);
        }
        agents.push((agent, soldier));
    }
    let running_nodes: usize = agents.iter().map(|(a, _)| running(a)).sum();
    let moves = agents.iter().filter(|(a, _)| moving(a)).count();
    println!("{AGENTS} agents, {running_nodes} running nodes, {moves} agents mid-walk");

    for (edit, after) in [
        ("the rest: 2 s -> 3 s (a value)", load(Some(3.0))),
        ("the rest removed (the patrol's children)", load(None)),
    ] {
        let mut all = agents.clone();
        let start = Instant::now();
        let mut restarted = 0;
        for (agent, soldier) in &mut all {
            restarted += running(agent);
            agent.halt(soldier, &mut ());
            agent.reload(soldier, after.clone());
        }
        let restart_all = start.elapsed();

        let mut kept = agents.clone();
        let start = Instant::now();
        let mut restarted_matching = 0;
        for (agent, soldier) in &mut kept {
            restarted_matching += agent.reload(soldier, after.clone()).running_restarted();
        }
        let matching = start.elapsed();
        let still_moving = kept.iter().filter(|(a, _)| moving(a)).count();
        println!("edit: {edit}");
        println!(
            "  restart all: {:>8.1} ms, {restarted} running nodes restarted, 0 agents mid-walk",
            restart_all.as_secs_f64() * 1e3
        );
        println!(
            "  matching:    {:>8.1} ms, {restarted_matching} running nodes restarted, {still_moving} agents mid-walk",
            matching.as_secs_f64() * 1e3
        );
    }
}
