//! Condition (leaf): success when blackboard `key` holds a valid value equal to `equals`,
//! failure otherwise; never running (rule 7). Equality is type-strict: `true` never equals
//! `1`, numbers compare numerically (`1 == 1.0`), strings and containers structurally.
//! Instead of a constant, `equals_key` names another key whose valid value it must equal
//! (no valid value: failure), so that a target can live on the blackboard.
//! JSON: `{"type":"Condition","params":{"key":"current","equals":20}}` or
//! `{"type":"Condition","params":{"key":"current","equals_key":"target"}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, Operand, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    with_key_test(ty(
        "Condition",
        Category::Condition,
        "Succeeds when a blackboard key holds the given value.",
    ))
}

/// The parameters of a key test, shared by this leaf and the attached Condition: the key,
/// and the value (`equals`) or the other key (`equals_key`) it must hold.
pub(crate) fn with_key_test(t: NodeType) -> NodeType {
    t.param(ParamSpec::new(
        "key",
        ParamKind::Key,
        "The blackboard key to test.",
    ))
    .param(
        ParamSpec::new(
            "equals",
            ParamKind::KeyValue,
            "The value it must hold (of the key's type).",
        )
        .optional(),
    )
    .param(
        ParamSpec::new(
            "equals_key",
            ParamKind::Key,
            "Or: another key whose value it must equal.",
        )
        .optional(),
    )
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    let equals = Operand::from_args(args, cx, key)?;
    Ok(Kind::Condition { key, equals })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    key: Key,
    equals: &Operand,
) -> Status {
    let bb = &*x.cx.blackboard;
    Status::from_bool(equals.matches(bb.get(key), bb))
}
