//! Retry: runs its child again each time it fails, in the same tick (rule 18).
//! - child Running -> Running
//! - child Success -> Success
//! - child Failure -> attempts += 1; Failure when it reaches `attempts`, else restart
//! - `attempts: -1` retries forever; `0` and values below -1 are refused by the loader
//!   (Arbor's choice for rule 36)
//!
//! Like Repeat, the child runs at most `MAX_LOOPS_PER_TICK` times in one tick, and restarts
//! only while the tick's `LOOP_BUDGET_PER_TICK` lasts (rule 81); then Running, keeping the
//! count.
//! With `yield: true` (BT.CPP 4.8's RetryUntilSuccessful, rule 49) an attempt that started
//! and failed in this tick ends the tick: Running, and the next attempt starts next tick, so
//! a reactive parent re-checks its conditions first.
//! Example: `{"type":"Retry","params":{"attempts":3},"children":[{"type":"OpenDoor"}]}`
//! tries to open the door up to three times.

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::restart_loop, ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Retry",
        Category::Decorator,
        "Runs the child again each time it fails, up to `attempts` times.",
    )
    .param(ParamSpec::new(
        "attempts",
        ParamKind::Int,
        "Failed runs before failing (1 or more); -1 retries forever.",
    ))
    .param(restart_loop::yield_param())
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let attempts = args
        .port::<i64>("attempts")
        .map_err(|m| ParamError::new("attempts", m))?;
    if let Some(&n) = attempts.as_literal() {
        if !valid_attempts(n) {
            return Err(ParamError::new(
                "attempts",
                format!("must be 1 or more, or -1 for unbounded; found {n}"),
            ));
        }
    }
    let yields = args
        .bool("yield")
        .map_err(|m| ParamError::new("yield", m))?;
    Ok(Kind::Retry { attempts, yields })
}

fn valid_attempts(n: i64) -> bool {
    n >= 1 || n == -1
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    attempts: &InPort<i64>,
    yields: bool,
) -> Status {
    // Without a valid limit (none, 0, below -1) the Retry fails.
    restart_loop::tick(x, i, Status::Failure, yields, |bb, runs| {
        attempts
            .read(bb)
            .filter(|n| valid_attempts(*n))
            .map(|attempts| attempts != -1 && i64::from(runs) >= attempts)
    })
}
