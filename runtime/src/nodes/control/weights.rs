//! Per-child numbers read from a `list<float>` parameter (RandomSelector's `weights`,
//! UtilitySelector's `scores`): a literal list, or a list key's valid value.

use crate::{Args, InPort, Value};

/// The largest number of children a node that draws or scores among them takes: its
/// per-agent state marks children in one 64-bit word.
pub(crate) const MAX_CHILDREN: usize = 64;

/// A `list<float>` parameter: optional, so `None` when the file leaves it out.
pub(crate) fn list_port(args: &Args, name: &str) -> Result<Option<InPort<Value>>, String> {
    let port = args.optional_port::<Value>(name)?;
    if let Some(list) = port.as_ref().and_then(|p| p.as_literal()) {
        if !numbers(list).is_some_and(|mut n| n.all(|x| x.is_some())) {
            return Err(format!("`{name}` must be a list of numbers"));
        }
    }
    Ok(port)
}

/// The elements of a list value as numbers (`None` for an element that is not one);
/// `None` when the value is not a list. Reads in place, allocating nothing.
pub(crate) fn numbers(value: &Value) -> Option<impl Iterator<Item = Option<f64>> + '_> {
    match value {
        Value::Json(json) => Some(json.as_array()?.iter().map(serde_json::Value::as_f64)),
        _ => None,
    }
}

/// Element `k` of a list value as a number; `None` past its end or for a non-number.
pub(crate) fn nth(value: &Value, k: usize) -> Option<f64> {
    match value {
        Value::Json(json) => json.as_array()?.get(k)?.as_f64(),
        _ => None,
    }
}
