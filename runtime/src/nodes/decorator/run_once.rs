//! RunOnce: runs its child to completion once over the agent's lifetime.
//! - until the child has completed once -> tick it and return its status
//! - afterwards, `then_skip: true` (the default) -> Success without ticking the child
//! - afterwards, `then_skip: false` -> the status the child completed with, without
//!   ticking it
//!
//! An abort before the child completed does not count: the next execution runs it again.
//! The remembered outcome survives completion, aborts and root restarts (as the Limiter's
//! count, rule 19).
//! BT.CPP (`decorators/run_once_node.h`) returns SKIPPED after the first run when
//! `then_skip` is true. Arbor has no SKIPPED status (rule 1); Success is what a Sequence,
//! the usual parent of a one-time set-up step, does with a skipped child (it moves on).
//! Under a Fallback BT.CPP would move on to the next child instead; see docs/interop.md.
//! Compare the Limiter, which counts *starts* and then fails.
//! JSON: `{"type":"RunOnce","params":{"then_skip":true},"children":[child]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

/// `persist` values: what the child completed with (0 while it never has).
const SUCCEEDED: u32 = 1;
const FAILED: u32 = 2;

pub(crate) fn spec() -> NodeType {
    ty(
        "RunOnce",
        Category::Decorator,
        "Runs the child to completion once; afterwards succeeds (or repeats its result) \
         without running it.",
    )
    .param(
        ParamSpec::new(
            "then_skip",
            ParamKind::Bool,
            "After the first run: true succeeds at once; false returns the first run's status.",
        )
        .literal()
        .default(true.into()),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let then_skip = args
        .bool("then_skip")
        .map_err(|m| ParamError::new("then_skip", m))?;
    Ok(Kind::RunOnce { then_skip })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    then_skip: bool,
) -> Status {
    match x.slot(i).persist {
        SUCCEEDED => return Status::Success,
        FAILED if then_skip => return Status::Success,
        FAILED => return Status::Failure,
        _ => {}
    }
    let child = only_child(x, i);
    let status = x.tick(child);
    match status {
        Status::Success => x.slot(i).persist = SUCCEEDED,
        Status::Failure => x.slot(i).persist = FAILED,
        Status::Running => {}
    }
    status
}
