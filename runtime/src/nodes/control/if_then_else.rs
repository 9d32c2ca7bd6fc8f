//! IfThenElse: the first child decides which of the other two runs; not reactive.
//! - condition Running -> Running; the condition is ticked again next tick
//! - condition Success -> the second child ("then") is ticked in the same tick
//! - condition Failure -> the third child ("else") is ticked in the same tick; with only two
//!   children, Failure
//! - then/else Running -> Running; the next tick resumes that branch *without* re-ticking
//!   the condition
//! - then/else Success/Failure -> that status
//!
//! Takes 2 or 3 children: the loader rejects other counts (BT.CPP throws at construction).
//! The tick is still total for trees built by hand: no children -> Success (as rule 12); a
//! lone condition -> its status; children after the third are never ticked.
//! Per-execution state: the chosen branch (0 while the condition is pending), cleared on
//! completion and abort (rules 4, 28). BT.CPP: `controls/if_then_else_node.cpp`.
//! JSON: `{"type":"IfThenElse","children":[condition, then, else]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "IfThenElse",
        Category::Composite,
        "Ticks the first child; on success runs the second, on failure the third (if any).",
    )
    .child_range(2, 3)
    .child_roles(&["if", "then", "else"])
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::IfThenElse)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    let Some(&condition) = children.first() else {
        return Status::Success;
    };
    let mut branch = x.slot(i).cursor as usize;
    if branch == 0 {
        branch = match x.tick(condition) {
            Status::Running => return Status::Running,
            Status::Success => 1,
            Status::Failure if children.len() >= 3 => 2,
            Status::Failure => return Status::Failure,
        };
        x.slot(i).cursor = branch as u32;
    }
    match children.get(branch) {
        Some(&child) => x.tick(child),
        None => Status::Success,
    }
}
