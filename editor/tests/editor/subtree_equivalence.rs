//! Export as Subtree and Inline Subtree keep what a tree does (semantics rule 43). Random
//! trees (the generator of the generated-code differential test, so every node kind and
//! every attached decorator with every abort type) each have a random branch exported to a
//! file on disk and then inlined back. The tree before export, the parent after export
//! (loaded with its new file) and the tree after inlining run with the same random
//! stimuli (clock steps, events, triggers, blackboard writes, halts) and must agree after
//! every tick: root status, trace, blackboard and triggers. Inlining back gives the
//! original document again, GUIDs aside.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use arbor_editor::Session;
use arbor_runtime::format::TreeFile;
use arbor_runtime::{Agent, CompiledTree, NodeId, Recorded, Recorder, Registry, ValueType};
use serde_json::{json, Value};

#[path = "../../../runtime/codegen-check/gen/random_tree.rs"]
#[allow(dead_code)] // the generated-code check uses the rest (its host manifest)
mod random_tree;

/// Random trees, stimulus runs per tree and ticks per run.
const TREES: u64 = 160;
const RUNS: u64 = 3;
const TICKS: u32 = 40;

/// The generator's host leaves, as built-in leaves with a status script each: export
/// does not care who implements a leaf, and these trees then load without a host.
fn without_host_leaves(tree: &mut Value) {
    let Some(nodes) = tree["nodes"].as_array_mut() else {
        return;
    };
    for node in nodes {
        let returns = match node["type"].as_str() {
            Some("HostA") => json!(["running", "success"]),
            Some("HostB") => json!(["failure", "running"]),
            Some("HostC") => json!(["success", "failure"]),
            Some("HostS") => json!(["running", "running", "failure"]),
            _ => continue,
        };
        node["type"] = json!("Scripted");
        node["params"] = json!({ "returns": returns });
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn value(ty: &ValueType, r: &mut Rng) -> Value {
    match ty {
        ValueType::Bool => json!(r.chance(50)),
        ValueType::Int => json!(r.below(6)),
        ValueType::Float => json!(r.below(4) as f64 * 0.5),
        _ => [json!("a"), json!(1), json!("z"), json!(true)][r.below(4) as usize].clone(),
    }
}

/// The events of a trace as `event name status`, a Subtree node's spliced root left out:
/// the Subtree node stands where the branch's top stood (same name, same decorators), and
/// its child is the same node again without them.
fn lines(tree: &CompiledTree<()>, events: &[Recorded]) -> Vec<String> {
    let spliced: HashSet<NodeId> = (0..tree.len())
        .map(NodeId::from_index)
        .filter(|&n| tree.info(n).kind == "Subtree")
        .filter_map(|n| tree.children(n).next())
        .collect();
    let name = |n: &NodeId| tree.info(*n).name.clone();
    events
        .iter()
        .filter_map(|e| match e {
            Recorded::Enter(n)
            | Recorded::Abort(n)
            | Recorded::Tick(n, _)
            | Recorded::Exit(n, _)
                if spliced.contains(n) =>
            {
                None
            }
            Recorded::Enter(n) => Some(format!("enter {}", name(n))),
            Recorded::Tick(n, s) => Some(format!("tick {} {s:?}", name(n))),
            Recorded::Exit(n, s) => Some(format!("exit {} {s:?}", name(n))),
            Recorded::Abort(n) => Some(format!("abort {}", name(n))),
            Recorded::Check {
                node,
                decorator,
                passed,
            } => Some(format!("check {}#{decorator} {passed}", name(node))),
            Recorded::Log(n, m) => Some(format!("log {} {m}", name(n))),
        })
        .collect()
}

/// Runs `a` and `b` with the same stimuli; the first difference, located.
fn same_behaviour(
    a: &Arc<CompiledTree<()>>,
    b: &Arc<CompiledTree<()>>,
    seed: u64,
) -> Result<(), String> {
    let mut r = Rng(0x9e37_79b9 ^ seed.wrapping_mul(0x2545_f491) | 1);
    let (mut x, mut y) = (Agent::new(a.clone(), seed), Agent::new(b.clone(), seed));
    let (keys, events, triggers) = (
        a.keys().to_vec(),
        a.events().to_vec(),
        a.triggers().to_vec(),
    );
    for tick in 0..TICKS {
        let at = |what: &str| format!("seed {seed}, tick {tick}: {what} differ");
        for e in &events {
            if r.chance(15) {
                x.raise_event(e);
                y.raise_event(e);
            }
        }
        for t in &triggers {
            if r.chance(15) {
                x.set_trigger(t);
                y.set_trigger(t);
            }
        }
        for k in &keys {
            if r.chance(10) {
                let v = value(&k.ty, &mut r);
                let ttl = r.chance(20).then_some(0.2);
                let ok = x.blackboard_mut().set_json(&k.name, &v, ttl).is_ok();
                if ok != y.blackboard_mut().set_json(&k.name, &v, ttl).is_ok() {
                    return Err(at("blackboard writes"));
                }
            }
        }
        let (mut rx, mut ry) = (Recorder::default(), Recorder::default());
        if r.chance(4) {
            x.halt(&mut (), &mut rx);
            y.halt(&mut (), &mut ry);
        }
        let dt = [0.0, 0.05, 0.1, 0.3][r.below(4) as usize];
        let (sx, sy) = (
            x.tick_traced(&mut (), dt, &mut rx),
            y.tick_traced(&mut (), dt, &mut ry),
        );
        let (tx, ty) = (lines(a, &rx.events), lines(b, &ry.events));
        if (sx, &tx) != (sy, &ty) {
            return Err(format!(
                "{}\n  before: {sx:?} {tx:#?}\n  after:  {sy:?} {ty:#?}",
                at("statuses or traces")
            ));
        }
        let state = |agent: &Agent<()>| {
            // The set of triggers that are set; the agent lists them in its file's
            // declaration order, which an exported subtree file may change.
            let triggers: std::collections::BTreeSet<String> =
                agent.triggers_set().map(str::to_owned).collect();
            (Value::Object(agent.blackboard().to_json()), triggers)
        };
        if state(&x) != state(&y) {
            return Err(format!(
                "{}\n  before: {:?}\n  after:  {:?}",
                at("blackboards or triggers"),
                state(&x),
                state(&y)
            ));
        }
    }
    Ok(())
}

/// The tree's shape from its root, GUIDs left out: what each node is, carries and holds.
fn shape(file: &TreeFile) -> Value {
    fn node(file: &TreeFile, guid: &str) -> Value {
        let Some(n) = file.nodes.iter().find(|n| n.guid == guid) else {
            return json!(null);
        };
        let decorators: Vec<Value> = n
            .decorators
            .iter()
            .map(|d| json!({"type": d.kind, "name": d.name, "params": d.params}))
            .collect();
        let children: Vec<Value> = n.children.iter().map(|c| node(file, c)).collect();
        json!({"type": n.kind, "name": n.name, "params": n.params,
               "decorators": decorators, "children": children})
    }
    let mut keys: Vec<String> = file
        .blackboard
        .iter()
        .map(|k| format!("{} {:?} {:?}", k.key, k.ty, k.default))
        .collect();
    keys.sort();
    json!({"keys": keys, "root": file.root.as_deref().map(|r| node(file, r))})
}

/// Tree `i`, one of its branches exported and inlined back: the first difference.
fn check_tree(i: u64, dir: &Path) -> Result<(), String> {
    let mut text: Value =
        serde_json::from_str(&random_tree::tree(i)).map_err(|e| format!("tree {i}: {e}"))?;
    without_host_leaves(&mut text);
    let path = dir.join(format!("tree{i}.json"));
    let sub = dir.join(format!("branch{i}.json"));
    std::fs::write(&path, text.to_string()).map_err(|e| e.to_string())?;
    let registry = Registry::<()>::new();
    let load = |file: &TreeFile, what: &str| {
        registry
            .loader()
            .load_tree(file, Some(&path))
            .map(Arc::new)
            .map_err(|e| format!("tree {i}: the {what} tree does not load: {e}"))
    };
    let mut session = Session::open(&path).map_err(|e| format!("tree {i}: {e}"))?;
    let original = session.document().to_tree_file();
    let order: Vec<String> = session
        .document()
        .execution_order()
        .iter()
        .map(|g| g.to_string())
        .collect();
    let top = &order[(i as usize * 7 + 3) % order.len()];
    session
        .export_subtree(top, &sub)
        .map_err(|e| format!("tree {i}: export: {e}"))?;
    let before = load(&original, "original")?;
    let exported = load(&session.document().to_tree_file(), "exported")?;
    for seed in 0..RUNS {
        same_behaviour(&before, &exported, seed)
            .map_err(|e| format!("tree {i}, branch {top}, exported: {e}"))?;
    }

    let node = session
        .document()
        .nodes()
        .find(|n| n.kind == "Subtree")
        .map(|n| n.guid.clone())
        .ok_or(format!("tree {i}: no Subtree node after export"))?;
    session
        .inline_subtree(&node)
        .map_err(|e| format!("tree {i}: inline: {e}"))?;
    let inlined = session.document().to_tree_file();
    if shape(&inlined) != shape(&original) {
        return Err(format!(
            "tree {i}, branch {top}: inlining back changed the tree\n  before: {}\n  after:  {}",
            shape(&original),
            shape(&inlined)
        ));
    }
    let back = load(&inlined, "inlined")?;
    same_behaviour(&before, &back, RUNS).map_err(|e| format!("tree {i}, inlined back: {e}"))
}

#[test]
fn rule43_export_and_inline_keep_behaviour_tick_by_tick() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let failures: Vec<String> = (0..TREES)
        .filter_map(|i| check_tree(i, dir.path()).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {TREES} trees changed: {}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A guard condition with a LowerPriority abort on an exported branch still interrupts the
/// lower-priority branch (Patrol) as soon as it holds.
#[test]
fn rule24_lower_priority_abort_survives_export() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let guid = |n: u32| format!("00000000-0000-4000-8000-{n:012}");
    let tree = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "guard",
        "blackboard": [{"key": "enemy_visible", "type": "bool", "default": false}],
        "root": guid(2),
        "nodes": [
            {"guid": guid(2), "name": "root", "type": "Selector", "children": [guid(3), guid(5)]},
            {"guid": guid(3), "name": "attack", "type": "Sequence", "children": [guid(4)],
             "decorators": [{"guid": guid(9), "type": "Condition",
                             "params": {"key": "enemy_visible", "equals": true, "abort": "LowerPriority"}}]},
            {"guid": guid(4), "name": "strike", "type": "Scripted", "params": {"returns": ["success"]}},
            {"guid": guid(5), "name": "Patrol", "type": "Scripted", "params": {"returns": ["running"]}}
        ]
    });
    let path = dir.path().join("guard.json");
    std::fs::write(&path, tree.to_string()).expect("written");
    let mut session = Session::open(&path).expect("opens");
    session
        .export_subtree(&guid(3), &dir.path().join("attack.json"))
        .expect("exports");
    let registry = Registry::<()>::new();
    let exported = registry
        .loader()
        .load_tree(&session.document().to_tree_file(), Some(&path))
        .expect("loads");
    let mut agent = Agent::new(Arc::new(exported), 1);
    let mut statuses = Vec::new();
    for tick in 0..8 {
        if tick == 5 {
            let seen = agent
                .blackboard_mut()
                .set_json("enemy_visible", &json!(true), None);
            assert!(seen.is_ok());
        }
        statuses.push(format!("{:?}", agent.tick(&mut (), 0.1)));
    }
    assert_eq!(statuses[4], "Running", "{statuses:?}");
    assert_eq!(
        statuses[5], "Success",
        "the guard interrupts Patrol: {statuses:?}"
    );
}
