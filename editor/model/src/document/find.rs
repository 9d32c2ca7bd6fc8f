//! Find in tree: the nodes whose name, type, parameter (name or value) or attached
//! decorator mentions a piece of text, for the canvas's find bar (Ctrl+F). UI-free: the
//! canvas highlights and frames what this returns.
//!
//! Matching is a case-insensitive substring test. A parameter bound to a blackboard key
//! matches on the key's name (`{"$key": "target"}` is found by `target`), other values on
//! their JSON text without quotes (`"Walk home"` by `walk`, `2.5` by `2.5`).
//!
//! Order: execution order (depth-first from the root), then the nodes the root does not
//! reach, in stored order, so "next match" walks the tree as it runs.

use arbor_runtime::format::NodeDef;
use serde_json::{Map, Value};

use super::model::Document;

/// One node that matches, and the first thing about it that did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindHit {
    pub guid: String,
    /// What matched, for the find bar: `name`, `type`, `param seconds = 2`,
    /// `decorator Cooldown`.
    pub what: String,
}

/// The nodes of `doc` matching `query` (see the module documentation); nothing for an
/// empty or blank query.
pub fn find(doc: &Document, query: &str) -> Vec<FindHit> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<&str> = doc.execution_order();
    order.extend(doc.unconnected());
    order
        .into_iter()
        .filter_map(|guid| doc.node(guid))
        .filter_map(|node| {
            matches(node, &query).map(|what| FindHit {
                guid: node.guid.clone(),
                what,
            })
        })
        .collect()
}

fn contains(text: &str, query: &str) -> bool {
    text.to_lowercase().contains(query)
}

/// What about `node` matches the lower-case `query`, if anything.
fn matches(node: &NodeDef, query: &str) -> Option<String> {
    if contains(&node.name, query) {
        return Some("name".to_owned());
    }
    if contains(&node.kind, query) {
        return Some("type".to_owned());
    }
    if let Some(p) = param_match(&node.params, query) {
        return Some(format!("param {p}"));
    }
    node.decorators.iter().find_map(|d| {
        if contains(&d.kind, query) || contains(&d.name, query) {
            Some(format!("decorator {}", d.kind))
        } else {
            param_match(&d.params, query).map(|p| format!("decorator {} {p}", d.kind))
        }
    })
}

/// `key = value` of the first parameter whose name or value matches.
fn param_match(params: &Map<String, Value>, query: &str) -> Option<String> {
    params.iter().find_map(|(k, v)| {
        let text = value_text(v);
        (contains(k, query) || contains(&text, query)).then(|| format!("{k} = {text}"))
    })
}

/// A value as searched and shown: a bound key's name, a string without quotes, other
/// JSON as written.
fn value_text(v: &Value) -> String {
    if let Ok(Some(key)) = arbor_runtime::binding(v) {
        return format!("@{key}");
    }
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::fixtures::sample;
    use super::*;
    use serde_json::json;

    fn guids(hits: &[FindHit]) -> Vec<&str> {
        hits.iter().map(|h| h.guid.as_str()).collect()
    }

    #[test]
    fn finds_by_name_type_parameter_and_decorator_in_execution_order() {
        let (mut doc, [a, b, c, d, e]) = sample();
        for node in &mut doc.file.nodes {
            if node.guid == b {
                node.name = "Pause briefly".to_owned();
                node.params.insert("seconds".into(), json!(2.5));
            } else if node.guid == d {
                node.params
                    .insert("seconds".into(), json!({"$key": "nap_time"}));
            } else if node.guid == e {
                node.params.insert("message".into(), json!("Walk HOME"));
            } else if node.guid == c {
                node.decorators.push(arbor_runtime::format::DecoratorDef {
                    guid: "dec".into(),
                    name: String::new(),
                    kind: "Cooldown".into(),
                    params: Map::new(),
                    unknown: Default::default(),
                });
            }
        }
        // Both Waits by type, in execution order (b before d, though stored after).
        assert_eq!(guids(&find(&doc, "wait")), [&b, &d]);
        let hits = find(&doc, "  BRIEF ");
        assert_eq!(guids(&hits), [&b]);
        assert_eq!(hits[0].what, "name");
        assert_eq!(find(&doc, "2.5")[0].what, "param seconds = 2.5");
        assert_eq!(guids(&find(&doc, "nap")), [&d], "a bound key by its name");
        assert_eq!(
            guids(&find(&doc, "walk home")),
            [&e],
            "unreached nodes last"
        );
        assert_eq!(find(&doc, "cool")[0].what, "decorator Cooldown");
        assert_eq!(guids(&find(&doc, "seq")), [&a]);
        assert!(find(&doc, "").is_empty() && find(&doc, "   ").is_empty());
        assert!(find(&doc, "no such thing").is_empty());
    }
}
