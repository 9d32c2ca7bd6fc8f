//! Part D of docs/semantics.md (rules 15 to 20, 40 to 42): one module per decorator node.

mod cooldown;
mod delay;
mod if_updated;
mod inverter;
mod keep_running_until_failure;
mod limiter;
mod loop_budget;
mod loop_queue;
mod repeat;
mod retry;
mod run_once;
mod succeeder_force_failure;
mod timeout;
