//! IfUpdated: runs its child only when `key` was written since the node last looked
//! (rule 67).
//! - child running -> tick it, return its status (the key is not looked at)
//! - otherwise, the key has a value and its update number (rule 66) differs from the one
//!   this node saw last -> tick the child, return its status
//! - otherwise -> `otherwise` without ticking the child: `running` waits for a write,
//!   `success` or `failure` pass over the node
//!
//! Each look remembers the key's update number (when it has a value), across executions:
//! the node's `persist`. So the first look after a write passes, the next one does not.
//!
//! BehaviorTree.CPP 4.8's WaitValueUpdate (`otherwise: running`) and SkipUnlessUpdated
//! (SKIPPED, which the import writes as `success`, or `failure` under a Fallback, as for
//! SkipIf, rule 56). JSON:
//! `{"type":"IfUpdated","params":{"key":"goal","otherwise":"running"},"children":[child]}`

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "IfUpdated",
        Category::Decorator,
        "Runs the child only when a blackboard key was written since this node last looked.",
    )
    .param(ParamSpec::new(
        "key",
        ParamKind::Key,
        "The key whose writes are watched.",
    ))
    .param(
        ParamSpec::new(
            "otherwise",
            ParamKind::Enum,
            "The status when the key was not written: running (wait for a write, the \
             default), success or failure (pass over the node).",
        )
        .literal()
        .values(&["running", "success", "failure"])
        .default("running".into()),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
    let otherwise = match args.str("otherwise") {
        Ok("success") => Status::Success,
        Ok("failure") => Status::Failure,
        _ => Status::Running,
    };
    Ok(Kind::IfUpdated { key, otherwise })
}

/// Rules 67 and 68: whether `key` was written since node `i` last looked; remembers what
/// it saw. A key without a value was not written (BT.CPP: the entry does not exist).
pub(crate) fn updated_since_last_look<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    key: Key,
) -> bool {
    let bb = &*x.cx.blackboard;
    if bb.get(key).is_none() {
        return false;
    }
    let now = bb.updates(key);
    let slot = x.slot(i);
    let seen = std::mem::replace(&mut slot.persist, now);
    seen != now
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    key: Key,
    otherwise: Status,
) -> Status {
    let child = only_child(x, i);
    if x.is_running(child) || updated_since_last_look(x, i, key) {
        x.tick(child)
    } else {
        otherwise
    }
}
