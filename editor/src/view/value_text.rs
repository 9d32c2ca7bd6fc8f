//! How a value is written where space is short: on a node's card, in a wire's label, in
//! the inspector's "overridden: base value X" (a compact, bounded rendering of JSON).

use serde_json::Value;

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
