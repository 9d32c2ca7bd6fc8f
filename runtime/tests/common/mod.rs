//! Test helpers: write trees as nested JSON (easy to read), turn them into the flat file
//! format with deterministic GUIDs, tick them, and render traces with node names.
#![allow(dead_code)]

use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, Recorded, Recorder, Registry, Status};
use serde_json::{json, Map, Value};

/// The deterministic GUID number `n`.
pub fn guid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// Flattens a nested node (`{"type", "name"?, "params"?, "decorators"?, "children"?}`) into
/// a tree file with the given blackboard declarations. Names default to the type.
pub fn tree_json(root: Value, blackboard: Value) -> Value {
    let mut nodes = Vec::new();
    let mut counter = 1;
    flatten(&root, &mut nodes, &mut counter);
    json!({
        "format": "arbor-tree",
        "version": 1,
        "guid": guid(0),
        "name": "test",
        "blackboard": blackboard,
        "root": guid(1),
        "nodes": nodes,
    })
}

fn flatten(node: &Value, out: &mut Vec<Value>, counter: &mut usize) -> String {
    let id = guid(*counter);
    *counter += 1;
    let index = out.len();
    let kind = node["type"].as_str().unwrap_or("?").to_owned();
    let mut def = Map::new();
    def.insert("guid".into(), json!(id));
    def.insert(
        "name".into(),
        node.get("name").cloned().unwrap_or(json!(kind)),
    );
    def.insert("type".into(), json!(kind));
    if let Some(p) = node.get("params") {
        def.insert("params".into(), p.clone());
    }
    if let Some(ds) = node.get("decorators").and_then(Value::as_array) {
        let ds: Vec<Value> = ds
            .iter()
            .map(|d| {
                let g = guid(*counter);
                *counter += 1;
                let mut d = d.as_object().cloned().unwrap_or_default();
                d.insert("guid".into(), json!(g));
                let kind = d.get("type").cloned().unwrap_or(json!(""));
                d.entry("name").or_insert(kind);
                Value::Object(d)
            })
            .collect();
        def.insert("decorators".into(), json!(ds));
    }
    out.push(Value::Object(def));
    if let Some(children) = node.get("children").and_then(Value::as_array) {
        let ids: Vec<String> = children.iter().map(|c| flatten(c, out, counter)).collect();
        out[index]["children"] = json!(ids);
    }
    id
}

/// Compiles a nested tree with built-in nodes only.
pub fn compile(root: Value, blackboard: Value) -> Arc<CompiledTree<()>> {
    let text = tree_json(root, blackboard).to_string();
    match Registry::<()>::new().loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// An agent on a nested tree, seeded 1.
pub fn agent(root: Value, blackboard: Value) -> Agent<()> {
    Agent::new(compile(root, blackboard), 1)
}

/// One tick with dt = 1: the root's status and the trace as `enter A`, `tick A success`,
/// `exit A success`, `abort A`, `exit A aborted`, `check A#0 true` strings.
pub fn step(agent: &mut Agent<()>) -> (Status, Vec<String>) {
    let mut rec = Recorder::default();
    let status = agent.tick_traced(&mut (), 1.0, &mut rec);
    (status, render(agent.tree(), &rec))
}

/// Like [`step`] without decorator checks and logs: just the lifecycle.
pub fn step_lifecycle(agent: &mut Agent<()>) -> (Status, Vec<String>) {
    let (status, events) = step(agent);
    (
        status,
        events
            .into_iter()
            .filter(|e| !e.starts_with("check") && !e.starts_with("log"))
            .collect(),
    )
}

pub fn render<C>(tree: &CompiledTree<C>, rec: &Recorder) -> Vec<String> {
    let name = |n: arbor_runtime::NodeId| tree.info(n).name.clone();
    rec.events
        .iter()
        .map(|e| match e {
            Recorded::Enter(n) => format!("enter {}", name(*n)),
            Recorded::Tick(n, s) => format!("tick {} {s}", name(*n)),
            Recorded::Exit(n, Some(s)) => format!("exit {} {s}", name(*n)),
            Recorded::Exit(n, None) => format!("exit {} aborted", name(*n)),
            Recorded::Abort(n) => format!("abort {}", name(*n)),
            Recorded::Check {
                node,
                decorator,
                passed,
            } => format!("check {}#{decorator} {passed}", name(*node)),
            Recorded::Log(n, m) => format!("log {} {m}", name(*n)),
        })
        .collect()
}

/// Only the body executions (`tick` events) of a trace, as node names.
pub fn ticked(events: &[String]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.strip_prefix("tick "))
        .map(|e| e.rsplit_once(' ').map_or(e, |(n, _)| n).to_owned())
        .collect()
}

/// A Scripted leaf.
pub fn scripted(name: &str, returns: &[&str]) -> Value {
    json!({"type": "Scripted", "name": name, "params": {"returns": returns}})
}
