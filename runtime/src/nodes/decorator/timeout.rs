//! Timeout: fails if its child has not completed within `seconds` of entering (rule 20).
//! Each tick, *before* ticking the child: if `now - start >= seconds` the running child is
//! aborted and the Timeout fails without ticking it (the child gets no last chance to
//! complete at the deadline); otherwise it returns the child's status. So the child is
//! ticked on at most `ceil(seconds / dt)` consecutive ticks (N ticks for N seconds with
//! dt = 1).
//! JSON: `{"type":"Timeout","params":{"seconds":2.5},"children":[child]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{
    decorator::only_child, seconds_param, time_up, ty, with_seconds, Duration, Kind, LowerCx,
    ParamError,
};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    with_seconds(
        ty(
            "Timeout",
            Category::Decorator,
            "Fails and aborts the child if it has not completed within `seconds`.",
        ),
        "Time allowed, in seconds of the agent's clock.",
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Timeout {
        seconds: seconds_param(args)?,
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    seconds: &Duration,
) -> Status {
    let child = only_child(x, i);
    // Read as the node starts, before its child has run: nothing to abort yet.
    let Some(up) = time_up(x, i, seconds) else {
        return Status::Failure;
    };
    if up {
        x.abort(child);
        return Status::Failure;
    }
    x.tick(child)
}
