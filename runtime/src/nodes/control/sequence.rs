//! Sequence: ticks children left to right, an AND (rule 10).
//! - child Success -> the next child is ticked in the same tick (rule 5)
//! - child Running -> Running; the next tick resumes at that child, earlier ones are skipped
//! - child Failure -> Failure
//! - all Success   -> Success; no children -> Success (rule 12)
//!
//! While running, a child before the current one that carries a LowerPriority/Both condition
//! has only those conditions re-checked; if one is false the running child is aborted and
//! the Sequence fails (rule 25). With `dynamic: true` every earlier child is re-ticked each
//! tick, as BT.CPP's ReactiveSequence (rule 27). `memory: true` is BT.CPP's
//! SequenceWithMemory (rule 50); `yield: true` is its AsyncSequence, rule 50 without the
//! remembered failure (rule 63).
//! JSON: `{"type":"Sequence","params":{"dynamic":false},"children":[…]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::tree::Node;

pub(crate) fn spec() -> NodeType {
    ty(
        "Sequence",
        Category::Composite,
        "Runs children in order until one fails; succeeds when all succeed.",
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
    .param(
        ParamSpec::new(
            "memory",
            ParamKind::Bool,
            "BehaviorTree.CPP's SequenceWithMemory: after a failure the next run resumes at the \
             failed child, and a child that started and succeeded in this tick ends the tick \
             (rule 50).",
        )
        .literal()
        .default(false.into()),
    )
    .param(super::yield_param("AsyncSequence", "succeeded"))
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let dynamic = args
        .bool("dynamic")
        .map_err(|m| ParamError::new("dynamic", m))?;
    let memory = args
        .bool("memory")
        .map_err(|m| ParamError::new("memory", m))?;
    let yields = args
        .bool("yield")
        .map_err(|m| ParamError::new("yield", m))?;
    if memory && dynamic {
        return Err(ParamError::new(
            "memory",
            "a Sequence cannot be both `dynamic` and `memory`",
        ));
    }
    if yields && dynamic {
        return Err(ParamError::new(
            "yield",
            "a Sequence cannot be both `dynamic` and `yield`",
        ));
    }
    Ok(Kind::Sequence {
        dynamic,
        memory,
        // `memory` yields too (rule 50).
        yields: yields && !memory,
    })
}

/// Inlined into `Exec::tick_node`, so resuming through a composite costs one call, not two.
#[inline(always)]
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    node: &Node,
    current: u32,
    dynamic: bool,
    memory: bool,
    yields: bool,
) -> Status {
    if memory || yields {
        // Rule 50 (SequenceWithMemory: resumes at the failed child) and rule 63.
        let children = x.tree.children_of(node);
        return super::tick_one_per_tick(x, i, children, current, Status::Success, memory);
    }
    let children = x.tree.children_of(node);
    let current = current as usize;
    // Rules 25 and 27 only concern earlier children: every one with `dynamic`, otherwise
    // those with a LowerPriority/Both condition. Without either (`rescan`, computed at
    // load) the walk would skip them all, so it is skipped whole.
    if current > 0 && node.rescan {
        if let Some(status) = preempt(x, i, children, current, dynamic) {
            return status;
        }
    }
    super::walk_from(x, i, node, current, Status::Success)
}

/// Rules 25 and 27 for the children before `current`: with `dynamic` each is re-ticked and
/// may pre-empt or fail the Sequence; otherwise only the LowerPriority/Both conditions of
/// those that carry one are re-checked, and a false one fails it. Either way the running
/// child is aborted first.
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
        if dynamic {
            match x.tick(child) {
                Status::Success => {}
                Status::Running => {
                    x.abort(running);
                    x.slot(i).cursor = k as u32;
                    return Some(Status::Running);
                }
                Status::Failure => {
                    x.abort(running);
                    return Some(Status::Failure);
                }
            }
        } else if tree.nodes[child as usize].lower_priority && !x.lower_priority_holds(child) {
            x.abort(running);
            return Some(Status::Failure);
        }
    }
    None
}
