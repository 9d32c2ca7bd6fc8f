//! Composites: nodes with any number of children.

pub(crate) mod if_then_else;
pub(crate) mod parallel;
pub(crate) mod selector;
pub(crate) mod sequence;
pub(crate) mod switch;
pub(crate) mod while_do_else;

use crate::spec::{ParamKind, ParamSpec};

/// The `yield` flag of Sequence and Selector (rule 63): BT.CPP's `async_id` node, which
/// ends the tick after a child that started and `completed` in it.
pub(crate) fn yield_param(async_id: &str, completed: &str) -> ParamSpec {
    ParamSpec::new(
        "yield",
        ParamKind::Bool,
        &format!(
            "BehaviorTree.CPP's {async_id}: a child that started and {completed} in this tick \
             ends the tick (returns running) when more children follow (rule 63)."
        ),
    )
    .literal()
    .default(false.into())
}
