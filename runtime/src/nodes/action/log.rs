//! Log: hands `message` to the observer (the CLI prints it, the editor's preview lists it)
//! and succeeds. Without an observer it only succeeds.
//! JSON: `{"type":"Log","params":{"message":"reached the door"}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};

pub(crate) fn spec() -> NodeType {
    ty("Log", Category::Action, "Logs a message and succeeds.").param(ParamSpec::new(
        "message",
        ParamKind::String,
        "The text to log.",
    ))
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let message = args
        .port::<str>("message")
        .map_err(|m| ParamError::new("message", m))?;
    Ok(Kind::Log { message })
}

/// A bound message without a valid value fails and logs nothing.
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    message: &InPort<str>,
) -> Status {
    let Some(message) = message.read(x.cx.blackboard) else {
        return Status::Failure;
    };
    x.obs.event(TraceEvent::Log {
        node: NodeId(i),
        message,
    });
    Status::Success
}
