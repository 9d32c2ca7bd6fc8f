//! Built-in leaves (docs/semantics.md, part B, and rules 31, 32, 34, 44 and 45).

pub(crate) mod condition;
pub(crate) mod increment;
pub(crate) mod log;
pub(crate) mod random;
pub(crate) mod script;
pub(crate) mod script_condition;
pub(crate) mod scripted;
pub(crate) mod send_event;
pub(crate) mod set_blackboard;
pub(crate) mod set_trigger;
pub(crate) mod unset_blackboard;
pub(crate) mod wait;
pub(crate) mod was_updated;
