//! Scripted: a test double that returns a scripted list of statuses (rule 6).
//! The k-th body execution over the agent's lifetime returns `returns[min(k, len-1)]`:
//! after the list ends, the last value repeats. A blocked, aborted or skipped leaf consumes
//! no value. Use it to prototype a tree before its actions exist.
//! JSON: `{"type":"Scripted","params":{"returns":["running","success"]}}`

use std::sync::Arc;

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Scripted",
        Category::Action,
        "Returns the listed statuses in turn, repeating the last (a stand-in for prototyping).",
    )
    .param(
        ParamSpec::new(
            "returns",
            ParamKind::Statuses,
            "Statuses returned by successive runs: success, failure or running.",
        )
        .default(serde_json::json!(["success"])),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let returns = args
        .statuses("returns")
        .map_err(|m| ParamError::new("returns", m))?;
    if returns.is_empty() {
        return Err(ParamError::new("returns", "must list at least one status"));
    }
    Ok(Kind::Scripted { returns })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    returns: &Arc<[Status]>,
) -> Status {
    let slot = x.slot(i);
    let k = (slot.persist as usize).min(returns.len() - 1);
    slot.persist = slot.persist.saturating_add(1);
    returns[k]
}
