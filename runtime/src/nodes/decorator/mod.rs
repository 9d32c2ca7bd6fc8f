//! Decorator nodes: nodes with exactly one child (docs/semantics.md, part D, and rules 40 to 43).

pub(crate) mod cooldown;
pub(crate) mod delay;
pub(crate) mod force_failure;
pub(crate) mod if_updated;
pub(crate) mod inverter;
pub(crate) mod keep_running_until_failure;
pub(crate) mod limiter;
pub(crate) mod loop_queue;
pub(crate) mod repeat;
pub(crate) mod restart_loop;
pub(crate) mod retry;
pub(crate) mod run_once;
pub(crate) mod subtree;
pub(crate) mod succeeder;
pub(crate) mod timeout;

use crate::exec::Exec;
use crate::trace::Observer;

/// The single child of decorator node `i` (the loader guarantees there is exactly one).
pub(crate) fn only_child<C, O: Observer + ?Sized>(x: &Exec<'_, '_, C, O>, i: u32) -> u32 {
    x.tree.child_indices(i)[0]
}
