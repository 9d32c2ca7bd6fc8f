//! Delay: waits `seconds` after entering, then ticks its child and returns its status.
//! - before the delay has passed -> Running; the child is not ticked
//! - afterwards -> the child's status (the check `now - start >= seconds` is the one Wait
//!   uses, so `Delay 0` ticks the child on the entering tick)
//!
//! Each execution waits again: after the child completes, the Delay is idle and its next
//! entry records a new start (BT.CPP resets its timer then too). An abort during the wait
//! just ends it. BT.CPP: `decorators/delay_node.cpp` (`delay_msec`).
//! JSON: `{"type":"Delay","params":{"seconds":1.5},"children":[child]}`

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
            "Delay",
            Category::Decorator,
            "Waits `seconds` after starting, then runs the child.",
        )
        .may_run(),
        "How long to wait before ticking the child, in seconds of the agent's clock.",
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Delay {
        seconds: seconds_param(args)?,
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    seconds: &Duration,
) -> Status {
    let child = only_child(x, i);
    let Some(up) = time_up(x, i, seconds) else {
        return Status::Failure;
    };
    if !up {
        return Status::Running;
    }
    x.tick(child)
}
