//! Limiter: lets its child start at most `max` times over the agent's lifetime (rule 19).
//! - child idle and `max` starts used up -> Failure, the child is not ticked
//! - child idle otherwise -> count the start, tick the child, return its status
//! - child running -> tick it without counting
//!
//! The count survives completion, aborts and root restarts. A start whose child is then
//! blocked by its own conditions still counts (Arbor's choice for rule 36).
//! JSON: `{"type":"Limiter","params":{"max":3},"children":[child]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Limiter",
        Category::Decorator,
        "Lets the child start at most `max` times, then fails without running it.",
    )
    .param(
        ParamSpec::new(
            "max",
            ParamKind::Int,
            "How many times the child may start over the agent's lifetime.",
        )
        .literal(),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let max = args.i64("max").map_err(|m| ParamError::new("max", m))?;
    let max = u32::try_from(max).map_err(|_| {
        ParamError::new(
            "max",
            format!("must be between 0 and {}; found {max}", u32::MAX),
        )
    })?;
    Ok(Kind::Limiter { max })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    max: u32,
) -> Status {
    let child = only_child(x, i);
    if !x.is_running(child) {
        let slot = x.slot(i);
        if slot.persist >= max {
            return Status::Failure;
        }
        slot.persist += 1;
    }
    x.tick(child)
}
