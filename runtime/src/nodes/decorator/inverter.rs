//! Inverter (node): swaps its child's success and failure; running passes through (rule 15).
//! JSON: `{"type":"Inverter","children":[child]}`. The attached Inverter decorator
//! (rule 29) is in `nodes/attached`.

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Inverter",
        Category::Decorator,
        "Turns the child's success into failure and failure into success.",
    )
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Inverter)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let child = only_child(x, i);
    x.tick(child).inverted()
}
