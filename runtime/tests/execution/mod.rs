//! Part A of docs/semantics.md (rules 1 to 5): statuses, the clock, the node lifecycle,
//! completion and restarts, same-tick transitions;
//! rule 85: the tick mode.

mod enabled;
mod lifecycle;
mod tick_mode;
