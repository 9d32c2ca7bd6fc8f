//! The engine's fast paths (`exec/entry.rs`: decorator-free host leaves and plain
//! Sequences/Selectors ticked from per-child entries, the root's two top levels inlined)
//! against its general path: random trees are run twice, once as they are and once with an
//! always-true Precondition on every node, which sends every node through the general
//! lifecycle. Apart from the Precondition's own check events, the traces (enter, tick,
//! exit, abort, in order) and the root's statuses must be the same, tick by tick.

use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, NodeType, Recorder, Registry, Status};
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::common;

/// A random tree: Sequences, Selectors, Inverters, Parallels, host leaves (fixed statuses
/// and one drawn from the agent's RNG) and Scripted leaves.
fn node(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "Ok"})),
        Just(json!({"type": "No"})),
        Just(json!({"type": "Busy"})),
        Just(json!({"type": "Coin"})),
        prop::collection::vec(
            prop_oneof![Just("success"), Just("failure"), Just("running")],
            1..4
        )
        .prop_map(|r| json!({"type": "Scripted", "params": {"returns": r}})),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let kids = prop::collection::vec(node(depth - 1), 0..4);
    prop_oneof![
        2 => leaf,
        3 => kids.clone().prop_map(|c| json!({"type": "Sequence", "children": c})),
        3 => kids.clone().prop_map(|c| json!({"type": "Selector", "children": c})),
        1 => node(depth - 1).prop_map(|c| json!({"type": "Inverter", "children": [c]})),
        1 => (kids, 1u32..3).prop_map(|(c, need)| {
            let need = need.min(c.len().max(1) as u32);
            json!({"type": "Parallel", "params": {"need": need}, "children": c})
        }),
    ]
    .boxed()
}

/// Names every node by its place (so traces of both variants read the same) and, with
/// `guarded`, attaches an always-true Precondition to it.
fn prepare(node: &Value, place: &str, guarded: bool) -> Value {
    let mut node = node.clone();
    node["name"] = json!(place);
    if guarded {
        node["decorators"] =
            json!([{"type": "Precondition", "params": {"key": "t", "equals": true}}]);
    }
    if let Some(children) = node.get("children").and_then(Value::as_array).cloned() {
        let children: Vec<Value> = children
            .iter()
            .enumerate()
            .map(|(k, c)| prepare(c, &format!("{place}.{k}"), guarded))
            .collect();
        node["children"] = json!(children);
    }
    node
}

fn compile(root: &Value, guarded: bool) -> Arc<CompiledTree<()>> {
    let mut registry = Registry::<()>::new();
    registry
        .action(NodeType::action("Ok", "Succeeds."), |_| Status::Success)
        .action(NodeType::action("No", "Fails."), |_| Status::Failure)
        .action(NodeType::action("Busy", "Runs."), |_| Status::Running)
        .action(
            NodeType::action("Coin", "Any status, from the RNG."),
            |cx| match cx.rng().usize(0..3) {
                0 => Status::Success,
                1 => Status::Failure,
                _ => Status::Running,
            },
        );
    let text = common::tree_json(
        prepare(root, "n", guarded),
        json!([{"key": "t", "type": "bool", "default": true}]),
    );
    match registry.loader().load_str(&text.to_string(), None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("a generated tree should load: {e}\n{text}"),
    }
}

/// The root's status and the lifecycle trace (checks dropped) of `ticks` ticks.
fn run(tree: Arc<CompiledTree<()>>, seed: u64, ticks: usize) -> Vec<(Status, Vec<String>)> {
    let mut agent = Agent::new(tree, seed);
    (0..ticks)
        .map(|_| {
            let mut rec = Recorder::default();
            let status = agent.tick_traced(&mut (), 1.0, &mut rec);
            let trace = common::lifecycle(common::render(agent.tree(), &rec));
            (status, trace)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fast_paths_tick_as_the_general_path(root in node(3), seed in 0u64..1000) {
        let fast = run(compile(&root, false), seed, 12);
        let general = run(compile(&root, true), seed, 12);
        prop_assert_eq!(fast, general);
    }
}
