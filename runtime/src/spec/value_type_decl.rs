//! ValueTypeDecl: a user value type as a node-types manifest describes it (its name, what it
//! is for, a default value and, for enumerations, the allowed values), so that a program
//! without the type's Rust code (the editor) can check a value of it.

use serde::{Deserialize, Serialize};

use crate::value::{describe_json, json_eq};

/// A user value type's declaration: `{"name": "faction", "default": "neutral",
/// "values": ["neutral", "red", "blue"]}` in a manifest's `value_types`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueTypeDecl {
    /// The type's name in files (`faction`), as key and parameter types.
    pub name: String,
    /// What the type is for, for the editor's tooltips.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The JSON form of the type's default value; a value has the same shape (see
    /// [`ValueTypeDecl::check`]).
    pub default: serde_json::Value,
    /// The allowed values, for an enumeration; empty: any value of the default's shape.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<serde_json::Value>,
}

impl ValueTypeDecl {
    /// A declaration with no description and no list of values.
    pub fn new(name: &str, default: serde_json::Value) -> ValueTypeDecl {
        ValueTypeDecl {
            name: name.to_owned(),
            description: String::new(),
            default,
            values: Vec::new(),
        }
    }

    /// Whether `json` is a value of this type as far as the declaration tells: one of
    /// `values` when there are any, else of the default's shape (the same JSON kind, an
    /// integer where the default is one, objects with the same fields and arrays of the same
    /// length, each of the same shape in turn). The type's Rust code, where it runs, is the
    /// final judge; this is what the editor can check without it.
    pub fn check(&self, json: &serde_json::Value) -> Result<(), String> {
        if !self.values.is_empty() {
            if self.values.iter().any(|v| json_eq(v, json)) {
                return Ok(());
            }
            let allowed: Vec<String> = self.values.iter().map(|v| v.to_string()).collect();
            return Err(format!(
                "expected one of {}, found {}",
                allowed.join(", "),
                describe_json(json)
            ));
        }
        same_shape(&self.default, json, 0)
    }
}

/// Deeper shapes are not compared: a declaration is not a place for unbounded recursion.
const MAX_DEPTH: usize = 32;

fn same_shape(
    model: &serde_json::Value,
    json: &serde_json::Value,
    depth: usize,
) -> Result<(), String> {
    use serde_json::Value as J;
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let found = || describe_json(json);
    match (model, json) {
        (J::Null, J::Null) | (J::Bool(_), J::Bool(_)) | (J::String(_), J::String(_)) => Ok(()),
        (J::Number(m), J::Number(n)) => {
            if m.is_f64() || n.is_i64() || n.is_u64() {
                Ok(())
            } else {
                Err(format!("expected an integer, found {}", found()))
            }
        }
        (J::Array(m), J::Array(items)) => {
            if m.len() != items.len() {
                return Err(format!(
                    "expected an array of {} items, found {}",
                    m.len(),
                    items.len()
                ));
            }
            for (i, (m, item)) in m.iter().zip(items).enumerate() {
                same_shape(m, item, depth + 1).map_err(|e| format!("item {i}: {e}"))?;
            }
            Ok(())
        }
        (J::Object(m), J::Object(fields)) => {
            if let Some(extra) = fields.keys().find(|k| !m.contains_key(*k)) {
                return Err(format!("unknown field \"{}\"", short(extra)));
            }
            for (name, m) in m {
                let field = fields
                    .get(name)
                    .ok_or_else(|| format!("missing field \"{}\"", short(name)))?;
                same_shape(m, field, depth + 1)
                    .map_err(|e| format!("field \"{}\": {e}", short(name)))?;
            }
            Ok(())
        }
        (m, _) => Err(format!("expected {}, found {}", kind(m), found())),
    }
}

fn kind(json: &serde_json::Value) -> &'static str {
    use serde_json::Value as J;
    match json {
        J::Null => "null",
        J::Bool(_) => "a boolean",
        J::Number(_) => "a number",
        J::String(_) => "a string",
        J::Array(_) => "an array",
        J::Object(_) => "an object",
    }
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_enumeration_accepts_only_its_values() {
        let mut decl = ValueTypeDecl::new("faction", json!("neutral"));
        decl.values = vec![json!("neutral"), json!("red")];
        assert!(decl.check(&json!("red")).is_ok());
        let err = decl.check(&json!("purple")).unwrap_err();
        assert_eq!(
            err,
            "expected one of \"neutral\", \"red\", found string \"purple\""
        );
    }

    #[test]
    fn a_structure_is_checked_against_the_default_shape() {
        let decl = ValueTypeDecl::new("weapon", json!({"id": 3, "range": 2.5}));
        assert!(decl.check(&json!({"id": 7, "range": 10})).is_ok());
        assert_eq!(
            decl.check(&json!({"id": 7.5, "range": 1.0})).unwrap_err(),
            "field \"id\": expected an integer, found number 7.5"
        );
        assert_eq!(
            decl.check(&json!({"id": 7})).unwrap_err(),
            "missing field \"range\""
        );
        assert_eq!(
            decl.check(&json!({"id": 7, "range": 1, "x": 0}))
                .unwrap_err(),
            "unknown field \"x\""
        );
        assert!(decl.check(&json!("7")).is_err());
    }
}
