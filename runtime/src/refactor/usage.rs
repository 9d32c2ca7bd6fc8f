//! A place in a tree file where a key or a type is used, and the type walk (node and
//! decorator `type` fields).

use serde::Serialize;

use crate::format::TreeFile;

/// How a key or type is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UsageKind {
    /// A node's `type`.
    NodeType,
    /// An attached decorator's `type`.
    DecoratorType,
    /// The key's declaration in `blackboard`.
    KeyDeclaration,
    /// A parameter bound to the key (`{"$key": …}`).
    Binding,
    /// A parameter that names a key (`SetBlackboard.key`, …).
    KeyParam,
    /// A Subtree `remap` entry that maps to this file's key.
    Remap,
    /// A Subtree `remap` entry that names the subtree file's key.
    RemapName,
    /// A script that names the key (once or more).
    Script,
}

impl UsageKind {
    /// The kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            UsageKind::NodeType => "node-type",
            UsageKind::DecoratorType => "decorator-type",
            UsageKind::KeyDeclaration => "key-declaration",
            UsageKind::Binding => "binding",
            UsageKind::KeyParam => "key-param",
            UsageKind::Remap => "remap",
            UsageKind::RemapName => "remap-name",
            UsageKind::Script => "script",
        }
    }
}

/// One use, located as the loader locates problems.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Usage {
    /// How it is used.
    pub kind: UsageKind,
    /// Where: `$.nodes[3].params.key`, `$.blackboard[0].key`.
    pub json_path: String,
    /// The GUID of the node concerned (the decorator's node for a decorator).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// `"Walk" (WalkTo)`: the node for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_label: Option<String>,
}

impl Usage {
    pub(crate) fn at(
        kind: UsageKind,
        json_path: String,
        node: Option<&crate::format::NodeDef>,
    ) -> Usage {
        Usage {
            kind,
            json_path,
            node: node.map(|n| n.guid.clone()),
            node_label: node.map(|n| format!("\"{}\" ({})", n.name, n.kind)),
        }
    }
}

/// Every node and decorator of type `name`.
pub fn type_usages(file: &TreeFile, name: &str) -> Vec<Usage> {
    let mut copy = file.clone();
    walk_types(&mut copy, name, None)
}

/// Renames type `old` to `new` in every node's and decorator's `type`; returns the
/// places changed.
pub fn rename_type(file: &mut TreeFile, old: &str, new: &str) -> Vec<Usage> {
    walk_types(file, old, Some(new))
}

fn walk_types(file: &mut TreeFile, old: &str, new: Option<&str>) -> Vec<Usage> {
    let mut out = Vec::new();
    for (i, node) in file.nodes.iter_mut().enumerate() {
        if node.kind == old {
            out.push(Usage::at(
                UsageKind::NodeType,
                format!("$.nodes[{i}].type"),
                Some(node),
            ));
        }
        let at_node = Usage::at(UsageKind::DecoratorType, String::new(), Some(node));
        for (j, d) in node.decorators.iter_mut().enumerate() {
            if d.kind == old {
                out.push(Usage {
                    json_path: format!("$.nodes[{i}].decorators[{j}].type"),
                    ..at_node.clone()
                });
                if let Some(new) = new {
                    d.kind = new.to_owned();
                }
            }
        }
        if let (Some(new), true) = (new, node.kind == old) {
            node.kind = new.to_owned();
        }
    }
    out
}
