//! The view cache: egui_node_graph2's graph rebuilt from the document whenever the session's
//! generation changes (an edit, undo or redo), so the canvas can never drift from the model.
//! Rebuilding is linear in the document and happens only on change, not every frame.

use std::collections::HashMap;

use arbor_runtime::format::{DecoratorDef, NodeDef};
use arbor_runtime::{Category, NodeTypes, Report, Severity};
use egui_node_graph2 as eng;
use eng::{InputId, NodeId, OutputId};
use serde_json::Value;

use super::view::{Graph, GraphState, NoValue, NodeView, Port};
use crate::document::Document;
use crate::Session;

/// The graph the canvas draws, and how its ids map to document GUIDs.
#[derive(Default)]
pub struct ViewCache {
    pub state: GraphState,
    pub ids: HashMap<String, NodeId>,
    pub guids: HashMap<NodeId, String>,
    pub inputs: HashMap<NodeId, InputId>,
    pub outputs: HashMap<NodeId, OutputId>,
    /// The session generation last synced, and the session it came from.
    pub synced: Option<u64>,
}

impl ViewCache {
    pub fn guid(&self, id: NodeId) -> Option<&str> {
        self.guids.get(&id).map(String::as_str)
    }

    /// The GUID of the node owning an input or output port.
    pub fn owner_of_input(&self, input: InputId) -> Option<&str> {
        let node = self.state.graph.try_get_input(input)?.node;
        self.guid(node)
    }

    pub fn owner_of_output(&self, output: OutputId) -> Option<&str> {
        let node = self.state.graph.try_get_output(output)?.node;
        self.guid(node)
    }

    /// Rebuilds the graph from the document, keeping the camera.
    pub fn rebuild(&mut self, session: &Session, report: &Report) {
        let doc = session.document();
        let types = session.types();
        let index = doc.execution_index();
        let mut graph = Graph::new();
        self.ids.clear();
        self.guids.clear();
        self.inputs.clear();
        self.outputs.clear();
        let mut order = Vec::with_capacity(doc.node_count());
        // Members of collapsed groups are not drawn; the group's box stands for them.
        let hidden = super::annotations::hidden_nodes(doc);
        // The library keeps positions in a slotmap it does not re-export: reset it in place.
        self.state.node_positions = Default::default();
        for node in doc.nodes().filter(|n| !hidden.contains(&n.guid)) {
            let mut view = node_view(doc, types, report, node, index.get(&node.guid).copied());
            if node.kind == "Subtree" {
                // The referenced tree and a compact remap replace the raw parameters.
                let path = node
                    .params
                    .get("path")
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                let keys: Vec<&str> = node
                    .params
                    .get("remap")
                    .and_then(Value::as_object)
                    .map(|m| m.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                view.summary = vec![subtree_summary(session.path(), node), path.to_owned()];
                if !keys.is_empty() {
                    view.summary.push(format!("remaps {}", keys.join(", ")));
                }
            }
            let takes_children = match view.category {
                Some(Category::Composite | Category::Decorator) => true,
                Some(_) => false,
                // Unknown type: keep its connections visible.
                None => !node.children.is_empty(),
            };
            let label = if node.name.is_empty() {
                node.kind.clone()
            } else {
                node.name.clone()
            };
            let mut input = None;
            let mut output = None;
            let id = graph.add_node(label, view, |g, id| {
                input = Some(g.add_input_param(
                    id,
                    "parent".into(),
                    Port,
                    NoValue,
                    eng::InputParamKind::ConnectionOnly,
                    true,
                ));
                if takes_children {
                    output = Some(g.add_output_param(id, "children".into(), Port));
                }
            });
            if let Some(i) = input {
                self.inputs.insert(id, i);
            }
            if let Some(o) = output {
                self.outputs.insert(id, o);
            }
            self.ids.insert(node.guid.clone(), id);
            self.guids.insert(id, node.guid.clone());
            self.state.node_positions.insert(id, egui::Pos2::ZERO);
            order.push(id);
        }
        for node in doc.nodes() {
            let (Some(&parent), true) = (self.ids.get(&node.guid), !node.children.is_empty())
            else {
                continue;
            };
            let Some(&output) = self.outputs.get(&parent) else {
                continue;
            };
            for child in &node.children {
                if let Some(input) = self.ids.get(child).and_then(|c| self.inputs.get(c)) {
                    graph.add_connection(output, *input, 0);
                }
            }
        }
        let state = &mut self.state;
        state.graph = graph;
        state.node_order = order;
        state.selected_nodes.clear();
        state.connection_in_progress = None;
        state.node_finder = None;
        self.synced = Some(session.generation());
    }
}

fn node_view(
    doc: &Document,
    types: &NodeTypes,
    report: &Report,
    node: &NodeDef,
    index: Option<usize>,
) -> NodeView {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for problem in report.for_node(&node.guid) {
        match problem.severity {
            Severity::Error => errors.push(problem.message()),
            Severity::Warning => warnings.push(problem.message()),
        }
    }
    NodeView {
        guid: node.guid.clone(),
        kind: node.kind.clone(),
        category: types.node(&node.kind).map(|t| t.category),
        index,
        is_root: doc.root() == Some(node.guid.as_str()),
        summary: summary(&node.params),
        decorators: node.decorators.iter().map(decorator_label).collect(),
        errors,
        warnings,
    }
}

/// What a Subtree node refers to: the referenced tree's name and root type, read from its
/// file (relative to this document's file), or why it cannot be read.
fn subtree_summary(doc_path: Option<&std::path::Path>, node: &NodeDef) -> String {
    let Some(rel) = node.params.get("path").and_then(Value::as_str) else {
        return "no file yet".to_owned();
    };
    let Some(dir) = doc_path.and_then(std::path::Path::parent) else {
        return format!("{rel} (save this tree to resolve it)");
    };
    let path = dir.join(rel);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(_) => return format!("{rel}: file not found"),
    };
    match arbor_runtime::parse_str(&text, Some(&path)) {
        Ok(file) => {
            let root = file
                .root
                .as_deref()
                .and_then(|r| file.node(r))
                .map_or("no root", |n| n.kind.as_str());
            format!("tree \"{}\" · root {root}", file.name)
        }
        Err(_) => format!("{rel}: not a valid tree file"),
    }
}

/// Up to three `name = value` lines of the parameters the file sets.
fn summary(params: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut lines: Vec<String> = params
        .iter()
        .take(3)
        .map(|(k, v)| format!("{k} = {}", short(v)))
        .collect();
    if params.len() > 3 {
        lines.push(format!("… {} more", params.len() - 3));
    }
    lines
}

/// A compact, bounded rendering of a JSON value.
pub fn short(v: &Value) -> String {
    let text = match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    };
    if text.chars().count() > 28 {
        let cut: String = text.chars().take(26).collect();
        format!("{cut}…")
    } else {
        text
    }
}

/// `Condition hungry == true [abort LowerPriority]` and the like.
pub fn decorator_label(d: &DecoratorDef) -> String {
    let p = &d.params;
    let s = |k: &str| p.get(k).map(short).unwrap_or_default();
    let not = if p.get("invert").and_then(Value::as_bool) == Some(true) {
        "not "
    } else {
        ""
    };
    let mut label = match d.kind.as_str() {
        "Condition" | "Precondition" => {
            let other = match p.get("equals_key").and_then(Value::as_str) {
                Some(k) => format!("@{k}"),
                None => s("equals"),
            };
            let key = p.get("key").and_then(Value::as_str).unwrap_or("?");
            format!("{} {not}{key} == {other}", d.kind)
        }
        "CheckEvent" => format!("{not}event {}", s("event")),
        "CheckTrigger" => {
            let reset = p
                .get("reset")
                .and_then(Value::as_str)
                .unwrap_or("Immediate");
            format!("{not}trigger {} ({reset})", s("trigger"))
        }
        other => other.to_owned(),
    };
    if let Some(abort) = p
        .get("abort")
        .and_then(Value::as_str)
        .filter(|a| *a != "None")
    {
        label.push_str(&format!(" [abort {abort}]"));
    }
    if d.kind == "Precondition" {
        label.push_str(" [abort Self]");
    }
    label
}
