//! What Repeat and Retry share: a child re-run in the same tick while its runs end in one
//! status, up to a limit (rules 17, 18, 36, 49 and 81), and their `yield` parameter.

use crate::blackboard::Blackboard;
use crate::exec::{Exec, MAX_LOOPS_PER_TICK};
use crate::nodes::decorator::only_child;
use crate::spec::{ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

/// The `yield` parameter (rule 49): BT.CPP 4.8's form of the loop.
pub(crate) fn yield_param() -> ParamSpec {
    ParamSpec::new(
        "yield",
        ParamKind::Bool,
        "After a child run that completed in the tick it started, return running and start \
         the next run next tick (BehaviorTree.CPP 4.8; rule 49).",
    )
    .literal()
    .default(false.into())
}

/// Ticks the only child of node `i`; each run that ends in `again` counts in the slot's
/// cursor and restarts the child, until `reached(blackboard, runs)` says the limit is met
/// (then `again`) or has no valid limit (`None`: failure). Any other status is returned as
/// it is. The limit is read each time it is compared, so a bound one may change mid-run.
#[inline(always)]
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    again: Status,
    yields: bool,
    reached: impl Fn(&Blackboard, u32) -> Option<bool>,
) -> Status {
    let child = only_child(x, i);
    let mut restarts = 0;
    loop {
        let resumed = x.is_running(child);
        let status = x.tick(child);
        if status != again {
            return status;
        }
        // Saturating: an unbounded loop may count past u32::MAX in a long run.
        let runs = x.slot(i).cursor.saturating_add(1);
        let Some(done) = reached(x.cx.blackboard, runs) else {
            return Status::Failure;
        };
        x.slot(i).cursor = runs;
        if done {
            return again;
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
