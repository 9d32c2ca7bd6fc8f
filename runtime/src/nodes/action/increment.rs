//! Increment: `key := (valid value of key, or 0) + by`, written now with no ttl; success
//! (rule 8). An int key stays an int (`by` must then be whole).
//! JSON: `{"type":"Increment","params":{"key":"current","by":10}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::value::{Value, ValueType};

pub(crate) fn spec() -> NodeType {
    ty(
        "Increment",
        Category::Action,
        "Adds `by` to a numeric blackboard key (from 0 if it has no value); succeeds.",
    )
    .param(ParamSpec::new("key", ParamKind::Key, "A numeric blackboard key.").in_out())
    .param(ParamSpec::new("by", ParamKind::KeyValue, "The amount to add.").default(1.into()))
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    let ty = cx.key_types[key.index()];
    if !matches!(ty, ValueType::Int | ValueType::Float) {
        return Err(ParamError::new(
            "key",
            format!("must name an int or float key; this one holds {ty} values"),
        ));
    }
    let by = match args.get("by") {
        Some(_) => args
            .port::<Value>("by")
            .map_err(|m| ParamError::new("by", m))?,
        None => InPort::literal(Value::Int(1)),
    };
    Ok(Kind::Increment { key, by })
}

/// A bound `by` without a valid value fails and leaves the key as it is.
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    key: Key,
    by: &InPort<Value>,
) -> Status {
    let bb = &*x.cx.blackboard;
    let Some(by) = by.read(bb) else {
        return Status::Failure;
    };
    let sum = match (bb.get(key), by) {
        (Some(Value::Int(a)), Value::Int(b)) => Value::Int(a.wrapping_add(*b)),
        (None, Value::Int(b)) => Value::Int(*b),
        (current, by) => {
            let a = current.and_then(Value::as_f64).unwrap_or(0.0);
            Value::Float(a + by.as_f64().unwrap_or(0.0))
        }
    };
    x.cx.blackboard.write(key, sum, -1.0);
    Status::Success
}
