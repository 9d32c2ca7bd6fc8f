//! SetTrigger: sets a trigger, which stays set until a CheckTrigger resets it (rule 32);
//! success. JSON: `{"type":"SetTrigger","params":{"trigger":"door_open"}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "SetTrigger",
        Category::Action,
        "Sets a trigger that stays set until a CheckTrigger consumes it.",
    )
    .param(ParamSpec::new(
        "trigger",
        ParamKind::Trigger,
        "The trigger's name.",
    ))
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let name = args
        .str("trigger")
        .map_err(|m| ParamError::new("trigger", m))?;
    Ok(Kind::SetTrigger {
        trigger: cx.names.trigger(name),
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, trigger: u32) -> Status {
    x.st.triggers[trigger as usize] = true;
    Status::Success
}
