//! UnsetBlackboard: removes `key`'s value; success (rule 69). Afterwards the key reads as
//! one never written (rule 2: no valid value, so a node that needs one fails), until
//! something writes it again; the unset counts as a write (rule 66).
//!
//! BehaviorTree.CPP 4.8's UnsetBlackboard, which removes the entry.
//! JSON: `{"type":"UnsetBlackboard","params":{"key":"target"}}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "UnsetBlackboard",
        Category::Action,
        "Removes a blackboard key's value, as if it had never been written.",
    )
    .param(ParamSpec::new("key", ParamKind::Key, "The key to clear.").output())
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    Ok(Kind::UnsetBlackboard { key })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, key: Key) -> Status {
    x.cx.blackboard.unset(key);
    Status::Success
}
