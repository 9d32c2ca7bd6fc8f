//! Part E of docs/semantics.md (rules 21 to 30): attached decorators, abort types and the abort
//! procedure.

mod aborts;
mod attached_decorators;
mod script_decorators;
