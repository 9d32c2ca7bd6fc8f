//! Part B of docs/semantics.md and the other leaves (rules 6 to 9, 34, 44 and 45), and root keys in subtree files (rule 70): one module
//! per leaf type.

mod condition;
mod increment;
mod log;
mod random;
mod root_keys;
mod script;
mod scripted;
mod set_blackboard;
mod wait;
