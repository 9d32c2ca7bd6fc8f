//! Ticking a population of agents on one core and on all of them (feature `parallel`):
//! the reference tree of docs/performance.md (`reference/mod.rs`), 10,000 and 100,000
//! agents, each with its own `Counter`, ticked once per iteration: in a plain loop, and
//! with `parallel::tick_all` on rayon's global pool (one thread per core; set
//! `RAYON_NUM_THREADS` to change it). Both in the same run, so the ratio is honest.
//!
//! ```text
//! cargo bench -p arbor-runtime --bench population -- --warm-up-time 1 --measurement-time 3
//! ```

mod reference;

use std::hint::black_box;

use arbor_runtime::{parallel, Agent};
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

criterion_group!(benches, population);
criterion_main!(benches);
