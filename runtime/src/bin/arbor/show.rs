//! `arbor show FILE [--json]`: the tree's outline: its keys, then its nodes depth first
//! from the root (each with its decorators and parameters), then the unconnected ones.
//! The outline is a flat list with depths, built without recursion, so the deepest file
//! prints as any other.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use arbor_runtime::format::{NodeDef, TreeFile};
use clap::Args;
use serde_json::{json, Value};

use super::output::Failure;

#[derive(Args)]
pub(super) struct ShowArgs {
    /// The tree file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Print one JSON document (docs/cli.md) instead of the indented outline.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: &ShowArgs) -> Result<bool, Failure> {
    let [tree] = super::inputs::read_all([&args.file])?;
    let outline = outline(&tree);
    if args.json {
        let keys: Vec<Value> = tree
            .blackboard
            .iter()
            .map(|k| {
                let mut v = json!({"key": k.key, "type": k.ty.as_str()});
                if let Some(d) = &k.default {
                    v["default"] = d.clone();
                }
                if !k.description.is_empty() {
                    v["description"] = json!(k.description);
                }
                v
            })
            .collect();
        let nodes: Vec<Value> = outline
            .iter()
            .map(|(n, depth, parent)| {
                json!({
                    "guid": n.guid, "name": n.name, "type": n.kind, "enabled": n.enabled,
                    "depth": depth, "parent": parent, "params": n.params,
                    "decorators": n.decorators.iter().map(|d| json!({
                        "guid": d.guid, "name": d.name, "type": d.kind, "params": d.params,
                    })).collect::<Vec<_>>(),
                    "children": n.children,
                })
            })
            .collect();
        let doc = json!({
            "guid": tree.guid, "name": tree.name, "description": tree.description,
            "root": tree.root, "blackboard": keys, "nodes": nodes,
        });
        super::output::write(&format!("{doc:#}\n"))?;
        return Ok(true);
    }
    say_out!("tree \"{}\" {}", tree.name, tree.guid);
    for k in &tree.blackboard {
        match &k.default {
            Some(d) => say_out!("key {}: {} = {d}", k.key, k.ty.as_str()),
            None => say_out!("key {}: {}", k.key, k.ty.as_str()),
        }
    }
    let mut unconnected_said = false;
    for (n, depth, parent) in &outline {
        if *depth == 0
            && parent.is_none()
            && Some(&n.guid) != tree.root.as_ref()
            && !unconnected_said
        {
            say_out!("unconnected:");
            unconnected_said = true;
        }
        let indent = "  ".repeat(*depth + 1);
        let off = if n.enabled { "" } else { " (disabled)" };
        say_out!(
            "{indent}{} \"{}\"{off} {}{}",
            n.kind,
            n.name,
            n.guid,
            params(&n.params)
        );
        for d in &n.decorators {
            say_out!(
                "{indent}  @{} \"{}\" {}{}",
                d.kind,
                d.name,
                d.guid,
                params(&d.params)
            );
        }
    }
    Ok(true)
}

fn params(params: &serde_json::Map<String, Value>) -> String {
    params.iter().map(|(k, v)| format!(" {k}={v}")).collect()
}

/// The nodes depth first from the root, then each unconnected one with its descendants:
/// (node, depth, parent GUID).
fn outline(tree: &TreeFile) -> Vec<(&NodeDef, usize, Option<String>)> {
    let by_guid: HashMap<&str, &NodeDef> =
        tree.nodes.iter().map(|n| (n.guid.as_str(), n)).collect();
    let children: HashSet<&str> = tree
        .nodes
        .iter()
        .flat_map(|n| n.children.iter().map(String::as_str))
        .collect();
    let heads = tree.root.iter().map(String::as_str).chain(
        tree.nodes
            .iter()
            .map(|n| n.guid.as_str())
            .filter(|g| !children.contains(g) && Some(*g) != tree.root.as_deref()),
    );
    let mut out = Vec::with_capacity(tree.nodes.len());
    let mut seen = HashSet::new();
    for head in heads {
        let mut stack = vec![(head, 0usize, None::<String>)];
        while let Some((g, depth, parent)) = stack.pop() {
            let Some(n) = by_guid.get(g) else { continue };
            if !seen.insert(g) {
                continue;
            }
            stack.extend(
                n.children
                    .iter()
                    .rev()
                    .map(|c| (c.as_str(), depth + 1, Some(n.guid.clone()))),
            );
            out.push((*n, depth, parent));
        }
    }
    out
}
