//! Overrides: parameter values by node GUID and parameter name, key defaults and switched
//! off nodes, applied to a tree file before it is compiled. An agent's own overrides and a
//! variant file ([`super::VariantFile`]) are both this; the blackboard is never written.
//!
//! Applied to a copy of the file, overrides give a tree of the same structure (GUIDs,
//! types, children) unless they switch nodes off: snapshots and hot reload move agents
//! between the base tree and the overridden one (semantics rules 91 and 94), keeping their
//! state. The values are checked by the compiler as any written in the file, so a bad one
//! is a located load error.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::TreeFile;

/// Overrides of a tree's parameter values, key defaults and switched-on nodes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    /// Parameter values, by node (or attached decorator) GUID and parameter name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ParamOverride>,
    /// Key defaults, by key name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyOverride>,
    /// Nodes switched off (`"enabled": false`, semantics rule 79), by GUID.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disabled: Vec<String>,
}

/// One parameter's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamOverride {
    /// The GUID of the node or attached decorator.
    pub node: String,
    /// The parameter's name.
    pub param: String,
    /// Its value, as it would be written in the file (a literal or `{"$key": …}`).
    pub value: Value,
}

/// One key's default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyOverride {
    /// The key's name.
    pub key: String,
    /// Its default (`null`: no default, the key has no value until written).
    pub default: Value,
}

/// An override that names something the file does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverrideError {
    /// Where in the overrides (`params[2].node`, `keys[0].key`, `disabled[1]`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Overrides {
    /// Whether there is nothing to override.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty() && self.keys.is_empty() && self.disabled.is_empty()
    }

    /// Writes the overrides into `file`. Every override that names a node, decorator or key
    /// the file does not have is an error (all of them are reported, and `file` is then
    /// left as it was).
    pub fn apply(&self, file: &mut TreeFile) -> Result<(), Vec<OverrideError>> {
        let mut out = file.clone();
        let mut errors = Vec::new();
        let missing = |path: String, what: &str, name: &str| OverrideError {
            path,
            message: format!("the tree has no {what} `{name}`"),
        };
        for (i, o) in self.params.iter().enumerate() {
            let params = out.nodes.iter_mut().find_map(|n| {
                if n.guid == o.node {
                    return Some(&mut n.params);
                }
                n.decorators
                    .iter_mut()
                    .find(|d| d.guid == o.node)
                    .map(|d| &mut d.params)
            });
            match params {
                Some(params) => {
                    params.insert(o.param.clone(), o.value.clone());
                }
                None => errors.push(missing(format!("params[{i}].node"), "node", &o.node)),
            }
        }
        for (i, o) in self.keys.iter().enumerate() {
            match out.blackboard.iter_mut().find(|k| k.key == o.key) {
                Some(k) => k.default = (!o.default.is_null()).then(|| o.default.clone()),
                None => errors.push(missing(format!("keys[{i}].key"), "key", &o.key)),
            }
        }
        for (i, guid) in self.disabled.iter().enumerate() {
            match out.nodes.iter_mut().find(|n| n.guid == *guid) {
                Some(n) => n.enabled = false,
                None => errors.push(missing(format!("disabled[{i}]"), "node", guid)),
            }
        }
        if errors.is_empty() {
            *file = out;
            Ok(())
        } else {
            Err(errors)
        }
    }
}
