//! `arbor_runtime::parallel`: ticking a population on several threads gives exactly what
//! ticking it on one does, for every shape of population (pairs, two slices, the game's own
//! entities), on rayon's global pool and on a pool of more threads than this machine has.

use std::sync::Arc;

use arbor_runtime::{parallel, Agent, CompiledTree, NodeType, Registry, Status};
use serde_json::json;

use crate::common;

/// Per-agent host data: where the agent is and what it did.
#[derive(Clone, Debug, Default, PartialEq)]
struct Body {
    x: f64,
    rolls: u32,
    moves: u32,
}

/// A tree whose course depends on each agent's RNG, clock and host data: a Random node, a
/// host condition and a host action that draw from the agent's RNG, a Wait and a counter.
fn tree() -> Arc<CompiledTree<Body>> {
    let mut registry = Registry::<Body>::new();
    registry
        .condition(
            NodeType::condition("Lucky", "A coin from the agent's RNG."),
            |cx| {
                cx.agent.rolls += 1;
                cx.rng().bool()
            },
        )
        .action(
            NodeType::action("Walk", "Moves a random step; runs until x > 3."),
            |cx| {
                cx.agent.moves += 1;
                cx.agent.x += cx.rng().f64();
                if cx.agent.x > 3.0 {
                    cx.agent.x = 0.0;
                    Status::Success
                } else {
                    Status::Running
                }
            },
        );
    let root = common::sel(
        "root",
        vec![
            common::seq(
                "lucky walk",
                vec![
                    json!({"type": "Lucky", "name": "coin"}),
                    json!({"type": "Walk", "name": "walk"}),
                    json!({"type": "Increment", "name": "count", "params": {"key": "n", "by": 1}}),
                ],
            ),
            common::seq(
                "rest",
                vec![
                    json!({"type": "Random", "name": "maybe", "params": {"probability": 0.5}}),
                    json!({"type": "Wait", "name": "nap", "params": {"seconds": 0.25}}),
                ],
            ),
        ],
    );
    let text = common::tree_json(root, json!([{"key": "n", "type": "int", "default": 0}]));
    match registry.loader().load_str(&text.to_string(), None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("the test tree should load: {e}"),
    }
}

const AGENTS: usize = 3_000;
const TICKS: usize = 40;
const DT: f64 = 0.1;

fn population() -> Vec<(Agent<Body>, Body)> {
    let tree = tree();
    (0..AGENTS)
        .map(|i| (Agent::new(tree.clone(), i as u64), Body::default()))
        .collect()
}

/// What an agent's course left behind: its data, ticks, clock and counter.
fn outcome(pop: &[(Agent<Body>, Body)]) -> Vec<(Body, u64, f64, i64)> {
    pop.iter()
        .map(|(agent, body)| {
            let bb = agent.blackboard();
            let n = bb.key("n").and_then(|k| bb.get_i64(k)).unwrap_or(-1);
            (body.clone(), agent.ticks(), agent.now(), n)
        })
        .collect()
}

fn sequential() -> Vec<(Body, u64, f64, i64)> {
    let mut pop = population();
    for _ in 0..TICKS {
        for (agent, body) in pop.iter_mut() {
            agent.tick(body, DT);
        }
    }
    outcome(&pop)
}

#[test]
fn tick_all_equals_ticking_one_by_one() {
    let expected = sequential();
    // The agents went different ways, so a mixed-up agent or data would show.
    let distinct: std::collections::HashSet<String> =
        expected.iter().map(|o| format!("{o:?}")).collect();
    assert!(
        distinct.len() > AGENTS / 2,
        "{} distinct outcomes",
        distinct.len()
    );

    let mut pop = population();
    for _ in 0..TICKS {
        parallel::tick_all(&mut pop, DT);
    }
    assert_eq!(outcome(&pop), expected);
}

#[test]
fn tick_zip_and_tick_each_equal_ticking_one_by_one() {
    let expected = sequential();

    let (mut agents, mut bodies): (Vec<_>, Vec<_>) = population().into_iter().unzip();
    for _ in 0..TICKS {
        parallel::tick_zip(&mut agents, &mut bodies, DT);
    }
    let zipped: Vec<_> = agents.into_iter().zip(bodies).collect();
    assert_eq!(outcome(&zipped), expected);

    /// A game's entity: the agent beside other fields.
    struct Entity {
        _id: usize,
        body: Body,
        brain: Agent<Body>,
    }
    let mut entities: Vec<Entity> = population()
        .into_iter()
        .enumerate()
        .map(|(i, (brain, body))| Entity {
            _id: i,
            body,
            brain,
        })
        .collect();
    for _ in 0..TICKS {
        parallel::tick_each(&mut entities, DT, |e| (&mut e.brain, &mut e.body));
    }
    let each: Vec<_> = entities.into_iter().map(|e| (e.brain, e.body)).collect();
    assert_eq!(outcome(&each), expected);
}

#[test]
fn more_threads_than_cores_give_the_same_result() {
    let expected = sequential();
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(5).build() {
        Ok(pool) => pool,
        Err(e) => panic!("a pool of 5 threads: {e}"),
    };
    let mut pop = population();
    pool.install(|| {
        for _ in 0..TICKS {
            parallel::tick_all(&mut pop, DT);
        }
    });
    assert_eq!(outcome(&pop), expected);
}

#[test]
#[should_panic(expected = "tick_zip: 2 agents but data for 1")]
fn tick_zip_refuses_slices_of_different_lengths() {
    let tree = tree();
    let mut agents = vec![Agent::new(tree.clone(), 1), Agent::new(tree, 2)];
    let mut bodies = vec![Body::default()];
    parallel::tick_zip(&mut agents, &mut bodies, DT);
}
