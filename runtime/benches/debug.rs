//! What being debuggable costs: the reference tree of docs/performance.md (the same one as
//! benches/tick.rs: a Selector over four Sequences of a condition and three actions) ticked
//! plainly with `Agent::tick`, and through a `debug::Instance` of a running `DebugServer`
//! that no client is connected to, side by side. The target is a ratio of at most 1.05.
//!
//! Criterion measures one benchmark after the other, so on a busy machine the ratio of two
//! of its medians mostly measures the load changing. `cargo bench` therefore also prints an
//! interleaved comparison first: short rounds of each kind alternate, so both see the same
//! load, and the medians of the rounds are compared.
//!
//! Requires the `debug-server` feature:
//! `cargo bench -p arbor-runtime --features debug-server --bench debug`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use arbor_runtime::debug::{DebugConfig, DebugServer};
use arbor_runtime::format::TreeFile;
use arbor_runtime::{parse_str, Agent, CompiledTree};
use criterion::{criterion_group, criterion_main, Criterion};

mod reference;
use reference::{reference_tree, registry, Counter};

fn load(running: bool) -> (TreeFile, Arc<CompiledTree<Counter>>) {
    let text = reference_tree(running).to_string();
    let file = parse_str(&text, None).expect("the reference tree parses");
    let tree = registry()
        .loader()
        .load_tree(&file, None)
        .expect("the reference tree loads");
    (file, Arc::new(tree))
}

fn bench_variant(c: &mut Criterion, server: &DebugServer, label: &str, running: bool) {
    let (file, tree) = load(running);
    let mut group = c.benchmark_group(format!("debug/{label}"));

    let mut agent = Agent::new(tree.clone(), 1);
    let mut data = Counter::default();
    group.bench_function("server disabled (Agent::tick)", |b| {
        b.iter(|| agent.tick(&mut data, 0.1))
    });

    let mut agent = Agent::new(tree, 1);
    let mut data = Counter::default();
    let mut handle = server.register("bench", &agent, &file);
    group.bench_function("server enabled, no client (Instance::tick)", |b| {
        b.iter(|| handle.tick(&mut agent, &mut data, 0.1))
    });
    group.finish();
}

/// Median nanoseconds per tick of plain and handle ticks, over alternating rounds.
fn interleaved(server: &DebugServer, label: &str, running: bool) {
    const ROUNDS: usize = 201;
    const TICKS: usize = 20_000;
    let (file, tree) = load(running);
    let mut plain = (Agent::new(tree.clone(), 1), Counter::default());
    let mut watched = (Agent::new(tree, 1), Counter::default());
    let mut handle = server.register("interleaved", &watched.0, &file);
    let mut plain_ns = Vec::with_capacity(ROUNDS);
    let mut handle_ns = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let started = Instant::now();
        for _ in 0..TICKS {
            black_box(plain.0.tick(&mut plain.1, 0.1));
        }
        plain_ns.push(started.elapsed().as_nanos() as f64 / TICKS as f64);
        let started = Instant::now();
        for _ in 0..TICKS {
            black_box(handle.tick(&mut watched.0, &mut watched.1, 0.1));
        }
        handle_ns.push(started.elapsed().as_nanos() as f64 / TICKS as f64);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (p, h) = (median(&mut plain_ns), median(&mut handle_ns));
    println!(
        "debug/{label} interleaved medians: Agent::tick {p:.2} ns, Instance::tick {h:.2} ns, \
         ratio {:.3}",
        h / p
    );
}

fn ticks(c: &mut Criterion) {
    let server =
        DebugServer::start(DebugConfig::new("127.0.0.1:0")).expect("a loopback server starts");
    // Only when measuring: `cargo test` runs the benchmarks once, in a debug build.
    if std::env::args().any(|a| a == "--bench") {
        interleaved(&server, "A", false);
        interleaved(&server, "B", true);
    }
    bench_variant(c, &server, "A", false);
    bench_variant(c, &server, "B", true);
}

criterion_group!(benches, ticks);
criterion_main!(benches);
