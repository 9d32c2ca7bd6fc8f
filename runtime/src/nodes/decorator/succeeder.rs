//! Succeeder: succeeds whenever its child completes, with either status; running passes
//! through (rule 16; BT.CPP ForceSuccess). JSON: `{"type":"Succeeder","children":[child]}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Succeeder",
        Category::Decorator,
        "Succeeds when the child completes, whatever it returned.",
    )
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Succeeder)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let child = only_child(x, i);
    match x.tick(child) {
        Status::Running => Status::Running,
        _ => Status::Success,
    }
}
