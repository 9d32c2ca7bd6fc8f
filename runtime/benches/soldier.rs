//! The soldier tree (`soldier_tree/mod.rs`): 10,000 agents patrolling, chasing and fleeing,
//! ticked once per iteration, with positions in `vec2` keys and, for comparison, in
//! `list<float>` keys. Figures in docs/performance.md, "Vectors on the blackboard".
//!
//! ```text
//! cargo bench -p arbor-runtime --bench soldier -- --warm-up-time 1 --measurement-time 3
//! ```

mod soldier_tree;

use std::hint::black_box;

use arbor_runtime::Agent;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use soldier_tree::{compile, Positions, Soldier};

const AGENTS: usize = 10_000;

fn soldiers(c: &mut Criterion) {
    let mut group = c.benchmark_group("soldier");
    group.throughput(Throughput::Elements(AGENTS as u64));
    for (label, positions) in [("vec2", Positions::Vec2), ("list", Positions::List)] {
        let tree = compile(positions);
        let mut squad: Vec<(Agent<Soldier>, Soldier)> = (0..AGENTS)
            .map(|i| (Agent::new(tree.clone(), i as u64), Soldier::new()))
            .collect();
        group.bench_function(label, |b| {
            b.iter(|| {
                for (agent, soldier) in &mut squad {
                    agent.tick(soldier, black_box(0.1));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, soldiers);
criterion_main!(benches);
