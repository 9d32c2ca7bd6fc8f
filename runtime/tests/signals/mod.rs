//! Part F of docs/semantics.md (rules 31 to 33): events, triggers, the blackboard and expiry.

mod blackboard_expiry;
mod events_triggers;
