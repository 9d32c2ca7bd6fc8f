//! WhileDoElse: the reactive IfThenElse; the first child is ticked on *every* tick.
//! - condition Running -> Running (a running branch is left running, not ticked)
//! - condition Success -> the "else" branch (third child) is aborted if running, then the
//!   "do" branch (second child) is ticked
//! - condition Failure -> the "do" branch is aborted if running, then the "else" branch is
//!   ticked; with only two children, Failure
//! - branch Running -> Running; branch Success/Failure -> that status, and every child still
//!   running is aborted
//!
//! So a branch that is running is pre-empted as soon as the condition changes its mind.
//! Takes 2 or 3 children (the loader rejects other counts); as IfThenElse, the tick is
//! total anyway: no children -> Success, a lone condition -> its status.
//! No per-execution state. BT.CPP: `controls/while_do_else_node.cpp`.
//! JSON: `{"type":"WhileDoElse","children":[condition, do, else]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "WhileDoElse",
        Category::Composite,
        "Ticks the first child every tick; runs the second while it succeeds, the third \
         while it fails.",
    )
    .child_range(2, 3)
    .child_roles(&["condition", "do", "else"])
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::WhileDoElse)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    let Some(&condition) = children.first() else {
        return Status::Success;
    };
    let (run, halt, missing) = match x.tick(condition) {
        Status::Running => return Status::Running,
        Status::Success => (children.get(1), children.get(2), Status::Success),
        Status::Failure => (children.get(2), children.get(1), Status::Failure),
    };
    // The other branch goes first, so that its abort events precede the new branch's
    // enter (BT.CPP halts it before ticking).
    if let Some(&other) = halt {
        x.abort(other);
    }
    let status = match run {
        Some(&branch) => x.tick(branch),
        None => missing,
    };
    if status.is_done() {
        for &child in children {
            x.abort(child);
        }
    }
    status
}
