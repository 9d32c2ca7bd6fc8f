//! Condition (leaf): success when blackboard `key` holds a valid value equal to `equals`,
//! failure otherwise; never running (rule 7). Equality is type-strict: `true` never equals
//! `1`, numbers compare numerically (`1 == 1.0`), strings and containers structurally.
//! JSON: `{"type":"Condition","params":{"key":"current","equals":20}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::value::Value;

pub(crate) fn spec() -> NodeType {
    ty(
        "Condition",
        Category::Condition,
        "Succeeds when a blackboard key holds the given value.",
    )
    .param(ParamSpec::new(
        "key",
        ParamKind::Key,
        "The blackboard key to test.",
    ))
    .param(ParamSpec::new(
        "equals",
        ParamKind::KeyValue,
        "The value it must hold (of the key's type).",
    ))
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    let equals = args.value("equals").cloned().unwrap_or_default();
    Ok(Kind::Condition { key, equals })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, C, O>,
    key: Key,
    equals: &Value,
) -> Status {
    Status::from_bool(x.st.bb.get(key).is_some_and(|v| v.strict_eq(equals)))
}
