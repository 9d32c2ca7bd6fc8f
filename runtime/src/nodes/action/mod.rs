//! Built-in leaves (Part B of SEMANTICS.md and the node library).

pub(crate) mod condition;
pub(crate) mod increment;
pub(crate) mod log;
pub(crate) mod random;
pub(crate) mod scripted;
pub(crate) mod send_event;
pub(crate) mod set_blackboard;
pub(crate) mod set_trigger;
pub(crate) mod wait;
