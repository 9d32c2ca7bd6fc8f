//! Tick cost on the reference tree of docs/performance.md: a Selector over four Sequences,
//! each {a condition leaf (false for the first three, true for the fourth), three actions
//! that increment a counter}. Variant A completes every tick; in variant B the last action
//! of the fourth Sequence returns running, so the tree resumes there every tick.
//! Measured for one agent and per agent-tick for 10,000 agents ticked round-robin, and with
//! a trace observer attached.

use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, NodeType, Registry, Status, TraceEvent};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use serde_json::{json, Value};

/// The host data the reference leaves act on.
#[derive(Default)]
pub struct Counter {
    pub n: u64,
}

fn registry() -> Registry<Counter> {
    let mut registry = Registry::<Counter>::new();
    registry
        .condition(NodeType::condition("False", "Always false."), |_| false)
        .condition(NodeType::condition("True", "Always true."), |_| true)
        .action(NodeType::action("Work", "Increments the counter."), |cx| {
            cx.agent.n += 1;
            Status::Success
        })
        .action(
            NodeType::action("Busy", "Increments the counter; running."),
            |cx| {
                cx.agent.n += 1;
                Status::Running
            },
        );
    registry
}

fn guid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// The reference tree in the file format; `running` makes it variant B.
pub fn reference_tree(running: bool) -> Value {
    let mut nodes =
        vec![json!({"guid": guid(1), "name": "root", "type": "Selector", "children": []})];
    let mut root_children = Vec::new();
    for s in 0..4 {
        let seq = nodes.len() + 1;
        root_children.push(guid(seq));
        let mut kids = Vec::new();
        nodes.push(json!({"guid": guid(seq), "name": format!("seq{s}"), "type": "Sequence"}));
        let cond = if s == 3 { "True" } else { "False" };
        for (k, kind) in [
            cond,
            "Work",
            "Work",
            if running && s == 3 { "Busy" } else { "Work" },
        ]
        .iter()
        .enumerate()
        {
            let id = nodes.len() + 1;
            kids.push(guid(id));
            nodes.push(json!({"guid": guid(id), "name": format!("s{s}l{k}"), "type": kind}));
        }
        nodes[seq - 1]["children"] = json!(kids);
    }
    nodes[0]["children"] = json!(root_children);
    json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "reference", "root": guid(1), "nodes": nodes})
}

fn compile(running: bool) -> Arc<CompiledTree<Counter>> {
    let text = reference_tree(running).to_string();
    Arc::new(
        registry()
            .loader()
            .load_str(&text, None)
            .expect("the reference tree loads"),
    )
}

fn bench_variant(c: &mut Criterion, label: &str, running: bool) {
    let tree = compile(running);
    let mut group = c.benchmark_group(format!("tick/{label}"));

    let mut agent = Agent::new(tree.clone(), 1);
    let mut data = Counter::default();
    group.bench_function("1 agent", |b| b.iter(|| agent.tick(&mut data, 0.1)));

    let mut noop = |_: TraceEvent<'_>| {};
    group.bench_function("1 agent, closure observer", |b| {
        b.iter(|| agent.tick_traced(&mut data, 0.1, &mut noop))
    });

    const AGENTS: usize = 10_000;
    let mut population: Vec<(Agent<Counter>, Counter)> = (0..AGENTS)
        .map(|i| (Agent::new(tree.clone(), i as u64), Counter::default()))
        .collect();
    group.throughput(Throughput::Elements(AGENTS as u64));
    group.bench_function("10,000 agents", |b| {
        b.iter(|| {
            for (agent, data) in &mut population {
                agent.tick(data, 0.1);
            }
        })
    });
    group.finish();
}

fn ticks(c: &mut Criterion) {
    bench_variant(c, "A", false);
    bench_variant(c, "B", true);
}

/// Loading: parse + check + compile a generated 10,000-node file.
fn loading(c: &mut Criterion) {
    let text = wide_tree(10_000).to_string();
    let registry = registry();
    c.bench_function("load/10,000 nodes", |b| {
        b.iter_batched(
            || text.clone(),
            |t| registry.loader().load_str(&t, None).map(|t| t.len()),
            BatchSize::SmallInput,
        )
    });
}

/// A tree of `n` nodes: Sequences of ten leaves under Selectors, three levels deep.
pub fn wide_tree(n: usize) -> Value {
    let mut nodes = Vec::with_capacity(n);
    nodes.push(json!({"guid": guid(1), "name": "root", "type": "Selector", "children": []}));
    let mut open = vec![0usize];
    let mut next = 0;
    while nodes.len() < n {
        let parent = open[next % open.len()];
        next += 1;
        let id = nodes.len() + 1;
        let kind = if nodes.len() % 11 == 0 {
            "Sequence"
        } else {
            "Work"
        };
        nodes.push(json!({"guid": guid(id), "name": format!("n{id}"), "type": kind}));
        let children = nodes[parent]["children"]
            .as_array_mut()
            .expect("composites have children");
        children.push(json!(guid(id)));
        if kind == "Sequence" {
            nodes[id - 1]["children"] = json!([]);
            open.push(id - 1);
        }
    }
    // Composites left without children get one leaf so the file has no warnings.
    let mut extra = Vec::new();
    for i in 0..nodes.len() {
        if nodes[i]["children"].as_array().is_some_and(Vec::is_empty) {
            let id = nodes.len() + extra.len() + 1;
            nodes[i]["children"] = json!([guid(id)]);
            extra.push(json!({"guid": guid(id), "name": format!("n{id}"), "type": "Work"}));
        }
    }
    nodes.extend(extra);
    json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "wide", "root": guid(1), "nodes": nodes})
}

criterion_group!(benches, ticks, loading);
criterion_main!(benches);
