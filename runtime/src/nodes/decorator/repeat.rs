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
use crate::exec::Exec;
use crate::nodes::{decorator::restart_loop, ty, Kind, LowerCx, ParamError};
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
    .param(restart_loop::yield_param())
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
    // Without a valid count the Repeat fails.
    restart_loop::tick(x, i, Status::Success, yields, |bb, runs| {
        count
            .read(bb)
            .map(|count| count > 0 && i64::from(runs) >= count)
    })
}
