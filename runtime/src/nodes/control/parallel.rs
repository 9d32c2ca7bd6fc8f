//! Parallel: ticks every unfinished child each tick and counts (rules 13 and 14).
//! - `need' = clamp(need, 1, n)`; a child that succeeded is flagged and not ticked again
//!   during this execution; a child that failed is ticked again next tick
//! - Success as soon as `need'` children have succeeded
//! - Failure as soon as this tick's failures exceed `n - need'`
//! - otherwise Running; no children -> Success (rule 12)
//!
//! On completion or abort, children still running are aborted in child order.
//! JSON: `{"type":"Parallel","params":{"need":1},"children":[…]}`

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
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let need = args.i64("need").map_err(|m| ParamError::new("need", m))?;
    Ok(Kind::Parallel {
        need: need.clamp(0, i64::from(u32::MAX)) as u32,
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, C, O>, i: u32, need: u32) -> Status {
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
        for &other in children {
            x.abort(other);
        }
        return outcome;
    }
    Status::Running
}
