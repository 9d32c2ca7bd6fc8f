//! KeepRunningUntilFailure: runs its child again and again until it fails.
//! - child Failure -> Failure
//! - child Success -> Running; the child starts a fresh execution on the next tick
//! - child Running -> Running
//!
//! Never succeeds. Unlike Repeat (rule 17), the restart waits for the next tick, so a child
//! that succeeds synchronously runs once per tick. BT.CPP:
//! `decorators/keep_running_until_failure_node.h`.
//! JSON: `{"type":"KeepRunningUntilFailure","children":[child]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "KeepRunningUntilFailure",
        Category::Decorator,
        "Runs the child again each tick after it succeeds; fails when it fails.",
    )
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::KeepRunningUntilFailure)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let child = only_child(x, i);
    match x.tick(child) {
        Status::Failure => Status::Failure,
        Status::Success | Status::Running => Status::Running,
    }
}
