//! Selector: tries children left to right until one does not fail, an OR (rule 11).
//! - child Failure -> the next child is ticked in the same tick (rule 5)
//! - child Running -> Running; the next tick resumes at that child
//! - child Success -> Success
//! - all Failure   -> Failure; no children -> Success (rule 12)
//!
//! While running, each earlier child with a LowerPriority/Both condition is ticked again as
//! a fresh execution; if it runs or succeeds, the running child is aborted and it takes over
//! (rule 24). With `dynamic: true` every earlier child is re-ticked, as BT.CPP's
//! ReactiveFallback (rule 27).
//! JSON: `{"type":"Selector","params":{"dynamic":false},"children":[…]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

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
        .default(false.into()),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let dynamic = args
        .bool("dynamic")
        .map_err(|m| ParamError::new("dynamic", m))?;
    Ok(Kind::Selector { dynamic })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, C, O>,
    i: u32,
    dynamic: bool,
) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    if children.is_empty() {
        return Status::Success;
    }
    let current = x.slot(i).cursor as usize;
    if current > 0 {
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
                    return status;
                }
            }
        }
    }
    for (k, &child) in children.iter().enumerate().skip(current) {
        match x.tick(child) {
            Status::Failure => {}
            Status::Running => {
                x.slot(i).cursor = k as u32;
                return Status::Running;
            }
            Status::Success => return Status::Success,
        }
    }
    Status::Failure
}
