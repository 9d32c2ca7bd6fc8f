//! Helpers for the BehaviorTree.CPP interop tests: fixtures, scratch folders, the shape of
//! an imported tree (what must survive an import -> export -> import round trip), and
//! running imported trees with stand-ins.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_runtime::btcpp::{import_file, stand_in_registry, Imported, StandIns};
use arbor_runtime::format::{NodeDef, TreeFile};
use arbor_runtime::{Agent, CompiledTree, NodeInfo, Recorder, Status};
use serde_json::{json, Value};

pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/btcpp")
        .join(name)
}

/// A fresh, empty scratch folder for one test.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-btcpp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Imports a fixture; panics with every problem if it does not import.
pub fn import(name: &str, stem: &str) -> Imported {
    match import_file(&fixture_path(name), stem) {
        Ok(i) => i,
        Err(e) => panic!("{name} should import:\n{e}"),
    }
}

/// Imports a fixture and writes the files into a scratch folder; returns the folder.
pub fn import_to(name: &str, stem: &str, dir_name: &str) -> (Imported, PathBuf) {
    let imported = import(name, stem);
    let dir = tempdir(dir_name);
    imported.write_to(&dir).expect("files written");
    (imported, dir)
}

/// The node with this name (panics if there is none or several).
pub fn node<'f>(file: &'f TreeFile, name: &str) -> &'f NodeDef {
    let mut found = file.nodes.iter().filter(|n| n.name == name);
    let n = found
        .next()
        .unwrap_or_else(|| panic!("no node named {name} in {}", file.name));
    assert!(found.next().is_none(), "several nodes named {name}");
    n
}

/// The children of a node, as nodes.
pub fn children<'f>(file: &'f TreeFile, n: &NodeDef) -> Vec<&'f NodeDef> {
    n.children
        .iter()
        .map(|c| file.node(c).expect("child exists"))
        .collect()
}

/// Type, name, params, decorators (type, params) and children, recursively from the root:
/// everything but GUIDs and positions.
pub fn shape(file: &TreeFile) -> Value {
    fn go(file: &TreeFile, guid: &str) -> Value {
        let n = file.node(guid).expect("node exists");
        let decorators: Vec<Value> = n
            .decorators
            .iter()
            .map(|d| json!({"type": d.kind, "params": d.params}))
            .collect();
        let children: Vec<Value> = n.children.iter().map(|c| go(file, c)).collect();
        json!({"type": n.kind, "name": n.name, "params": n.params,
               "decorators": decorators, "children": children})
    }
    let root = file.root.as_deref().expect("a root");
    json!({"name": file.name,
           "blackboard": file.blackboard.iter()
               .map(|d| json!({"key": d.key, "type": d.ty, "default": d.default}))
               .collect::<Vec<_>>(),
           "root": go(file, root)})
}

/// The shapes of all files of an import, by tree ID, and its host types.
pub fn shapes(imported: &Imported) -> Value {
    let files: serde_json::Map<String, Value> = imported
        .files
        .iter()
        .map(|f| {
            (
                f.tree_id.clone(),
                json!({"file": f.file_name, "shape": shape(&f.tree)}),
            )
        })
        .collect();
    // Types by name, category and parameters (descriptions may gain the model's port
    // notes on a second import).
    let types: Vec<Value> = imported
        .types
        .iter()
        .map(|t| {
            let params: Vec<Value> = t
                .params
                .iter()
                .map(|p| json!({"name": p.name, "kind": p.kind, "default": p.default}))
                .collect();
            json!({"name": t.name, "category": t.category, "params": params})
        })
        .collect();
    json!({"files": files, "types": types})
}

/// The `editor.btcpp` object of a file.
pub fn meta(file: &TreeFile) -> Value {
    file.editor
        .as_ref()
        .and_then(|e| e.get("btcpp"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Loads the main file of an import written to `dir` (so that subtree files resolve) with
/// stand-ins for every host type.
pub fn load(imported: &Imported, dir: &Path) -> Arc<CompiledTree<StandIns>> {
    let registry = stand_in_registry(&imported.node_types());
    let path = dir.join(&imported.files[0].file_name);
    match registry.loader().load_file(&path) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("{} should load:\n{e}", path.display()),
    }
}

/// The value of the agent's key `name` as JSON; `None` when it has none (or no such key).
pub fn value(agent: &Agent<StandIns>, name: &str) -> Option<Value> {
    let board = agent.blackboard();
    board
        .key(name)
        .and_then(|k| board.get(k))
        .map(|v| v.to_json())
}

/// Writes the import into a fresh folder `dir_name`, loads it with stand-ins scripted by
/// node name, and gives an agent (seed 1) and its data.
pub fn running(
    imported: &Imported,
    dir_name: &str,
    by_name: &[(&str, &[&str])],
) -> (Agent<StandIns>, StandIns) {
    let dir = tempdir(dir_name);
    imported.write_to(&dir).expect("written");
    let tree = load(imported, &dir);
    let data = scripts(&tree, by_name);
    (Agent::new(tree, 1), data)
}

/// Stand-in scripts by node name.
pub fn scripts(tree: &CompiledTree<StandIns>, by_name: &[(&str, &[&str])]) -> StandIns {
    StandIns::scripted(tree, |info: &NodeInfo| {
        by_name.iter().find(|(n, _)| *n == info.name).map(|(_, s)| {
            s.iter()
                .map(|x| Status::parse(x).expect("a status"))
                .collect()
        })
    })
}

/// One tick with dt = 1; the root's status and the names of the nodes whose body ran.
pub fn tick(agent: &mut Agent<StandIns>, data: &mut StandIns) -> (Status, Vec<String>) {
    let mut rec = Recorder::default();
    let status = agent.tick_traced(data, 1.0, &mut rec);
    let tree = agent.tree().clone();
    let ticked = rec
        .events
        .iter()
        .filter_map(|e| match e {
            arbor_runtime::Recorded::Tick(n, _) => Some(tree.info(*n).name.clone()),
            _ => None,
        })
        .collect();
    (status, ticked)
}

/// One tick, the lifecycle events (`enter X`, `abort X`, …) of the trace.
pub fn tick_events(agent: &mut Agent<StandIns>, data: &mut StandIns) -> (Status, Vec<String>) {
    let mut rec = Recorder::default();
    let status = agent.tick_traced(data, 1.0, &mut rec);
    let tree = agent.tree().clone();
    let name = |n: arbor_runtime::NodeId| tree.info(n).name.clone();
    let events = rec
        .events
        .iter()
        .filter_map(|e| match e {
            arbor_runtime::Recorded::Enter(n) => Some(format!("enter {}", name(*n))),
            arbor_runtime::Recorded::Tick(n, s) => Some(format!("tick {} {s}", name(*n))),
            arbor_runtime::Recorded::Exit(n, Some(s)) => Some(format!("exit {} {s}", name(*n))),
            arbor_runtime::Recorded::Exit(n, None) => Some(format!("exit {} aborted", name(*n))),
            arbor_runtime::Recorded::Abort(n) => Some(format!("abort {}", name(*n))),
            _ => None,
        })
        .collect();
    (status, events)
}

/// An element as comparable data: tag, attributes (as a sorted map), children.
pub fn elements(node: roxmltree::Node<'_, '_>) -> Value {
    let attrs: serde_json::Map<String, Value> = node
        .attributes()
        .map(|a| (a.name().to_owned(), json!(a.value())))
        .collect();
    let children: Vec<Value> = node
        .children()
        .filter(roxmltree::Node::is_element)
        .map(elements)
        .collect();
    json!({"tag": node.tag_name().name(), "attrs": attrs, "children": children})
}

/// The `<BehaviorTree>` elements of a document, by ID.
pub fn trees(xml: &str) -> Value {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let map: serde_json::Map<String, Value> = doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("BehaviorTree"))
        .map(|n| (n.attribute("ID").unwrap_or("").to_owned(), elements(n)))
        .collect();
    Value::Object(map)
}

/// Ports of BT.CPP's built-in nodes (their `providedPorts()`), with the number of
/// children they take: `None` leaf, `Some(1)` decorator, `Some(0)` control (1 or more).
const BUILTINS: &[(&str, &[&str], Option<usize>)] = &[
    ("Sequence", &[], Some(0)),
    ("SequenceWithMemory", &[], Some(0)),
    ("ReactiveSequence", &[], Some(0)),
    ("Fallback", &[], Some(0)),
    ("ReactiveFallback", &[], Some(0)),
    ("Parallel", &["success_count", "failure_count"], Some(0)),
    ("IfThenElse", &[], Some(0)),
    ("WhileDoElse", &[], Some(0)),
    ("Switch2", &["variable", "case_1", "case_2"], Some(0)),
    (
        "Switch3",
        &["variable", "case_1", "case_2", "case_3"],
        Some(0),
    ),
    (
        "Switch4",
        &["variable", "case_1", "case_2", "case_3", "case_4"],
        Some(0),
    ),
    ("Inverter", &[], Some(1)),
    ("ForceSuccess", &[], Some(1)),
    ("ForceFailure", &[], Some(1)),
    ("Repeat", &["num_cycles"], Some(1)),
    ("RetryUntilSuccessful", &["num_attempts"], Some(1)),
    ("KeepRunningUntilFailure", &[], Some(1)),
    ("Timeout", &["msec"], Some(1)),
    ("Delay", &["delay_msec"], Some(1)),
    ("RunOnce", &["then_skip"], Some(1)),
    ("Precondition", &["if", "else"], Some(1)),
    ("LoopInt", &["queue", "if_empty", "value"], Some(1)),
    ("LoopDouble", &["queue", "if_empty", "value"], Some(1)),
    ("LoopString", &["queue", "if_empty", "value"], Some(1)),
    ("LoopBool", &["queue", "if_empty", "value"], Some(1)),
    ("ParallelAll", &["max_failures"], Some(0)),
    ("WaitValueUpdate", &["entry"], Some(1)),
    ("SkipUnlessUpdated", &["entry"], Some(1)),
    ("WasEntryUpdated", &["entry"], None),
    ("UnsetBlackboard", &["key"], None),
    ("AlwaysSuccess", &[], None),
    ("AlwaysFailure", &[], None),
    ("Script", &["code"], None),
    ("ScriptCondition", &["code"], None),
    ("SetBlackboard", &["value", "output_key"], None),
    ("Sleep", &["msec"], None),
];

/// Checks a document against the rules BT.CPP applies when it loads one
/// (`xml_parsing.cpp`: `VerifyXML` and `createNodeFromXML`): `<root BTCPP_format="4">`,
/// `main_tree_to_execute` names a tree, each `<BehaviorTree>` has one child, every element
/// is a built-in or a node declared in `<TreeNodesModel>`, decorators have one child,
/// controls at least one, leaves none, every port attribute is a port of the node's
/// model, and every `<SubTree ID>` names a tree. Returns the violations.
pub fn btcpp_violations(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let doc = match roxmltree::Document::parse(xml) {
        Ok(d) => d,
        Err(e) => return vec![format!("not XML: {e}")],
    };
    let root = doc.root_element();
    if !root.has_tag_name("root") || root.attribute("BTCPP_format") != Some("4") {
        out.push("the document element must be <root BTCPP_format=\"4\">".to_owned());
    }
    let trees: Vec<&str> = root
        .children()
        .filter(|n| n.has_tag_name("BehaviorTree"))
        .filter_map(|n| n.attribute("ID"))
        .collect();
    if let Some(main) = root.attribute("main_tree_to_execute") {
        if !trees.contains(&main) {
            out.push(format!("main_tree_to_execute `{main}` is not a tree"));
        }
    }
    // Custom node models: ID -> (element, ports).
    let mut models: std::collections::HashMap<String, (String, Vec<String>)> = Default::default();
    for m in root
        .children()
        .filter(|n| n.has_tag_name("TreeNodesModel"))
        .flat_map(|n| n.children().filter(roxmltree::Node::is_element))
    {
        let ports = m
            .children()
            .filter(|p| p.is_element() && p.tag_name().name().ends_with("_port"))
            .filter_map(|p| p.attribute("name").map(str::to_owned))
            .collect();
        let id = m.attribute("ID").unwrap_or("").to_owned();
        models.insert(id, (m.tag_name().name().to_owned(), ports));
    }
    fn check(
        n: roxmltree::Node<'_, '_>,
        trees: &[&str],
        models: &std::collections::HashMap<String, (String, Vec<String>)>,
        out: &mut Vec<String>,
    ) {
        let tag = n.tag_name().name();
        let kids: Vec<_> = n.children().filter(roxmltree::Node::is_element).collect();
        let ports: Vec<&str> = n
            .attributes()
            .map(|a| a.name())
            .filter(|a| *a != "name" && !a.starts_with('_'))
            .collect();
        if tag == "SubTree" {
            let id = n.attribute("ID").unwrap_or("");
            if !trees.contains(&id) {
                out.push(format!("<SubTree ID=\"{id}\"> names no tree"));
            }
            if !kids.is_empty() {
                out.push(format!("<SubTree ID=\"{id}\"> has children"));
            }
            return;
        }
        let (allowed, children): (Vec<String>, Option<usize>) =
            match BUILTINS.iter().find(|(b, _, _)| *b == tag) {
                Some((_, ports, c)) => (ports.iter().map(|p| (*p).to_owned()).collect(), *c),
                None => match models.get(tag) {
                    Some((element, ports)) => (
                        ports.clone(),
                        match element.as_str() {
                            "Decorator" => Some(1),
                            "Control" => Some(0),
                            _ => None,
                        },
                    ),
                    None => {
                        out.push(format!(
                            "<{tag}> is neither built in nor in <TreeNodesModel>"
                        ));
                        (Vec::new(), None)
                    }
                },
            };
        for p in ports {
            if !allowed.iter().any(|a| a == p) {
                out.push(format!("<{tag}>: port `{p}` is not in its model"));
            }
        }
        match (children, kids.len()) {
            (None, 0) | (Some(1), 1) => {}
            (Some(0), k) if k > 0 => {}
            (expected, found) => out.push(format!(
                "<{tag}> has {found} children (expected {})",
                match expected {
                    None => "none",
                    Some(1) => "one",
                    _ => "one or more",
                }
            )),
        }
        for k in kids {
            check(k, trees, models, out);
        }
    }
    for t in root.children().filter(|n| n.has_tag_name("BehaviorTree")) {
        let kids: Vec<_> = t.children().filter(roxmltree::Node::is_element).collect();
        if kids.len() != 1 {
            out.push("a <BehaviorTree> must have exactly one child".to_owned());
        }
        for k in kids {
            check(k, &trees, &models, &mut out);
        }
    }
    out
}

/// Ticks (dt = 1) until the root is not running, at most `max` ticks; the last status, the
/// names of the nodes whose body ran over all those ticks, and the number of ticks.
pub fn tick_to_end(
    agent: &mut Agent<StandIns>,
    data: &mut StandIns,
    max: usize,
) -> (Status, Vec<String>, usize) {
    let mut all = Vec::new();
    for n in 1..=max {
        let (status, ticked) = tick(agent, data);
        all.extend(ticked);
        if status != Status::Running {
            return (status, all, n);
        }
    }
    (Status::Running, all, max)
}
