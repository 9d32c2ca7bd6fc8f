//! ParallelAll: runs every child to completion, then judges by the failures (rule 64).
//! - each tick, every child that has not completed in this execution is ticked, in order;
//!   a child that succeeded or failed is not ticked again in this execution
//! - once every child has completed -> Failure if at least `max_failures'` of them failed,
//!   else Success; until then Running (it never stops early)
//! - `max_failures' = max_failures`, or, when negative, `n + max_failures + 1` (so -1
//!   means "all"), never below 0: 0 always fails, more than `n` always succeeds (BT.CPP
//!   refuses to tick the latter)
//! - no children -> Success (rule 12)
//!
//! BehaviorTree.CPP 4.8's ParallelAll (its `max_failures`, default 1). The failures so far
//! are the node's `cursor`; the children's `parallel_done` flags mark the completed ones.
//! JSON: `{"type":"ParallelAll","params":{"max_failures":1},"children":[…]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "ParallelAll",
        Category::Composite,
        "Runs all children until every one has completed; fails if at least `max_failures` \
         of them failed.",
    )
    .param(
        ParamSpec::new(
            "max_failures",
            ParamKind::Int,
            "Failures that make it fail once all children completed; negative counts from \
             the number of children (-1: all of them).",
        )
        .literal()
        .default(1.into()),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let max_failures = args
        .i64("max_failures")
        .map_err(|m| ParamError::new("max_failures", m))?;
    Ok(Kind::ParallelAll { max_failures })
}

/// Rule 64's threshold for `n` children.
pub(crate) fn threshold(max_failures: i64, n: usize) -> u64 {
    let n = n as i64;
    let t = if max_failures < 0 {
        (n.saturating_add(max_failures).saturating_add(1)).max(0)
    } else {
        max_failures
    };
    t as u64
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    max_failures: i64,
) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    if children.is_empty() {
        return Status::Success;
    }
    let mut failed = x.slot(i).cursor;
    let mut open = 0;
    for &child in children {
        if x.slot(child).parallel_done {
            continue;
        }
        match x.tick(child) {
            Status::Success => x.slot(child).parallel_done = true,
            Status::Failure => {
                x.slot(child).parallel_done = true;
                failed += 1;
            }
            Status::Running => open += 1,
        }
    }
    if open > 0 {
        x.slot(i).cursor = failed;
        return Status::Running;
    }
    // Every child has completed, so none runs: the engine's `clear` resets the flags.
    if u64::from(failed) >= threshold(max_failures, children.len()) {
        Status::Failure
    } else {
        Status::Success
    }
}

#[cfg(test)]
mod tests {
    use super::threshold;

    #[test]
    fn rule64_threshold() {
        assert_eq!(threshold(1, 3), 1);
        assert_eq!(threshold(-1, 3), 3, "-1: all children");
        assert_eq!(threshold(-2, 3), 2);
        assert_eq!(threshold(-9, 3), 0, "never below 0");
        assert_eq!(threshold(5, 3), 5, "more than the children: never reached");
        assert_eq!(threshold(i64::MIN, 3), 0);
    }
}
