//! Value: a blackboard value, and the type-strict equality of docs/semantics.md rule 7.
//!
//! Strings and JSON containers sit behind `Arc` so that copying a value into the blackboard
//! at tick time never allocates.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// The declared type of a blackboard key or parameter value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    Bool,
    Int,
    Float,
    String,
    /// Any JSON value (arrays and objects included).
    Json,
}

impl ValueType {
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::Bool => "bool",
            ValueType::Int => "int",
            ValueType::Float => "float",
            ValueType::String => "string",
            ValueType::Json => "json",
        }
    }

    /// Converts a JSON value to this type, or says what was found instead.
    /// Ints are accepted where floats are expected; floats with no fraction where ints are.
    pub fn coerce(self, json: &serde_json::Value) -> Result<Value, String> {
        use serde_json::Value as J;
        let value = match (self, json) {
            (ValueType::Bool, J::Bool(b)) => Value::Bool(*b),
            (ValueType::Int, J::Number(n)) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => match n.as_f64() {
                    Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::Int(f as i64),
                    _ => return Err(format!("expected an integer, found {n}")),
                },
            },
            (ValueType::Float, J::Number(n)) => match n.as_f64() {
                Some(f) => Value::Float(f),
                None => return Err(format!("expected a number, found {n}")),
            },
            (ValueType::String, J::String(s)) => Value::Str(Arc::from(s.as_str())),
            (ValueType::Json, other) => Value::from_json(other),
            (expected, found) => {
                return Err(format!(
                    "expected {}, found {}",
                    expected.describe(),
                    describe_json(found)
                ))
            }
        };
        Ok(value)
    }

    /// "a boolean", "an integer", …: for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ValueType::Bool => "a boolean",
            ValueType::Int => "an integer",
            ValueType::Float => "a number",
            ValueType::String => "a string",
            ValueType::Json => "any JSON value",
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Describes a JSON value for an error message: `string "fast"`, `array`, `null`.
pub fn describe_json(value: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match value {
        J::Null => "null".to_owned(),
        J::Bool(b) => format!("boolean {b}"),
        J::Number(n) => format!("number {n}"),
        J::String(s) => {
            let short: String = s.chars().take(40).collect();
            format!("string \"{short}\"")
        }
        J::Array(_) => "an array".to_owned(),
        J::Object(_) => "an object".to_owned(),
    }
}

/// A value stored on the blackboard or carried by a parameter.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// No value: never written, or expired (rule 33).
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Arc<str>),
    /// Arrays and objects.
    Json(Arc<serde_json::Value>),
}

impl Value {
    pub fn from_json(json: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match json {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::Str(Arc::from(s.as_str())),
            other => Value::Json(Arc::new(other.clone())),
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.to_string()),
            Value::Json(j) => (**j).clone(),
        }
    }

    /// The number, if this is an int or a float.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether a value of this shape may be stored under a key of type `ty`.
    pub fn fits(&self, ty: ValueType) -> bool {
        matches!(
            (ty, self),
            (_, Value::Null)
                | (ValueType::Json, _)
                | (ValueType::Bool, Value::Bool(_))
                | (ValueType::Int, Value::Int(_))
                | (ValueType::Float, Value::Float(_) | Value::Int(_))
                | (ValueType::String, Value::Str(_))
        )
    }

    /// Type-strict equality of rule 7: a boolean never equals a number, numbers compare
    /// numerically (`1 == 1.0`), strings and containers structurally.
    pub fn strict_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
                self.as_f64() == other.as_f64()
            }
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Json(a), Value::Json(b)) => json_eq(a, b),
            _ => false,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.strict_eq(other)
    }
}

/// Structural JSON equality in which numbers compare numerically (rule 7).
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::Int(i64::from(i))
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(Arc::from(s))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rule7_numbers_compare_numerically_but_never_with_booleans() {
        assert!(Value::Int(1).strict_eq(&Value::Float(1.0)));
        assert!(!Value::Bool(true).strict_eq(&Value::Int(1)));
        assert!(!Value::Str("1".into()).strict_eq(&Value::Int(1)));
        let a = Value::from_json(&json!({"x": [1, 2.0]}));
        let b = Value::from_json(&json!({"x": [1.0, 2]}));
        assert!(a.strict_eq(&b));
        assert!(!a.strict_eq(&Value::from_json(&json!({"x": [1, 3]}))));
    }

    #[test]
    fn coerce_reports_what_was_found() {
        let err = ValueType::Float.coerce(&json!("fast")).unwrap_err();
        assert_eq!(err, "expected a number, found string \"fast\"");
        assert!(matches!(ValueType::Float.coerce(&json!(3)), Ok(Value::Float(f)) if f == 3.0));
        assert!(ValueType::Int.coerce(&json!(2.5)).is_err());
        assert!(matches!(
            ValueType::Int.coerce(&json!(2.0)),
            Ok(Value::Int(2))
        ));
    }
}
