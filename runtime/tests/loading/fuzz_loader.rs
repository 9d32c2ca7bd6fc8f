//! Property-based fuzzing of the loader and the tick loop: arbitrary bytes, and
//! arbitrary *structurally valid* tree documents (random node types, parameters, children
//! that dangle, repeat or form cycles, decorators, blackboards) never make the loader or
//! the engine panic; every rejection is an error value with a message.
//!
//! `cargo fuzz` needs a nightly toolchain, which this project does not assume; proptest
//! runs the same idea inside `cargo test` on the stable toolchain.

use crate::common;

use std::sync::Arc;

use arbor_runtime::{check_str, Agent, LoadOptions, NodeTypes, Registry};
use common::guid;
use proptest::prelude::*;
use serde_json::{json, Value};

const NODE_TYPES: &[&str] = &[
    "Sequence",
    "Selector",
    "Parallel",
    "Inverter",
    "Succeeder",
    "ForceFailure",
    "Repeat",
    "Retry",
    "Limiter",
    "Timeout",
    "Wait",
    "Scripted",
    "Condition",
    "Increment",
    "SetBlackboard",
    "SendEvent",
    "SetTrigger",
    "Log",
    "Random",
    "Subtree",
    "Bogus",
    "CheckEvent",
];
const DECORATOR_TYPES: &[&str] = &[
    "Condition",
    "Precondition",
    "CheckEvent",
    "CheckTrigger",
    "Inverter",
    "Nope",
];
const PARAM_NAMES: &[&str] = &[
    "dynamic",
    "need",
    "count",
    "attempts",
    "max",
    "seconds",
    "returns",
    "key",
    "equals",
    "equals_key",
    "by",
    "value",
    "ttl",
    "event",
    "trigger",
    "message",
    "probability",
    "path",
    "remap",
    "invert",
    "abort",
    "reset",
    "junk",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop_oneof![
            Just("success"),
            Just("running"),
            Just("failure"),
            Just("n"),
            Just("b"),
            Just("None"),
            Just("Self"),
            Just("LowerPriority"),
            Just("Both"),
            Just("EnterNode"),
            Just("LeaveNode"),
            Just("x.json"),
            Just("")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn params() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(prop::sample::select(PARAM_NAMES), json_value(), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
}

/// A document with `n` nodes whose children point anywhere (including nowhere and back up).
fn document() -> impl Strategy<Value = Value> {
    (1usize..14).prop_flat_map(|n| {
        let node = (
            prop::sample::select(NODE_TYPES),
            params(),
            prop::collection::vec(0usize..n + 2, 0..4),
            prop::collection::vec((prop::sample::select(DECORATOR_TYPES), params()), 0..3),
        );
        (
            prop::collection::vec(node, n),
            0usize..n + 1,
            prop::collection::vec((prop::sample::select(&["n", "b", "s", "j"][..]), json_value()), 0..3),
        )
    })
    .prop_map(|(nodes, root, keys)| {
        let count = nodes.len();
        let mut next_decorator = 1000;
        let nodes: Vec<Value> = nodes
            .into_iter()
            .enumerate()
            .map(|(i, (kind, params, children, decorators))| {
                let decorators: Vec<Value> = decorators
                    .into_iter()
                    .map(|(kind, params)| {
                        next_decorator += 1;
                        json!({"guid": guid(next_decorator), "name": kind, "type": kind, "params": params})
                    })
                    .collect();
                json!({
                    "guid": guid(i + 1), "name": format!("n{i}"), "type": kind, "params": params,
                    "decorators": decorators,
                    "children": children.into_iter().map(|c| guid(c + 1)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let types = ["int", "bool", "string", "json", "float"];
        let blackboard: Vec<Value> = keys
            .into_iter()
            .enumerate()
            .map(|(i, (name, default))| json!({"key": name, "type": types[i % types.len()], "default": default}))
            .collect();
        let _ = count;
        json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "fuzz",
               "blackboard": blackboard, "root": guid(root + 1), "nodes": nodes})
    })
}

/// Loads a document; when it loads, ticks it with events and triggers raised at random.
fn exercise(text: &str) {
    let registry = Registry::<()>::new();
    match registry.loader().load_str(text, None) {
        Ok(tree) => {
            let tree = Arc::new(tree);
            let mut agent = Agent::new(tree.clone(), 3);
            let events: Vec<String> = tree.events().to_vec();
            let triggers: Vec<String> = tree.triggers().to_vec();
            for t in 0..30 {
                if let Some(e) = events.get(t % (events.len() + 1)) {
                    agent.raise_event(e);
                }
                if let Some(g) = triggers.get(t % (triggers.len() + 1)) {
                    agent.set_trigger(g);
                }
                agent.tick(&mut (), 0.25);
            }
            agent.halt(&mut (), &mut ());
        }
        Err(e) => {
            assert!(!e.problems.is_empty());
            assert!(e.errors().all(|p| !p.message().is_empty()));
        }
    }
    // The checker sees the same document without panicking either.
    let _ = check_str(text, None, &NodeTypes::builtin(), &LoadOptions::default());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn arbitrary_documents_never_panic(doc in document()) {
        exercise(&doc.to_string());
    }

    #[test]
    fn mutated_valid_documents_never_panic(doc in document(), cut in 0usize..2000, byte in any::<u8>()) {
        let mut text = doc.to_string().into_bytes();
        if !text.is_empty() {
            let at = cut % text.len();
            text[at] = byte;
            text.truncate(text.len() - cut % 7);
        }
        exercise(&String::from_utf8_lossy(&text));
    }
}

/// One node of a valid random tree: its type and parameters, from a seed.
fn valid_node(kind: u8, a: i64, b: bool) -> Value {
    let small = a.rem_euclid(4);
    match kind % 19 {
        0 => json!({"type": "Sequence", "params": {"dynamic": b}}),
        1 => json!({"type": "Selector", "params": {"dynamic": b}}),
        2 => json!({"type": "Parallel", "params": {"need": small}}),
        3 => json!({"type": "Inverter"}),
        4 => json!({"type": "Succeeder"}),
        5 => json!({"type": "ForceFailure"}),
        6 => json!({"type": "Repeat", "params": {"count": small - 1}}),
        7 => json!({"type": "Retry", "params": {"attempts": if b { -1 } else { small + 1 }}}),
        8 => json!({"type": "Limiter", "params": {"max": small}}),
        9 => json!({"type": "Timeout", "params": {"seconds": small as f64 * 0.5}}),
        10 => json!({"type": "Wait", "params": {"seconds": small as f64 * 0.3}}),
        11 => {
            let all = ["success", "failure", "running"];
            let returns: Vec<&str> = (0..=small)
                .map(|i| all[((a >> (2 * i)) & 3) as usize % 3])
                .collect();
            json!({"type": "Scripted", "params": {"returns": returns}})
        }
        12 => json!({"type": "Condition", "params": {"key": "n", "equals": small}}),
        13 => json!({"type": "Increment", "params": {"key": "n", "by": if b { 1 } else { -1 }}}),
        14 => {
            json!({"type": "SetBlackboard", "params": {"key": "n", "value": small, "ttl": small as f64 * 0.5}})
        }
        15 => json!({"type": "SendEvent", "params": {"event": "e"}}),
        16 => json!({"type": "SetTrigger", "params": {"trigger": "t"}}),
        17 => json!({"type": "Log", "params": {"message": "hello"}}),
        _ => json!({"type": "Random", "params": {"probability": small as f64 / 3.0}}),
    }
}

fn valid_decorator(kind: u8, a: i64) -> Value {
    let abort = ["None", "Self", "LowerPriority", "Both"][a.rem_euclid(4) as usize];
    let reset = ["Immediate", "EnterNode", "LeaveNode"][a.rem_euclid(3) as usize];
    let invert = a % 2 == 0;
    match kind % 5 {
        0 => {
            json!({"type": "Condition", "params": {"key": "n", "equals": a.rem_euclid(3), "abort": abort, "invert": invert}})
        }
        1 => {
            json!({"type": "Precondition", "params": {"key": "n", "equals": a.rem_euclid(3), "invert": invert}})
        }
        2 => {
            json!({"type": "CheckEvent", "params": {"event": "e", "abort": abort, "invert": invert}})
        }
        3 => {
            json!({"type": "CheckTrigger", "params": {"trigger": "t", "reset": reset, "abort": abort, "invert": invert}})
        }
        _ => json!({"type": "Inverter"}),
    }
}

/// A random tree that the loader accepts: every node kind, valid parameters, attached
/// decorators of every abort type, shaped so each decorator node has exactly one child.
fn valid_document() -> impl Strategy<Value = Value> {
    prop::collection::vec(
        (any::<u8>(), any::<i64>(), any::<bool>(), any::<u16>(), prop::collection::vec((any::<u8>(), any::<i64>()), 0..2)),
        1..24,
    )
    .prop_map(|specs| {
        let mut nodes: Vec<Value> = Vec::new();
        let mut kids: Vec<Vec<usize>> = Vec::new();
        let mut next_decorator = 1000;
        for (i, (kind, a, b, parent_seed, decorators)) in specs.into_iter().enumerate() {
            let mut node = valid_node(kind, a, b);
            node["guid"] = json!(guid(i + 1));
            node["name"] = json!(format!("n{i}"));
            let decorators: Vec<Value> = decorators
                .into_iter()
                .map(|(k, a)| {
                    next_decorator += 1;
                    let mut d = valid_decorator(k, a);
                    d["guid"] = json!(guid(next_decorator));
                    d["name"] = json!("d");
                    d
                })
                .collect();
            node["decorators"] = json!(decorators);
            // Attach to an earlier node that can take another child.
            let open: Vec<usize> = (0..nodes.len()).filter(|&p| takes_child(&nodes[p], kids[p].len())).collect();
            if i > 0 {
                let parent = if open.is_empty() { None } else { Some(open[parent_seed as usize % open.len()]) };
                match parent {
                    Some(p) => kids[p].push(i),
                    None => break,
                }
            }
            nodes.push(node);
            kids.push(Vec::new());
        }
        // Decorator nodes left childless get a Wait.
        for p in 0..nodes.len() {
            if is_decorator(&nodes[p]) && kids[p].is_empty() {
                let id = nodes.len();
                nodes.push(json!({"guid": guid(id + 1), "name": format!("n{id}"), "type": "Wait", "params": {"seconds": 0.5}}));
                kids.push(Vec::new());
                kids[p].push(id);
            }
        }
        for (p, node) in nodes.iter_mut().enumerate() {
            node["children"] = json!(kids[p].iter().map(|c| guid(c + 1)).collect::<Vec<_>>());
        }
        json!({"format": "arbor-tree", "version": 1, "guid": guid(0), "name": "valid",
               "blackboard": [{"key": "n", "type": "int", "default": 0}], "root": guid(1), "nodes": nodes})
    })
}

fn is_decorator(node: &Value) -> bool {
    matches!(
        node["type"].as_str(),
        Some(
            "Inverter" | "Succeeder" | "ForceFailure" | "Repeat" | "Retry" | "Limiter" | "Timeout"
        )
    )
}

fn takes_child(node: &Value, has: usize) -> bool {
    match node["type"].as_str() {
        Some("Sequence" | "Selector" | "Parallel") => true,
        _ => is_decorator(node) && has == 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Valid random trees load and tick without panicking, through aborts, events,
    /// triggers and expiring values; every trace is well nested (each exit follows an
    /// enter of the same node, no node enters twice without exiting).
    #[test]
    fn valid_random_trees_load_and_tick(doc in valid_document()) {
        let text = doc.to_string();
        let tree = match Registry::<()>::new().loader().load_str(&text, None) {
            Ok(tree) => Arc::new(tree),
            Err(e) => return Err(TestCaseError::fail(format!("a valid document was refused: {e}"))),
        };
        let mut agent = Agent::new(tree.clone(), 9);
        let mut running = vec![false; tree.len()];
        for t in 0..40 {
            if t % 3 == 0 { agent.raise_event("e"); }
            if t % 5 == 0 { agent.set_trigger("t"); }
            let mut ok = true;
            agent.tick_traced(&mut (), 0.25, &mut |e: arbor_runtime::TraceEvent<'_>| {
                let i = e.node().index();
                match e {
                    arbor_runtime::TraceEvent::Enter(_) => { ok &= !running[i]; running[i] = true; }
                    arbor_runtime::TraceEvent::Exit(..) => { ok &= running[i]; running[i] = false; }
                    arbor_runtime::TraceEvent::Tick(..) | arbor_runtime::TraceEvent::Abort(_) => ok &= running[i],
                    _ => {}
                }
            });
            prop_assert!(ok, "malformed trace at tick {}", t);
            for (i, r) in running.iter().enumerate() {
                prop_assert_eq!(*r, agent.is_running(arbor_runtime::NodeId::from_index(i)));
            }
        }
    }
}
