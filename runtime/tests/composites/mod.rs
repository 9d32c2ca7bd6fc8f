//! Part C of docs/semantics.md (rules 10 to 14) and the positional composites (rules 37 to 39):
//! one module per composite.

mod empty_composites;
mod if_then_else;
mod parallel;
mod parallel_all;
mod random_selector;
mod selector;
mod sequence;
mod stand_ins;
mod switch;
mod utility_selector;
mod while_do_else;
