//! SendEvent: raises an event and succeeds (rule 31). The event is visible to every check
//! for the rest of this tick, and during the next tick to checks made by nodes at or before
//! this one in depth-first pre-order (those this tick had not yet passed); then it is gone.
//! JSON: `{"type":"SendEvent","params":{"event":"alarm"}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "SendEvent",
        Category::Action,
        "Raises an event that CheckEvent decorators see for about one tick.",
    )
    .param(ParamSpec::new(
        "event",
        ParamKind::Event,
        "The event's name.",
    ))
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let name = args.str("event").map_err(|m| ParamError::new("event", m))?;
    Ok(Kind::SendEvent {
        event: cx.names.event(name),
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    event: u32,
) -> Status {
    let run = x.st.run;
    x.st.events[event as usize].sent = Some((run, i));
    Status::Success
}
