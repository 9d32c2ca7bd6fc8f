//! TreeFile and its parts. Field order here is the order in the file, so that saved files
//! have a stable layout; maps are sorted (serde_json's default `Map` is a BTreeMap).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

use super::Conflict;
use crate::value::ValueType;

/// The value of the `format` field.
pub const FORMAT_NAME: &str = "arbor-tree";
/// The newest file format version this build reads and the one it writes. Version 2 added
/// bindings (`{"$key": "name"}` parameter values) and list and map value types; version 3
/// the `enabled` field of nodes.
pub const FORMAT_VERSION: u64 = 3;
/// The oldest file format version this build reads (and reads as it always was).
pub const OLDEST_FORMAT_VERSION: u64 = 1;

/// One tree file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeFile {
    /// Always `"arbor-tree"`.
    pub format: String,
    /// File format version; see [`FORMAT_VERSION`].
    pub version: u64,
    /// The tree's identity, used to match a running instance to an open document.
    pub guid: String,
    /// The tree's name, shown in the editor and used by subtree references in messages.
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    /// What the tree does, for designers.
    pub description: String,
    /// Declared blackboard keys, in display order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blackboard: Vec<KeyDecl>,
    /// GUID of the root node. `None` while a new document has no root yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// Every node, connected or not. Writers put them in depth-first order from the root,
    /// then the unconnected ones.
    #[serde(default)]
    pub nodes: Vec<NodeDef>,
    /// Editor data (positions, notes, groups). The runtime keeps it opaque.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub editor: Option<Value>,
    /// What a merge left undecided (`arbor merge`); the loader reports each as an error.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    /// Fields this version does not know; reported by the loader as problems.
    #[serde(flatten, skip_serializing)]
    pub unknown: BTreeMap<String, Value>,
}

/// A declared blackboard key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyDecl {
    /// The key's name.
    pub key: String,
    #[serde(rename = "type")]
    /// The key's value type (`float`, `list<string>`, …).
    pub ty: ValueType,
    /// Written at time 0 (rule 2). Without it the key has no valid value until written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    /// What the key means, for designers.
    pub description: String,
    #[serde(flatten, skip_serializing)]
    /// Fields this version does not know; reported by the loader as problems.
    pub unknown: BTreeMap<String, Value>,
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeDef {
    /// The node's identity, unique in the file (a UUID).
    pub guid: String,
    #[serde(default)]
    /// The node's display name (free text).
    pub name: String,
    /// The node type: a built-in (`Sequence`, `Wait`, …) or a host type.
    #[serde(rename = "type")]
    pub kind: String,
    /// `false` switches the node and its branch off: it runs as if it were absent
    /// (docs/semantics.md rule 79; version 3). Written only when `false`.
    #[serde(default = "enabled", skip_serializing_if = "is_enabled")]
    pub enabled: bool,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    /// Parameters by name: literals, or bindings `{"$key": "name"}` (version 2).
    pub params: Map<String, Value>,
    /// Attached decorators, top first (rule 21).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decorators: Vec<DecoratorDef>,
    /// Children's GUIDs, in execution order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
    #[serde(flatten, skip_serializing)]
    /// Fields this version does not know; reported by the loader as problems.
    pub unknown: BTreeMap<String, Value>,
}

/// A decorator attached to a node (rules 21 and 22).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecoratorDef {
    /// The decorator's identity, unique in the file (a UUID).
    pub guid: String,
    #[serde(default)]
    /// The decorator's display name.
    pub name: String,
    #[serde(rename = "type")]
    /// The attached decorator type (`Inverter`, `Condition`, a host condition, …).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    /// Parameters by name.
    pub params: Map<String, Value>,
    #[serde(flatten, skip_serializing)]
    /// Fields this version does not know; reported by the loader as problems.
    pub unknown: BTreeMap<String, Value>,
}

impl TreeFile {
    /// An empty tree with a fresh GUID.
    pub fn new(name: impl Into<String>) -> TreeFile {
        TreeFile {
            format: FORMAT_NAME.to_owned(),
            version: FORMAT_VERSION,
            guid: new_guid(),
            name: name.into(),
            description: String::new(),
            blackboard: Vec::new(),
            root: None,
            nodes: Vec::new(),
            editor: None,
            conflicts: Vec::new(),
            unknown: BTreeMap::new(),
        }
    }

    /// The canonical text of this file: pretty-printed, two-space indent, trailing newline.
    pub fn to_json_pretty(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        let mut text = serde_json::to_string_pretty(self).expect("tree files serialise");
        text.push('\n');
        text
    }

    /// The node with this GUID.
    pub fn node(&self, guid: &str) -> Option<&NodeDef> {
        let at = self.nodes.iter().position(|n| n.guid == guid);
        crate::work::add(
            crate::work::Counter::GuidSteps,
            at.map_or(self.nodes.len(), |i| i + 1) as u64,
        );
        at.map(|i| &self.nodes[i])
    }
}

fn enabled() -> bool {
    true
}

fn is_enabled(enabled: &bool) -> bool {
    *enabled
}

impl NodeDef {
    /// A node of type `kind` with a fresh GUID, named after its type.
    pub fn new(kind: impl Into<String>) -> NodeDef {
        let kind = kind.into();
        NodeDef {
            guid: new_guid(),
            name: kind.clone(),
            kind,
            enabled: true,
            params: Map::new(),
            decorators: Vec::new(),
            children: Vec::new(),
            unknown: BTreeMap::new(),
        }
    }
}

impl DecoratorDef {
    /// A decorator of type `kind` with a fresh GUID, named after its type.
    pub fn new(kind: impl Into<String>) -> DecoratorDef {
        let kind = kind.into();
        DecoratorDef {
            guid: new_guid(),
            name: kind.clone(),
            kind,
            params: Map::new(),
            unknown: BTreeMap::new(),
        }
    }
}

/// A fresh random (v4) GUID in the canonical hyphenated lower-case form.
pub fn new_guid() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_round_trips() {
        let mut file = TreeFile::new("t");
        let mut seq = NodeDef::new("Sequence");
        let wait = NodeDef::new("Wait");
        seq.children.push(wait.guid.clone());
        file.root = Some(seq.guid.clone());
        file.nodes = vec![seq, wait];
        let text = file.to_json_pretty();
        let back: TreeFile = serde_json::from_str(&text).unwrap();
        assert_eq!(back, file);
        assert_eq!(back.to_json_pretty(), text);
        assert!(text.find("\"format\"").unwrap() < text.find("\"nodes\"").unwrap());
    }
}
