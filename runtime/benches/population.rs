//! Ticking a population of agents on one core and on all of them (feature `parallel`):
//! the reference tree of docs/performance.md (`reference/mod.rs`), 10,000 and 100,000
//! agents, each with its own `Counter`, ticked once per iteration: in a plain loop, and
//! with `parallel::tick_all` on rayon's global pool (one thread per core; set
//! `RAYON_NUM_THREADS` to change it). Both in the same run, so the ratio is honest.
//!
//!
//! Then the population mix (`mix/mod.rs`): a soldier-like tree, about 90 % of its agents
//! patrolling inside long host actions that sleep, at 100,000 and 1,000,000 agents (10,000
//! when `cargo test` runs the benchmark once), one iteration being one frame at 60 Hz: a
//! `Population` on one core and on all (`frame_parallel`), and every agent ticked at every
//! frame by the interpreter on one core and on all (`parallel::tick_all`).
//!
//! ```text
//! cargo bench -p arbor-runtime --bench population -- --warm-up-time 1 --measurement-time 3
//! cargo bench -p arbor-runtime --bench population -- mix/
//! ```

mod mix;
mod reference;

use std::hint::black_box;

use arbor_runtime::{parallel, Agent, Population};
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};

use reference::{compile, Counter};

fn population(c: &mut Criterion) {
    for (label, running) in [("A", false), ("B", true)] {
        let tree = compile(running);
        for agents in [10_000usize, 100_000] {
            let mut group = c.benchmark_group(format!("population/{label}/{agents}"));
            group.throughput(Throughput::Elements(agents as u64));
            group.sampling_mode(SamplingMode::Flat).sample_size(20);
            let mut population: Vec<(Agent<Counter>, Counter)> = (0..agents)
                .map(|i| (Agent::new(tree.clone(), i as u64), Counter::default()))
                .collect();
            group.bench_function("one core", |b| {
                b.iter(|| {
                    for (agent, data) in &mut population {
                        agent.tick(data, black_box(0.1));
                    }
                })
            });
            group.bench_function("parallel", |b| {
                b.iter(|| parallel::tick_all(&mut population, black_box(0.1)))
            });
            group.finish();
        }
    }
}

/// One frame of the population mix, per agent (see the module documentation).
fn population_mix(c: &mut Criterion) {
    // `cargo bench` passes `--bench`; `cargo test` runs each benchmark once without it, and
    // a million agents (about a gigabyte) is no test.
    let measuring = std::env::args().any(|a| a == "--bench");
    let sizes: &[u32] = if measuring {
        &[100_000, 1_000_000]
    } else {
        &[10_000]
    };
    let tree = mix::compile();
    for &agents in sizes {
        let mut group = c.benchmark_group(format!("mix/{agents}"));
        group.throughput(Throughput::Elements(u64::from(agents)));
        group.sampling_mode(SamplingMode::Flat).sample_size(10);
        {
            let mut population = Population::new();
            for i in 0..agents {
                let (agent, data) = mix::agent(&tree, i);
                population.insert_at(agent, data, mix::start(i));
            }
            for _ in 0..180 {
                population.frame(mix::DT);
            }
            group.bench_function("sleeping, one core", |b| {
                b.iter(|| population.frame(black_box(mix::DT)))
            });
            group.bench_function("sleeping, all cores", |b| {
                b.iter(|| population.frame_parallel(black_box(mix::DT)))
            });
        }
        {
            let mut all: Vec<_> = (0..agents).map(|i| mix::agent(&tree, i)).collect();
            group.bench_function("every frame, one core", |b| {
                b.iter(|| {
                    for (agent, data) in &mut all {
                        agent.tick(data, black_box(mix::DT));
                    }
                })
            });
            group.bench_function("every frame, all cores", |b| {
                b.iter(|| parallel::tick_all(&mut all, black_box(mix::DT)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, population, population_mix);
criterion_main!(benches);
