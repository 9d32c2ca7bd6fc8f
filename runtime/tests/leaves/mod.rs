//! Part B of docs/semantics.md (rules 6 to 9, 33, 34 and the Arbor leaves): one module per leaf
//! type.

mod condition;
mod increment;
mod log;
mod random;
mod scripted;
mod set_blackboard;
mod wait;
