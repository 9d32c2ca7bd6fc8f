//! Wait: running until `seconds` have passed since it entered, then success (rule 9).
//! The check also runs on the entering tick, so `Wait 0` succeeds at once.
//! JSON: `{"type":"Wait","params":{"seconds":1.5}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{seconds_param, time_up, ty, with_seconds, Duration, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    with_seconds(
        ty(
            "Wait",
            Category::Action,
            "Runs for `seconds`, then succeeds.",
        )
        .may_run(),
        "How long to wait, in seconds of the agent's clock (a bound key is read as the node \
         starts).",
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Wait {
        seconds: seconds_param(args)?,
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    seconds: &Duration,
) -> Status {
    let Some(up) = time_up(x, i, seconds) else {
        return Status::Failure;
    };
    if up {
        Status::Success
    } else {
        Status::Running
    }
}
