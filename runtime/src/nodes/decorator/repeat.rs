//! Repeat: runs its child again each time it succeeds, in the same tick (rule 17).
//! - child Running -> Running; the count is kept and the child resumes next tick
//! - child Failure -> Failure at once
//! - child Success -> count += 1; Success when it reaches `count`, else restart the child
//! - `count <= 0` (the default is 0) repeats forever
//!
//! IMPORTANT: a child that succeeds synchronously would loop forever within one tick. After
//! `MAX_LOOPS_PER_TICK` child runs in one tick the Repeat returns Running, keeps its count
//! and continues next tick (Arbor's choice for rule 36). It does the same when the tick's
//! `LOOP_BUDGET_PER_TICK` restarts, shared by every loop of the tick, are spent (rule 81),
//! so loops nested in loops cannot multiply a tick's work.
//! With `yield: true` (BT.CPP 4.8's Repeat, rule 49) a child run that started and succeeded
//! in this tick ends the tick: Running, and the next run starts next tick.
//! JSON: `{"type":"Repeat","params":{"count":3},"children":[child]}`

use crate::args::Args;
use crate::exec::{Exec, MAX_LOOPS_PER_TICK};
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Repeat",
        Category::Decorator,
        "Runs the child again each time it succeeds; fails as soon as it fails.",
    )
    .param(
        ParamSpec::new(
            "count",
            ParamKind::Int,
            "Successful runs before succeeding; 0 or less repeats forever.",
        )
        .default(0.into()),
    )
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
    let count = args
        .port::<i64>("count")
        .map_err(|m| ParamError::new("count", m))?;
    let yields = args
        .bool("yield")
        .map_err(|m| ParamError::new("yield", m))?;
    Ok(Kind::Repeat { count, yields })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    count: &InPort<i64>,
    yields: bool,
) -> Status {
    let child = only_child(x, i);
    let mut restarts = 0;
    loop {
        let resumed = x.is_running(child);
        match x.tick(child) {
            Status::Running => return Status::Running,
            Status::Failure => return Status::Failure,
            Status::Success => {
                // A bound count is read each time it is compared; without a valid value
                // the Repeat fails.
                let Some(count) = count.read(x.cx.blackboard) else {
                    return Status::Failure;
                };
                let slot = x.slot(i);
                // Saturating: an unbounded Repeat may count past u32::MAX in a long run.
                slot.cursor = slot.cursor.saturating_add(1);
                if count > 0 && i64::from(slot.cursor) >= count {
                    return Status::Success;
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
