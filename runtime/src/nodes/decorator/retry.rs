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
use crate::exec::{Exec, MAX_LOOPS_PER_TICK};
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
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
    .param(
        ParamSpec::new(
            "yield",
            ParamKind::Bool,
            "After a child run that completed in the tick it started, return running and start \
             the next run next tick (BehaviorTree.CPP 4.8; rule 49).",
        )
        .literal()
        .default(false.into()),
    )
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
    let child = only_child(x, i);
    let mut restarts = 0;
    loop {
        let resumed = x.is_running(child);
        match x.tick(child) {
            Status::Running => return Status::Running,
            Status::Success => return Status::Success,
            Status::Failure => {
                // A bound limit is read each time it is compared; without a valid one
                // (none, 0, below -1) the Retry fails.
                let Some(attempts) = attempts
                    .read(x.cx.blackboard)
                    .filter(|n| valid_attempts(*n))
                else {
                    return Status::Failure;
                };
                let slot = x.slot(i);
                // Saturating: an unbounded Retry may count past u32::MAX in a long run.
                slot.cursor = slot.cursor.saturating_add(1);
                if attempts != -1 && i64::from(slot.cursor) >= attempts {
                    return Status::Failure;
                }
                restarts += 1;
                // The tick's budget last: it is taken only by a restart that happens.
                if yields && !resumed {
                    x.wake_up();
                    return Status::Running;
                }
                if restarts >= MAX_LOOPS_PER_TICK || !x.take_restart() {
                    return Status::Running;
                }
            }
        }
    }
}
