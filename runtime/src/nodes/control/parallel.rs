//! Parallel: ticks every unfinished child each tick and counts (rules 13 and 14).
//! - `need' = clamp(need, 1, n)`; a child that succeeded is flagged and not ticked again
//!   during this execution; a child that failed is ticked again next tick
//! - Success as soon as `need'` children have succeeded
//! - Failure as soon as this tick's failures exceed `n - need'`
//! - otherwise Running; no children -> Success (rule 12)
//!
//! On completion or abort, children still running are aborted in child order.
//! JSON: `{"type":"Parallel","params":{"need":1},"children":[…]}`
//!
//! With `failures` (BT.CPP's `failure_count`, rule 62) a failed child is finished too and
//! not ticked again in this execution; successes and failures count over the execution,
//! and the Parallel fails once `failures` children have failed or `need'` successes can no
//! longer be reached. The Parallel's `cursor` holds the failures so far.

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Parallel",
        Category::Composite,
        "Runs all children each tick; succeeds once `need` of them have succeeded.",
    )
    .param(
        ParamSpec::new(
            "need",
            ParamKind::Int,
            "How many children must succeed (clamped to 1..number of children).",
        )
        .literal()
        .default(1.into()),
    )
    .param(
        ParamSpec::new(
            "failures",
            ParamKind::Int,
            "BehaviorTree.CPP's counting (failure_count): a failed child is not ticked \
             again, and the Parallel fails once this many children have failed. Left out: \
             a failed child is ticked again next tick.",
        )
        .literal()
        .optional(),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let need = args.i64("need").map_err(|m| ParamError::new("need", m))?;
    let failures = match args.value("failures") {
        None => None,
        Some(_) => {
            let f = args
                .i64("failures")
                .map_err(|m| ParamError::new("failures", m))?;
            if f < 0 {
                return Err(ParamError::new(
                    "failures",
                    format!("must be 0 or more, found {f}"),
                ));
            }
            Some(f.min(i64::from(u32::MAX)) as u32)
        }
    };
    Ok(Kind::Parallel {
        need: need.clamp(0, i64::from(u32::MAX)) as u32,
        failures,
    })
}

/// Rule 62: BT.CPP's Parallel. Each child completes once per execution; `cursor` counts
/// the failures, the finished flags mark successes and failures alike.
pub(crate) fn tick_counting<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    need: u32,
    failures: u32,
) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    let n = children.len() as u32;
    if n == 0 {
        return Status::Success;
    }
    let need = need.clamp(1, n);
    let mut failed = x.slot(i).cursor;
    let mut finished = children
        .iter()
        .filter(|&&c| x.slot(c).parallel_done)
        .count() as u32;
    for &child in children {
        if !x.slot(child).parallel_done {
            match x.tick(child) {
                Status::Success => {
                    x.slot(child).parallel_done = true;
                    finished += 1;
                }
                Status::Failure => {
                    x.slot(child).parallel_done = true;
                    finished += 1;
                    failed += 1;
                }
                Status::Running => {}
            }
        }
        // BT.CPP checks after every child, in this order.
        let outcome = if finished - failed >= need {
            Status::Success
        } else if n - failed < need || failed == failures {
            Status::Failure
        } else {
            continue;
        };
        return complete(x, children, outcome);
    }
    x.slot(i).cursor = failed;
    Status::Running
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    need: u32,
) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    let n = children.len() as u32;
    if n == 0 {
        return Status::Success;
    }
    let need = need.clamp(1, n);
    let (mut finished, mut failed) = (0, 0);
    for &child in children {
        if x.slot(child).parallel_done {
            finished += 1;
        } else {
            match x.tick(child) {
                Status::Success => {
                    x.slot(child).parallel_done = true;
                    finished += 1;
                }
                Status::Failure => failed += 1,
                Status::Running => {}
            }
        }
        let outcome = if finished == need {
            Status::Success
        } else if failed > n - need {
            Status::Failure
        } else {
            continue;
        };
        return complete(x, children, outcome);
    }
    Status::Running
}

/// Rule 14: a completing Parallel aborts its running children in child order.
fn complete<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    children: &[u32],
    outcome: Status,
) -> Status {
    for &other in children {
        x.abort(other);
    }
    outcome
}
