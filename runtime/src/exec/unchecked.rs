//! The runtime's only `unsafe`: unchecked indexing at the engine's hottest sites (a host
//! leaf's slot, a plain Sequence's or Selector's slot and its children's entries), where a
//! bounds check per node was a measurable part of a tick (docs/performance.md).
//!
//! The invariant that makes it sound, for an `Exec` over tree `t` and node state `st`:
//! 1. `st.slots.len() == t.nodes.len()`: `Agent::new` makes one slot per node and an agent
//!    only ever changes tree by being replaced whole (`Agent::reload`); `Exec::new` checks
//!    it again, once per tick, with a real `assert!`.
//! 2. every `Entry::node` is `< t.nodes.len()`, and every `Step::Loop` has
//!    `first <= end <= t.entries.len()`: entries are built once, from the finished node and
//!    child arrays of the same tree (`entry::entries`), which asserts both as it builds them;
//!    a `CompiledTree` is immutable afterwards. The root's entry is asserted the same way.
//!
//! `tests::every_entry_is_in_bounds` re-checks (2) on trees of every built-in kind, and the
//! debug assertions below check each access in debug builds (the whole test suite).

use super::entry::Entry;
use super::state::Slot;

/// Invariant 1 broken: an agent's state does not belong to the tree it is ticked with.
#[cold]
#[inline(never)]
pub(super) fn mismatch(slots: usize, nodes: usize) -> ! {
    panic!("an agent's state has {slots} node slots for a tree of {nodes} nodes")
}

/// `slots[i]`, for `i` an `Entry::node` of the tree (invariants 1 and 2), or a node index
/// the caller has just used to index `t.nodes` (invariant 1 alone).
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn slot(slots: &mut [Slot], i: u32) -> &mut Slot {
    debug_assert!((i as usize) < slots.len());
    // SAFETY: invariants 1 and 2 of this module: `i < t.nodes.len() == slots.len()`.
    unsafe { slots.get_unchecked_mut(i as usize) }
}

/// `entries[first..end]`, for the range of a `Step::Loop` of the tree (invariant 2).
#[inline(always)]
#[allow(unsafe_code)]
pub(super) fn children<C>(entries: &[Entry<C>], first: u32, end: u32) -> &[Entry<C>] {
    debug_assert!(first <= end && end as usize <= entries.len());
    // SAFETY: invariant 2 of this module: `first <= end <= entries.len()`.
    unsafe { entries.get_unchecked(first as usize..end as usize) }
}
