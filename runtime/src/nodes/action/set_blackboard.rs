//! SetBlackboard: writes `value` to `key` now, valid for `ttl` seconds if given (rule 33);
//! success. JSON: `{"type":"SetBlackboard","params":{"key":"target","value":"red","ttl":5}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::value::Value;

pub(crate) fn spec() -> NodeType {
    ty(
        "SetBlackboard",
        Category::Action,
        "Writes a value to a blackboard key, optionally expiring after `ttl` seconds.",
    )
    .param(ParamSpec::new("key", ParamKind::Key, "The key to write.").output())
    .param(ParamSpec::new(
        "value",
        ParamKind::KeyValue,
        "The value to write (of the key's type).",
    ))
    .param(
        ParamSpec::new(
            "ttl",
            ParamKind::Float,
            "Seconds the value stays valid; omit for forever.",
        )
        .literal()
        .optional(),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    let value = args
        .port::<Value>("value")
        .map_err(|m| ParamError::new("value", m))?;
    let ttl = args.value("ttl").and_then(Value::as_f64).unwrap_or(-1.0);
    if ttl.is_nan() {
        return Err(ParamError::new("ttl", "must be a number"));
    }
    Ok(Kind::SetBlackboard { key, value, ttl })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    key: Key,
    value: &InPort<Value>,
    ttl: f64,
) -> Status {
    // A value copied from another key needs a valid one there (its type was checked at
    // load: it fits this key's).
    let Some(value) = value.read(x.cx.blackboard) else {
        return Status::Failure;
    };
    // Cloning a Value never allocates: strings and containers are shared.
    let value = match (value, x.cx.blackboard.info(key).ty) {
        (Value::Int(n), crate::value::ValueType::Float) => Value::Float(*n as f64),
        (v, _) => v.clone(),
    };
    x.cx.blackboard.write(key, value, ttl);
    Status::Success
}
