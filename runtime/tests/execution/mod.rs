//! Part A of docs/semantics.md (rules 1 to 5): statuses, the clock, the node lifecycle,
//! completion and restarts, same-tick transitions.

mod enabled;
mod lifecycle;
