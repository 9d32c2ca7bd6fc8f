//! WasUpdated (condition): success when `key` was written since this node last looked,
//! failure otherwise, never running (rule 68). The key must have a value; each look
//! remembers the key's update number (rule 66) across executions, in the node's
//! `persist`, so the first look after a write succeeds and the next one fails.
//!
//! BehaviorTree.CPP 4.8's WasEntryUpdated.
//! JSON: `{"type":"WasUpdated","params":{"key":"goal"}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::decorator::if_updated::updated_since_last_look;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "WasUpdated",
        Category::Condition,
        "Succeeds when a blackboard key was written since this node last looked.",
    )
    .param(ParamSpec::new(
        "key",
        ParamKind::Key,
        "The key whose writes are watched.",
    ))
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    Ok(Kind::WasUpdated { key })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    key: Key,
) -> Status {
    Status::from_bool(updated_since_last_look(x, i, key))
}
