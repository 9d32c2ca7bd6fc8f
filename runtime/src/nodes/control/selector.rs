//! Selector: tries children left to right until one does not fail, an OR (rule 11).
//! - child Failure -> the next child is ticked in the same tick (rule 5)
//! - child Running -> Running; the next tick resumes at that child
//! - child Success -> Success
//! - all Failure   -> Failure; no children -> Success (rule 12)
//!
//! While running, each earlier child with a LowerPriority/Both condition is ticked again as
//! a fresh execution; if it runs or succeeds, the running child is aborted and it takes over
//! (rule 24). With `dynamic: true` every earlier child is re-ticked, as BT.CPP's
//! ReactiveFallback (rule 27). With `yield: true` (BT.CPP's AsyncFallback, rule 63) a
//! child that was not running and fails ends the tick: running, the next child next tick.
//! JSON: `{"type":"Selector","params":{"dynamic":false},"children":[…]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::tree::Node;

pub(crate) fn spec() -> NodeType {
    ty(
        "Selector",
        Category::Composite,
        "Tries children in order until one succeeds or runs; fails when all fail.",
    )
    .param(
        ParamSpec::new(
            "dynamic",
            ParamKind::Bool,
            "Re-tick earlier children every tick while a later one runs (reactive).",
        )
        .literal()
        .default(false.into()),
    )
    .param(super::yield_param("AsyncFallback", "failed"))
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let dynamic = args
        .bool("dynamic")
        .map_err(|m| ParamError::new("dynamic", m))?;
    let yields = args
        .bool("yield")
        .map_err(|m| ParamError::new("yield", m))?;
    if yields && dynamic {
        return Err(ParamError::new(
            "yield",
            "a Selector cannot be both `dynamic` and `yield`",
        ));
    }
    Ok(Kind::Selector { dynamic, yields })
}

/// Inlined into `Exec::tick_node`, so resuming through a composite costs one call, not two.
#[inline(always)]
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    node: &Node,
    current: u32,
    dynamic: bool,
    yields: bool,
) -> Status {
    let children = x.tree.children_of(node);
    if children.is_empty() {
        return Status::Success;
    }
    if yields {
        // Rule 63, BT.CPP 4.8's AsyncFallback (never `dynamic`: refused at load).
        return super::tick_one_per_tick(x, i, children, current, Status::Failure, false);
    }
    let current = current as usize;
    // Rules 24 and 27 only concern earlier children that are re-ticked: every one with
    // `dynamic`, otherwise those with a LowerPriority/Both condition. Without either
    // (`rescan`, computed at load) the walk would skip them all, so it is skipped whole.
    if current > 0 && node.rescan {
        if let Some(status) = preempt(x, i, children, current, dynamic) {
            return status;
        }
    }
    super::walk_from(x, i, node, current, Status::Failure)
}

/// Rules 24 and 27: re-ticks the children before `current` that may pre-empt it; the first
/// that runs or succeeds aborts the running child, becomes current and gives its status.
#[inline(never)]
fn preempt<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    children: &[u32],
    current: usize,
    dynamic: bool,
) -> Option<Status> {
    let tree = x.tree;
    let running = children[current];
    for (k, &child) in children[..current].iter().enumerate() {
        if !dynamic && !tree.nodes[child as usize].lower_priority {
            continue;
        }
        match x.tick(child) {
            Status::Failure => {}
            status => {
                x.abort(running);
                x.slot(i).cursor = k as u32;
                return Some(status);
            }
        }
    }
    None
}
