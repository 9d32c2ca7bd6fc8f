//! Pass 4 of the import: host node types. A custom node (declared in `<TreeNodesModel>`
//! or merely used) or a BT.CPP node Arbor cannot express becomes a host node type, so the
//! palette and inspector show it and a program can register it. Its ports are
//! parameters: `key` when every use is `{key}` (or the model says it writes), a value
//! typed from the model's C++ type otherwise, text when uses disagree.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value as Json;

use super::{blackboard_ref, Draft, HostUse, Importer};
use crate::btcpp::mapping;
use crate::btcpp::model::{self, NodeModel};
use crate::btcpp::XmlProblem;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::value::ValueType;

impl Importer<'_> {
    /// Declares one host type per custom or opaque BT.CPP node ID, and names the drafts'
    /// types.
    pub(super) fn host_types(&mut self, drafts: &mut [Draft]) -> BTreeMap<String, NodeType> {
        let mut types = BTreeMap::new();
        let mut names = HashMap::new();
        let hosts = std::mem::take(&mut self.hosts);
        for (id, usage) in &hosts {
            let name = host_type_name(id);
            let model = self.models.get(id).cloned();
            let category = self.category(id, usage, model.as_ref());
            let description = match (&model, usage.builtin) {
                (Some(m), _) if !m.description.is_empty() => m.description.clone(),
                (_, true) => format!(
                    "{OPAQUE_NOTE}{id}, which Arbor cannot run; kept so the tree exports unchanged."
                ),
                _ => format!("{CUSTOM_NOTE} `{id}`: the program must provide it."),
            };
            let mut ty = NodeType::new(&name, category, &description);
            ty.host = true;
            ty.stand_in = crate::btcpp::nav2::stand_in(id).filter(|s| s.fits(category));
            // Model ports first (declaration order), then ports only seen in use.
            let mut ports: Vec<String> = model
                .as_ref()
                .map(|m| m.ports.iter().map(|p| p.name.clone()).collect())
                .unwrap_or_default();
            for p in &usage.order {
                if !ports.contains(p) {
                    ports.push(p.clone());
                }
            }
            for port in ports {
                let pm = model.as_ref().and_then(|m| m.port(&port));
                let values = usage.ports.get(&port).map(Vec::as_slice).unwrap_or(&[]);
                // A port given literals in some places and `{key}` in others is a typed
                // parameter; the `{key}` uses become bindings (format version 2).
                let (kind, _mixed) = port_kind(pm, values);
                let mut description = pm.map(|p| p.description.clone()).unwrap_or_default();
                if let Some(p) = pm {
                    let cpp =
                        p.ty.as_deref()
                            .map(|t| format!(", {t}"))
                            .unwrap_or_default();
                    let note = format!("(BT.CPP {}{cpp})", p.direction.tag());
                    description = if description.is_empty() {
                        note
                    } else {
                        format!("{description} {note}")
                    };
                }
                let mut spec = ParamSpec::new(&port, kind, &description);
                let default = pm
                    .and_then(|p| p.default.as_deref())
                    .filter(|_| kind != ParamKind::Key)
                    .and_then(|d| typed_port(kind, d));
                spec = match default {
                    Some(d) => spec.default(d),
                    None => spec.optional(),
                };
                ty.params.push(spec);
            }
            names.insert(id.clone(), name.clone());
            types.insert(name, ty);
        }
        self.hosts = hosts;
        for draft in drafts.iter_mut() {
            draft.walk_mut(&mut |d| {
                if let Some(id) = &d.host {
                    if let Some(name) = names.get(id) {
                        d.kind = name.clone();
                    }
                }
            });
        }
        types
    }

    /// The category of a host type: as declared (model element, explicit form, BT.CPP's
    /// own kind), unless its uses have a different number of children, which wins (with a
    /// warning) since the tree must load.
    fn category(&mut self, id: &str, usage: &HostUse, model: Option<&NodeModel>) -> Category {
        let by_use = if usage.child_counts.iter().all(|&c| c == 0) {
            Category::Action
        } else if usage.child_counts.iter().all(|&c| c == 1) {
            Category::Decorator
        } else {
            Category::Composite
        };
        let declared = model
            .map(|m| m.kind)
            .or(usage.explicit)
            .map(model::ModelKind::category)
            .filter(|c| *c != Category::Subtree)
            .or_else(|| mapping::builtin_category(id));
        match declared {
            Some(c) if c.children() == by_use.children() => c,
            Some(c) => {
                let most = usage.child_counts.iter().max().copied().unwrap_or(0);
                self.warnings.push(XmlProblem {
                    origin: usage.origin.clone(),
                    line: usage.line,
                    column: usage.column,
                    message: format!(
                        "`{id}` is declared as {} but used with {most} children; treated as {}",
                        c.as_str(),
                        by_use.as_str()
                    ),
                });
                by_use
            }
            None => by_use,
        }
    }
}

/// The host type name of a BT.CPP ID: the ID itself, unless Arbor has a built-in node or
/// attached decorator of that name (then `BTCPP_<ID>`; export strips the prefix).
pub(crate) fn host_type_name(id: &str) -> String {
    if crate::btcpp::is_arbor_builtin(id) {
        format!("{HOST_PREFIX}{id}")
    } else {
        id.to_owned()
    }
}

/// See [`host_type_name`].
pub(crate) const HOST_PREFIX: &str = "BTCPP_";
/// How the descriptions the import writes for host types begin; export leaves them out of
/// `<TreeNodesModel>`, since they describe the import, not the node.
pub(crate) const CUSTOM_NOTE: &str = "Custom BehaviorTree.CPP node";
pub(crate) const OPAQUE_NOTE: &str = "BehaviorTree.CPP's ";

/// A C++ type name as Arbor's value type.
pub(super) fn cpp_type(ty: &str) -> ValueType {
    match ty.trim() {
        "std::string"
        | "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
        | "string" => ValueType::String,
        "bool" => ValueType::Bool,
        "int" | "unsigned int" | "long" | "unsigned long" | "int64_t" | "uint64_t" | "int32_t"
        | "uint32_t" | "short" | "unsigned short" | "long long" | "unsigned long long"
        | "size_t" | "std::size_t" => ValueType::Int,
        "double" | "float" => ValueType::Float,
        _ => ValueType::Json,
    }
}

/// The Arbor parameter kind of a host port; and whether its uses mix literals and keys.
fn port_kind(model: Option<&model::PortModel>, values: &[String]) -> (ParamKind, bool) {
    let refs = values
        .iter()
        .filter(|v| blackboard_ref(v).is_some())
        .count();
    let literals: Vec<&String> = values
        .iter()
        .filter(|v| blackboard_ref(v).is_none())
        .collect();
    let mixed = refs > 0 && !literals.is_empty();
    if !mixed && refs > 0 || (values.is_empty() && model.is_some_and(|m| m.direction.writes())) {
        return (ParamKind::Key, false);
    }
    // BT.CPP 4.9's `json:` literals (`json:[1,2,3]`, `json:{"x":1}`) hold JSON values.
    if !literals.is_empty() && literals.iter().all(|v| json_literal(v).is_some()) {
        return (ParamKind::Json, mixed);
    }
    let by_type = match model.and_then(|m| m.ty.as_deref()).map(cpp_type) {
        Some(ValueType::Int) => ParamKind::Int,
        Some(ValueType::Float) => ParamKind::Float,
        Some(ValueType::Bool) => ParamKind::Bool,
        Some(ValueType::String) => ParamKind::String,
        // A bound use needs a parameter any key type can be bound to.
        _ if mixed => ParamKind::Json,
        _ => ParamKind::String,
    };
    if literals.iter().all(|v| typed_port(by_type, v).is_some()) {
        (by_type, mixed)
    } else if mixed {
        (ParamKind::Json, mixed)
    } else {
        (ParamKind::String, mixed)
    }
}

/// The JSON value of a BT.CPP `json:` literal (`json:[1,2,3]`), if `text` is one.
fn json_literal(text: &str) -> Option<Json> {
    let body = text.trim().strip_prefix("json:")?;
    serde_json::from_str(body).ok()
}

/// A port's text as a value of parameter kind `kind`.
pub(super) fn typed_port(kind: ParamKind, text: &str) -> Option<Json> {
    match kind {
        ParamKind::Json => Some(json_literal(text).unwrap_or_else(|| Json::from(text))),
        ParamKind::Int => text.trim().parse::<i64>().ok().map(Json::from),
        ParamKind::Float => text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Json::from),
        ParamKind::Bool => match text.trim() {
            "true" | "1" => Some(Json::from(true)),
            "false" | "0" => Some(Json::from(false)),
            _ => None,
        },
        _ => Some(Json::from(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_literals_of_btcpp_4_9_are_json_values() {
        let values = ["json:[1, 2, 3]".to_owned()];
        assert_eq!(port_kind(None, &values), (ParamKind::Json, false));
        assert_eq!(
            typed_port(ParamKind::Json, &values[0]),
            Some(serde_json::json!([1, 2, 3]))
        );
        assert_eq!(
            typed_port(ParamKind::Json, r#"json:{"x": 1.5}"#),
            Some(serde_json::json!({"x": 1.5}))
        );
        // Not JSON after the prefix: the port stays text.
        let values = ["json:[1,".to_owned()];
        assert_eq!(port_kind(None, &values).0, ParamKind::String);
    }

    #[test]
    fn host_names_avoid_arbor_builtins() {
        assert_eq!(host_type_name("OpenDoor"), "OpenDoor");
        assert_eq!(host_type_name("Timeout"), "BTCPP_Timeout");
        assert_eq!(host_type_name("Precondition"), "BTCPP_Precondition");
    }
}
