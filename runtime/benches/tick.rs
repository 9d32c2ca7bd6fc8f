//! Tick cost on the reference tree of docs/performance.md (built in `reference/mod.rs`):
//! a Selector over four Sequences, each {a condition leaf (false for the first three, true
//! for the fourth), three actions that increment a counter}. Variant A completes every tick;
//! in variant B the last action of the fourth Sequence returns running, so the tree resumes
//! there every tick.
//! Measured for one agent and per agent-tick for 10,000 agents ticked round-robin, with a
//! trace observer attached, as generated code (`arbor codegen`), and the same trees in
//! bonsai-bt and the hand-written floor in the same run so the ratio is honest. Also: loading a generated 10,000-node file.

mod reference;

use std::hint::black_box;
use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, Recorder, TraceEvent};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};

use reference::{
    bonsai, compile, compile_ported, floor, registry, wide_tree, Counter, PreviewObserver,
};

const AGENTS: usize = 10_000;

/// Runs `body` with the reference tree's generated `Direct` (variant B's module if
/// `running`, else A's): each module has a `Direct` type of its own.
macro_rules! direct {
    ($running:expr, |$direct:ident| $body:block) => {
        if $running {
            let $direct = load(reference::generated_b::load_direct(&registry()));
            $body
        } else {
            let $direct = load(reference::generated_a::load_direct(&registry()));
            $body
        }
    };
}

fn bench_variant(c: &mut Criterion, label: &str, running: bool) {
    let tree = compile(running);
    let mut group = c.benchmark_group(format!("tick/{label}"));

    let mut agent = Agent::new(tree.clone(), 1);
    let mut data = Counter::default();
    group.bench_function("arbor/1 agent", |b| {
        b.iter(|| agent.tick(&mut data, black_box(0.1)))
    });

    // Traced ticks. A closure that does nothing measures the cost of reporting events; the
    // preview observer does what the editor's preview recorder does with them (the latest
    // outcome of each visited node, in visit order); the runtime's `Recorder` keeps every
    // event. Buffers are reused from tick to tick, as the preview reuses its recorder's.
    let mut noop = |_: TraceEvent<'_>| {};
    group.bench_function("arbor/1 agent, closure observer", |b| {
        b.iter(|| agent.tick_traced(&mut data, black_box(0.1), &mut noop))
    });
    let mut preview = PreviewObserver::new(tree.len());
    group.bench_function("arbor/1 agent, preview observer", |b| {
        b.iter(|| {
            preview.clear();
            agent.tick_traced(&mut data, black_box(0.1), &mut preview)
        })
    });
    let mut recorder = Recorder::default();
    group.bench_function("arbor/1 agent, recorder", |b| {
        b.iter(|| {
            recorder.clear();
            agent.tick_traced(&mut data, black_box(0.1), &mut recorder)
        })
    });

    // The same tree compiled to Rust (`arbor_runtime::codegen`, the checked-in modules of
    // reference/generated).
    let generated = generated(running);
    let mut generated_agent = Agent::new(generated.clone(), 1);
    group.bench_function("generated/1 agent", |b| {
        b.iter(|| generated_agent.tick(&mut data, black_box(0.1)))
    });
    // The same code called through the module's `Direct::tick` (no dynamic call; inlined).
    direct!(running, |direct| {
        let mut agent = direct.agent(1);
        group.bench_function("generated, direct/1 agent", |b| {
            b.iter(|| direct.tick(&mut agent, &mut data, black_box(0.1)))
        });
    });

    let mut bt = bonsai::tree(running);
    let e = bonsai::event(0.1);
    group.bench_function("bonsai/1 agent", |b| {
        b.iter(|| bonsai::tick(&mut bt, &mut data, black_box(&e)))
    });
    // The hand-written flat array with leaves inline: the floor an interpreter aims at.
    let mut hand = floor::tree(running);
    group.bench_function("floor/1 agent", |b| {
        b.iter(|| hand.tick(black_box(&mut data)))
    });

    let mut population: Vec<(Agent<Counter>, Counter)> = (0..AGENTS)
        .map(|i| (Agent::new(tree.clone(), i as u64), Counter::default()))
        .collect();
    let mut bonsai_population: Vec<(bonsai::Tree, Counter)> = (0..AGENTS)
        .map(|_| (bonsai::tree(running), Counter::default()))
        .collect();
    // One iteration ticks 10,000 agents (milliseconds for bonsai-bt in variant A): flat
    // sampling with fewer samples keeps the run short; divide by 10,000 for ns per agent.
    group.throughput(Throughput::Elements(AGENTS as u64));
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    group.bench_function("arbor/10,000 agents", |b| {
        b.iter(|| {
            for (agent, data) in &mut population {
                agent.tick(data, black_box(0.1));
            }
        })
    });
    let mut generated_population: Vec<(Agent<Counter>, Counter)> = (0..AGENTS)
        .map(|i| (Agent::new(generated.clone(), i as u64), Counter::default()))
        .collect();
    group.bench_function("generated/10,000 agents", |b| {
        b.iter(|| {
            for (agent, data) in &mut generated_population {
                agent.tick(data, black_box(0.1));
            }
        })
    });
    direct!(running, |direct| {
        let mut population: Vec<(Agent<Counter>, Counter)> = (0..AGENTS)
            .map(|i| (direct.agent(i as u64), Counter::default()))
            .collect();
        group.bench_function("generated, direct/10,000 agents", |b| {
            b.iter(|| {
                for (agent, data) in &mut population {
                    direct.tick(agent, data, black_box(0.1));
                }
            })
        });
    });
    group.bench_function("bonsai/10,000 agents", |b| {
        b.iter(|| {
            for (bt, data) in &mut bonsai_population {
                bonsai::tick(bt, data, black_box(&e));
            }
        })
    });
    let mut floor_population: Vec<(floor::Tree, Counter)> = (0..AGENTS)
        .map(|_| (floor::tree(running), Counter::default()))
        .collect();
    group.bench_function("floor/10,000 agents", |b| {
        b.iter(|| {
            for (tree, data) in &mut floor_population {
                tree.tick(black_box(data));
            }
        })
    });
    group.finish();
}

/// The reference tree as generated code: variant B's module if `running`, else A's.
fn generated(running: bool) -> Arc<CompiledTree<Counter>> {
    let registry = registry();
    let loaded = if running {
        reference::generated_b::load(&registry)
    } else {
        reference::generated_a::load(&registry)
    };
    load(loaded)
}

fn load<T>(loaded: Result<T, arbor_runtime::LoadError>) -> T {
    match loaded {
        Ok(tree) => tree,
        Err(e) => panic!("{e}"),
    }
}

fn ticks(c: &mut Criterion) {
    bench_variant(c, "A", false);
    bench_variant(c, "B", true);
}

/// The reference actions reading one input and writing one output each: the input a
/// literal or bound to a key, side by side with the plain actions, in one group.
fn ports(c: &mut Criterion) {
    for (label, running) in [("A", false), ("B", true)] {
        let mut group = c.benchmark_group(format!("ports/{label}"));
        let trees = [
            ("no parameters", compile(running)),
            (
                "literal input, bound output",
                compile_ported(running, false),
            ),
            ("bound input, bound output", compile_ported(running, true)),
        ];
        for (name, tree) in trees {
            let mut agent = Agent::new(tree, 1);
            let mut data = Counter::default();
            group.bench_function(name, |b| b.iter(|| agent.tick(&mut data, black_box(0.1))));
        }
        group.finish();
    }
}

/// Loading: parse + check + compile a generated 10,000-node file.
fn loading(c: &mut Criterion) {
    let text = wide_tree(10_000).to_string();
    let registry = registry();
    let tree = registry
        .loader()
        .load_str(&text, None)
        .expect("the generated tree loads");
    assert!(tree.len() >= 10_000 && tree.warnings().is_empty());
    let mut group = c.benchmark_group("load");
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    group.bench_function("10,000 nodes", |b| {
        b.iter_batched(
            || text.clone(),
            |t| registry.loader().load_str(&t, None).map(|t| t.len()),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, ticks, ports, loading);
criterion_main!(benches);
