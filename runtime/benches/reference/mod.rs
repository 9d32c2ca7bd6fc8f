//! The reference tree of docs/performance.md, built for Arbor and for bonsai-bt, shared by
//! `benches/tick.rs`, `examples/reference_ticks.rs` (callgrind counts) and
//! `tests/engine/state_size.rs` (bytes per agent); also the generated tree the loading benchmark
//! reads.
//!
//! A Selector over four Sequences, each {a condition leaf (false for the first three, true
//! for the fourth), three actions that increment a counter}. Variant A completes every tick;
//! in variant B the last action of the fourth Sequence returns running, so the tree resumes
//! there every tick.
#![allow(dead_code)] // each user takes what it needs

use std::sync::Arc;

use std::hint::black_box;

use arbor_runtime::{
    Action, ActionCtx, CompiledTree, InPort, LastVisits, NodeType, Observer, OutPort, ParamKind,
    ParamSpec, Registry, Status, TraceEvent, Visit,
};
use serde_json::{json, Value};

/// The host data the reference leaves act on.
#[derive(Default)]
pub struct Counter {
    pub n: u64,
}

pub fn registry() -> Registry<Counter> {
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

pub fn guid(n: usize) -> String {
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
        for (k, kind) in leaves(s, running).iter().enumerate() {
            let kind = match kind {
                Leaf::False => "False",
                Leaf::True => "True",
                Leaf::Work => "Work",
                Leaf::Busy => "Busy",
            };
            let id = nodes.len() + 1;
            kids.push(guid(id));
            nodes.push(json!({"guid": guid(id), "name": format!("s{s}l{k}"), "type": kind}));
        }
        nodes[seq - 1]["children"] = json!(kids);
    }
    nodes[0]["children"] = json!(root_children);
    json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "reference", "root": guid(1), "nodes": nodes})
}

/// The reference actions with ports: each reads one input (`amount`, added to the counter)
/// and writes one output (`total`, the counter after the addition), for the cost of a
/// bound read against a literal one (docs/performance.md, "Bound parameters").
struct PortWork {
    amount: InPort<f64>,
    total: OutPort<f64>,
    status: Status,
}

impl Action<Counter> for PortWork {
    #[inline]
    fn tick(&self, cx: &mut ActionCtx<'_, Counter>) -> Status {
        let amount = cx.get(&self.amount).unwrap_or(0.0);
        cx.agent.n += amount as u64;
        let total = cx.agent.n as f64;
        cx.set(&self.total, total);
        self.status
    }
}

/// [`registry`] with `Work` and `Busy` reading `amount` and writing `total`.
pub fn ported_registry() -> Registry<Counter> {
    let mut registry = Registry::<Counter>::new();
    registry
        .condition(NodeType::condition("False", "Always false."), |_| false)
        .condition(NodeType::condition("True", "Always true."), |_| true);
    for (name, status) in [("Work", Status::Success), ("Busy", Status::Running)] {
        registry.register(
            NodeType::action(name, "Adds `amount` to the counter; writes it to `total`.")
                .param(ParamSpec::new("amount", ParamKind::Float, "How much."))
                .param(ParamSpec::new("total", ParamKind::Float, "The counter.").output()),
            move |args| {
                Ok(PortWork {
                    amount: args.port("amount")?,
                    total: args.output("total")?,
                    status,
                })
            },
        );
    }
    registry
}

/// The reference tree whose actions read `amount` as the literal 1 (`bound` false) or
/// from the key `amount` (default 1), and write the key `total`: version 2 of the format.
pub fn ported_tree(running: bool, bound: bool) -> Value {
    let mut tree = reference_tree(running);
    tree["version"] = json!(2);
    tree["blackboard"] = json!([
        {"key": "amount", "type": "float", "default": 1.0},
        {"key": "total", "type": "float"}
    ]);
    let amount = if bound {
        json!({"$key": "amount"})
    } else {
        json!(1.0)
    };
    for node in tree["nodes"].as_array_mut().into_iter().flatten() {
        if matches!(node["type"].as_str(), Some("Work" | "Busy")) {
            node["params"] = json!({"amount": amount, "total": {"$key": "total"}});
        }
    }
    tree
}

/// The loaded [`ported_tree`].
pub fn compile_ported(running: bool, bound: bool) -> Arc<CompiledTree<Counter>> {
    let text = ported_tree(running, bound).to_string();
    Arc::new(
        ported_registry()
            .loader()
            .load_str(&text, None)
            .expect("the ported reference tree loads"),
    )
}

/// The loaded reference tree.
pub fn compile(running: bool) -> Arc<CompiledTree<Counter>> {
    let text = reference_tree(running).to_string();
    Arc::new(
        registry()
            .loader()
            .load_str(&text, None)
            .expect("the reference tree loads"),
    )
}

/// A tree of `n` nodes, ten children per composite, breadth first: composites alternate
/// Selector and Sequence by level (four levels below the root for 10,000 nodes), leaves are
/// host actions.
pub fn wide_tree(n: usize) -> Value {
    const FAN_OUT: usize = 10;
    let level = |mut k: usize| {
        let mut depth = 0;
        while k > 0 {
            k = (k - 1) / FAN_OUT;
            depth += 1;
        }
        depth
    };
    let nodes: Vec<Value> = (0..n)
        .map(|k| {
            let children: Vec<String> = (FAN_OUT * k + 1..(FAN_OUT * k + FAN_OUT + 1).min(n))
                .map(|c| guid(c + 1))
                .collect();
            let name = format!("n{k}");
            if children.is_empty() {
                json!({"guid": guid(k + 1), "name": name, "type": "Work"})
            } else {
                let kind = if level(k) % 2 == 0 {
                    "Selector"
                } else {
                    "Sequence"
                };
                json!({"guid": guid(k + 1), "name": name, "type": kind, "children": children})
            }
        })
        .collect();
    json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "wide", "root": guid(1), "nodes": nodes})
}

/// What the editor's preview observes of a tick (`editor/src/preview/live.rs`,
/// `TickRecorder`): each node's latest visit through the runtime's [`LastVisits`], plus
/// each condition's last result and, on entering, a breakpoint check when there are
/// breakpoints (none here, as while the preview plays without any).
pub struct PreviewObserver {
    visits: LastVisits,
    checks: Vec<(u32, u32, bool)>,
    breakpoints: usize,
}

impl PreviewObserver {
    pub fn new(nodes: usize) -> PreviewObserver {
        PreviewObserver {
            visits: LastVisits::new(nodes),
            checks: Vec::new(),
            breakpoints: 0,
        }
    }

    pub fn clear(&mut self) {
        self.visits.next_tick();
        self.checks.clear();
    }
}

impl Observer for PreviewObserver {
    #[inline(always)]
    fn event(&mut self, event: TraceEvent<'_>) {
        match event {
            TraceEvent::Enter(n) => {
                self.visits.record(n, Visit::Running);
                if self.breakpoints > 0 {
                    black_box(n);
                }
            }
            TraceEvent::Check {
                node,
                decorator,
                passed,
            } => {
                let i = node.index() as u32;
                match self
                    .checks
                    .iter_mut()
                    .find(|c| c.0 == i && c.1 == decorator)
                {
                    Some(c) => c.2 = passed,
                    None => self.checks.push((i, decorator, passed)),
                }
            }
            other => self.visits.event(other),
        }
    }
}

/// The reference tree's leaves, for both engines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    False,
    True,
    Work,
    Busy,
}

/// The four leaves of Sequence `s` (0..4).
fn leaves(s: usize, running: bool) -> [Leaf; 4] {
    let cond = if s == 3 { Leaf::True } else { Leaf::False };
    let last = if running && s == 3 {
        Leaf::Busy
    } else {
        Leaf::Work
    };
    [cond, Leaf::Work, Leaf::Work, last]
}

/// bonsai-bt's equivalent: `Select` over `Sequence`s of `Action` leaves; a false condition
/// is an action returning `Failure`, variant B's last action returns `Running`.
pub mod bonsai {
    use bonsai_bt::{Action, Behavior, Event, Select, Sequence, Status, UpdateArgs, BT};

    use super::{leaves, Counter, Leaf};

    pub type Tree = BT<Leaf, ()>;

    pub fn behavior(running: bool) -> Behavior<Leaf> {
        Select(
            (0..4)
                .map(|s| Sequence(leaves(s, running).into_iter().map(Action).collect()))
                .collect(),
        )
    }

    pub fn tree(running: bool) -> Tree {
        BT::new(behavior(running), ())
    }

    pub fn event(dt: f64) -> Event {
        UpdateArgs { dt }.into()
    }

    /// One whole-tree tick. bonsai's `BT::tick` returns `None` once the tree has finished,
    /// so a finished tree is reset (`reset_bt`) to be run again, as bonsai's docs describe;
    /// that reset is part of what re-running a completed tree costs there.
    #[inline]
    pub fn tick(bt: &mut Tree, counter: &mut Counter, e: &Event) -> Status {
        let (status, _) = bt
            .tick(e, &mut |args, _| match *args.action {
                Leaf::False => (Status::Failure, args.dt),
                Leaf::True => (Status::Success, args.dt),
                Leaf::Work => {
                    counter.n += 1;
                    (Status::Success, args.dt)
                }
                Leaf::Busy => {
                    counter.n += 1;
                    bonsai_bt::RUNNING
                }
            })
            .expect("a finished tree is reset before it is ticked again");
        if bt.is_finished() {
            bt.reset_bt();
        }
        status
    }
}

/// The hand-written "floor" of docs/performance.md: the reference tree as a flat array of
/// nodes (kind and child range), a running flag and cursor per node, leaves inline (no
/// dynamic call), ticked by one recursive function. What an interpreter could at best do
/// for this tree without generating code for it.
pub mod floor {
    use arbor_runtime::Status;

    use super::{leaves, Counter, Leaf};

    #[derive(Clone, Copy)]
    enum Kind {
        Selector,
        Sequence,
        Leaf(Leaf),
    }

    struct Node {
        kind: Kind,
        first: u32,
        end: u32,
    }

    pub struct Tree {
        nodes: Vec<Node>,
        children: Vec<u32>,
        running: Vec<bool>,
        cursor: Vec<u32>,
    }

    /// The reference tree; `running` makes it variant B.
    pub fn tree(running: bool) -> Tree {
        let mut nodes = vec![Node {
            kind: Kind::Selector,
            first: 0,
            end: 4,
        }];
        let mut children: Vec<u32> = vec![0; 4];
        for s in 0..4 {
            children[s] = nodes.len() as u32;
            let first = children.len() as u32;
            nodes.push(Node {
                kind: Kind::Sequence,
                first,
                end: first + 4,
            });
            let at = children.len();
            children.extend([0; 4]);
            for (k, leaf) in leaves(s, running).into_iter().enumerate() {
                children[at + k] = nodes.len() as u32;
                nodes.push(Node {
                    kind: Kind::Leaf(leaf),
                    first: 0,
                    end: 0,
                });
            }
        }
        let n = nodes.len();
        Tree {
            nodes,
            children,
            running: vec![false; n],
            cursor: vec![0; n],
        }
    }

    impl Tree {
        pub fn tick(&mut self, counter: &mut Counter) -> Status {
            self.node(0, counter)
        }

        fn node(&mut self, i: usize, counter: &mut Counter) -> Status {
            let node = &self.nodes[i];
            let (first, end) = (node.first as usize, node.end as usize);
            let next = match node.kind {
                Kind::Leaf(Leaf::False) => return Status::Failure,
                Kind::Leaf(Leaf::True) => return Status::Success,
                Kind::Leaf(Leaf::Work) => {
                    counter.n += 1;
                    return Status::Success;
                }
                Kind::Leaf(Leaf::Busy) => {
                    counter.n += 1;
                    return Status::Running;
                }
                Kind::Sequence => Status::Success,
                Kind::Selector => Status::Failure,
            };
            let start = if self.running[i] { self.cursor[i] } else { 0 } as usize;
            for k in first + start..end {
                let status = self.node(self.children[k] as usize, counter);
                if status != next {
                    let running = status == Status::Running;
                    self.running[i] = running;
                    self.cursor[i] = if running { (k - first) as u32 } else { 0 };
                    return status;
                }
            }
            self.running[i] = false;
            self.cursor[i] = 0;
            next
        }
    }
}

/// The reference tree compiled to Rust (`arbor_runtime::codegen`), variant A; checked in
/// and kept up to date by tests/engine/generated.rs.
pub mod generated_a {
    include!("generated/a.rs");
}

/// As [`generated_a`], variant B.
pub mod generated_b {
    include!("generated/b.rs");
}
