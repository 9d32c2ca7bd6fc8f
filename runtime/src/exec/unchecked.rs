//! The runtime's only `unsafe`: unchecked indexing at the engine's hottest sites (a host
//! leaf's slot, a plain Sequence's or Selector's slot and its children's entries), where a
//! bounds check per node was a measurable part of a tick (docs/performance.md).
//!
//! The invariant that makes it sound, for an `Exec` over tree `t` and node state `st`:
//! 1. `st.slots.len() == t.nodes.len()`: a type invariant of `Agent`, the only owner of a
//!    `State` (it has no constructor outside the crate and no `Agent` method lends it out):
//!    `Agent::new` makes one slot per node, an agent only ever changes tree by being
//!    replaced whole (`Agent::reload`), nothing resizes the slots, and every `Exec` is
//!    built from one agent's own tree and state (`Agent`'s methods and the generated
//!    program they call, `codegen::support::run`; `codegen::support::direct` after
//!    checking that the agent's tree is the generated code's own, whose node count
//!    `support::Checked` holds). `Exec::new` checks it again in debug builds; release
//!    ticks do not pay for it (docs/performance.md, "How the engine gets its speed").
//! 2. every `Entry::node` is `< t.nodes.len()`, and every `Step::Loop` has
//!    `first <= end <= t.entries.len()`: entries are built once, from the finished node and
//!    child arrays of the same tree (`entry::entries`), which asserts both as it builds them;
//!    a `CompiledTree` is immutable afterwards. The root's entry is asserted the same way.
//!
//! `tests` re-check (2) on a tree of loops, leaves and general nodes and show that both
//! checks refuse what breaks them; the debug assertions below check each access in debug
//! builds (the whole test suite).
//!
//! Also [`HeldAction`], for generated code (`codegen::support::Leaf`): a shared action with
//! its data pointer computed once. Calling through an `Arc<dyn Action>` computes where the
//! data starts from the vtable's alignment on every call (seven instructions per leaf on
//! x86-64, a sixth of a generated tick of the reference tree). The invariant: the pointer
//! is the `Arc`'s own deref, and the `Arc`, kept beside it and never lent out, keeps that
//! allocation alive and shared-only for as long as the `HeldAction` exists.

use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::Arc;

use super::entry::Entry;
use super::state::Slot;
use super::Exec;
use crate::host::Action;

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

/// The node slots of an agent whose tree has `N` nodes, for generated code
/// (`codegen::support::Fixed`): their address taken once per tick, so that a slot is one
/// add away after every host action call. Reached through the `Exec` instead, the slots'
/// address is reloaded after each call (two loads per leaf and per loop), because the
/// action's `&mut ActionCtx` points into the `Exec` and the compiler cannot tell that the
/// call leaves the `Exec`'s other fields alone.
///
/// The invariant: `ptr` is the buffer of a `Vec<Slot>` of length `N` (checked when it is
/// made) that is neither resized nor dropped during `'r`: [`Slots::of`] borrows the tick's
/// `Exec`, which holds the `Vec`, for `'r`, and no `Exec` code resizes the slots.
/// [`Slots::at`] asserts `I < N` at compile time and lends the slot for as long as it
/// borrows the `Slots` mutably, so two slots lent by one `Slots` are never alive together;
/// what runs while a slot is lent (`exec::host_at`, `loop_start_at`, `loop_finish_at`) gets
/// only the action context and the observer, which cannot reach the slots.
pub(crate) struct Slots<'r, const N: usize> {
    ptr: NonNull<Slot>,
    _exec: PhantomData<&'r mut Slot>,
}

impl<'r, const N: usize> Slots<'r, N> {
    /// The tick's `Exec` and its slots' address, if it has `N` slots.
    #[inline(always)]
    pub fn of<'a, 'c, C, O: ?Sized>(
        exec: &'r mut Exec<'a, 'c, C, O>,
    ) -> Option<(&'r mut Exec<'a, 'c, C, O>, Slots<'r, N>)> {
        let slots = Slots::new(&mut exec.st.slots)?;
        Some((exec, slots))
    }

    /// The tick's `Exec` and its slots' address, for an `Exec` whose tree is known to
    /// have `N` nodes: by invariant 1 its agent has `N` slots, so only debug builds
    /// check. The caller's proof is a `codegen::support::Checked` tree the agent runs
    /// (`codegen::support::direct`).
    #[inline(always)]
    pub fn of_checked<'a, 'c, C, O: ?Sized>(
        exec: &'r mut Exec<'a, 'c, C, O>,
    ) -> (&'r mut Exec<'a, 'c, C, O>, Slots<'r, N>) {
        debug_assert_eq!(exec.tree.nodes.len(), N);
        let slots = &mut exec.st.slots;
        if cfg!(debug_assertions) && slots.len() != N {
            mismatch(slots.len(), N);
        }
        let count = slots.len();
        let Some(slots) = Slots::address(slots) else {
            mismatch(count, N)
        };
        (exec, slots)
    }

    #[inline(always)]
    fn new(slots: &mut Vec<Slot>) -> Option<Slots<'r, N>> {
        if slots.len() != N {
            return None;
        }
        Slots::address(slots)
    }

    /// The address of `slots`, which holds `N` slots (the callers' checks); `None` only
    /// for a null buffer, which a `Vec` never has.
    #[inline(always)]
    fn address(slots: &mut Vec<Slot>) -> Option<Slots<'r, N>> {
        // `as_mut_ptr` creates no reference to the buffer, so the `Vec`'s own accesses
        // (`Exec` code run between two `at`s) leave this pointer valid.
        NonNull::new(slots.as_mut_ptr()).map(|ptr| Slots {
            ptr,
            _exec: PhantomData,
        })
    }

    /// Slot `I`.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn at<const I: u32>(&mut self) -> &mut Slot {
        const { assert!((I as usize) < N) };
        // SAFETY: `I < N`, the buffer's length, which is alive and not resized (the
        // invariant above); the slot is lent only while `self` is borrowed mutably.
        unsafe { &mut *self.ptr.as_ptr().add(I as usize) }
    }
}

/// An `Arc<dyn Action<C>>` with its data pointer computed once (see the module's
/// documentation for the invariant).
pub(crate) struct HeldAction<C> {
    ptr: NonNull<dyn Action<C>>,
    /// Owns what `ptr` points to; never lent out, so the action is only ever shared.
    _owner: Arc<dyn Action<C>>,
}

impl<C> HeldAction<C> {
    pub fn new(owner: Arc<dyn Action<C>>) -> HeldAction<C> {
        HeldAction {
            ptr: NonNull::from(&*owner),
            _owner: owner,
        }
    }

    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn get(&self) -> &dyn Action<C> {
        // SAFETY: `ptr` is `_owner`'s deref; `_owner` lives as long as `self` and is never
        // lent out, so the action is alive and only shared for the returned lifetime.
        unsafe { self.ptr.as_ref() }
    }
}

// SAFETY: a `HeldAction` is an `Arc<dyn Action<C>>` and a pointer to its contents, which
// are `Send + Sync` (`Action: Send + Sync`); it gives out only shared references to them,
// as the `Arc` would.
#[allow(unsafe_code)]
unsafe impl<C> Send for HeldAction<C> {}
#[allow(unsafe_code)]
unsafe impl<C> Sync for HeldAction<C> {}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::entry::{assert_in_bounds, Entry, Step};
    use super::super::{Exec, Nodes, State};
    use crate::blackboard::Blackboard;
    use crate::builder::{action, decorator, node, sel, seq, TreeBuilder};
    use crate::{CompiledTree, NodeType, Registry, Status, ValueType};

    /// Composites of every kind (plain, dynamic, with memory, decorated, nested), host
    /// leaves with and without decorators, and decorators over loops.
    fn tree() -> CompiledTree<u32> {
        let mut registry = Registry::<u32>::new();
        registry.action(NodeType::action("Step", "Counts."), |cx| {
            *cx.agent += 1;
            Status::Success
        });
        TreeBuilder::new("bounds")
            .key("go", ValueType::Bool, true)
            .root(sel([
                seq([action("Step"), action("Step")]),
                node("Sequence")
                    .param("dynamic", true)
                    .children([action("Step"), sel([action("Step")])]),
                node("Sequence").param("memory", true).child(action("Step")),
                seq([action("Step")]).decorator(
                    decorator("Precondition")
                        .param("key", "go")
                        .param("equals", true),
                ),
                node("Repeat")
                    .param("count", 2)
                    .child(seq([action("Step"), node("Wait").param("seconds", 1.0)])),
                node("Parallel")
                    .param("need", 1)
                    .children([sel([]), action("Step").decorator(decorator("Inverter"))]),
            ]))
            .build(&registry)
            .expect("the bounds tree loads")
    }

    /// A fresh agent state for `tree` with `slots` node slots (the tree's count, or not).
    fn state(tree: &CompiledTree<u32>, slots: usize) -> State {
        State {
            nodes: Nodes {
                slots: vec![Default::default(); slots],
                events: Vec::new(),
                triggers: Vec::new(),
                timers: Vec::new(),
                run: 0,
                woken: false,
            },
            bb: Blackboard::new(tree.keys.clone()),
            host: super::super::Host {
                rng: crate::rng::Rng::with_seed(1),
                states: Vec::new(),
                info: tree.info.clone(),
                ticked_at: 0.0,
                ticked_before: 0.0,
                sleeps: Vec::new(),
            },
        }
    }

    fn loops(entries: &[Entry<u32>]) -> usize {
        entries
            .iter()
            .filter(|e| matches!(e.step, Step::Loop { .. }))
            .count()
    }

    #[test]
    fn every_entry_is_in_bounds_and_describes_its_child() {
        let tree = tree();
        assert_eq!(tree.entries.len(), tree.children.len());
        for (k, e) in tree.entries.iter().enumerate() {
            assert_in_bounds(e, tree.nodes.len(), tree.entries.len());
            // Entry k is child k: the same node.
            assert_eq!(e.node, tree.children[k]);
            if let Step::Loop { first, end, .. } = e.step {
                let n = &tree.nodes[e.node as usize];
                assert_eq!((first, end), (n.first_child, n.first_child + n.child_count));
            }
        }
        assert_eq!(tree.root.node, 0);
        assert!(matches!(tree.root.step, Step::Loop { seq: false, .. }));
        // The tree has loops and leaves of its own, and general nodes.
        assert!(loops(&tree.entries) >= 3, "{} loops", loops(&tree.entries));
        assert!(tree
            .entries
            .iter()
            .any(|e| matches!(e.step, Step::Leaf { .. })));
        assert!(tree.entries.iter().any(|e| matches!(e.step, Step::Node)));
    }

    #[test]
    #[should_panic(expected = "entry of node 9 of 9")]
    fn a_node_out_of_range_is_refused() {
        let e: Entry<u32> = Entry {
            node: 9,
            step: Step::Node,
        };
        assert_in_bounds(&e, 9, 100);
    }

    #[test]
    #[should_panic(expected = "children 3..11 of 10 entries")]
    fn a_child_range_out_of_range_is_refused() {
        let e: Entry<u32> = Entry {
            node: 0,
            step: Step::Loop {
                seq: true,
                first: 3,
                end: 11,
            },
        };
        assert_in_bounds(&e, 9, 10);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "an agent's state has 2 node slots for a tree of")]
    fn a_state_of_another_tree_is_refused() {
        let tree = Arc::new(tree());
        let mut state = state(&tree, 2);
        let mut data = 0u32;
        let (nodes, mut cx) = super::super::split(&mut state, &mut data);
        Exec::new(&tree, nodes, &mut cx, &mut ());
    }

    #[test]
    fn slots_of_another_count_are_refused_and_each_index_lends_its_own_slot() {
        use super::super::Slot;
        let mut slots = vec![Slot::default(); 3];
        assert!(super::Slots::<4>::new(&mut slots).is_none());
        assert!(super::Slots::<2>::new(&mut slots).is_none());
        {
            let mut held = super::Slots::<3>::new(&mut slots).expect("three slots");
            held.at::<2>().cursor = 7;
            held.at::<0>().running = true;
        }
        assert_eq!(
            slots
                .iter()
                .map(|s| (s.running, s.cursor))
                .collect::<Vec<_>>(),
            [(true, 0), (false, 0), (false, 7)]
        );
    }

    #[test]
    fn a_held_action_is_its_arc_and_keeps_it_alive() {
        use crate::host::{Action, ActionCtx};

        struct Says(Status);
        impl Action<u32> for Says {
            fn tick(&self, cx: &mut ActionCtx<'_, u32>) -> Status {
                *cx.agent += 1;
                self.0
            }
        }
        let arc: Arc<dyn Action<u32>> = Arc::new(Says(Status::Running));
        let held = super::HeldAction::new(arc.clone());
        assert!(std::ptr::addr_eq(held.get(), &*arc));
        assert_eq!(Arc::strong_count(&arc), 2);
        drop(arc);
        // The held one still owns it: ticking through it is ticking the action.
        let tree = Arc::new(tree());
        let mut state = state(&tree, tree.nodes.len());
        let (mut data, mut none) = (0u32, ());
        let (nodes, mut cx) = super::super::split(&mut state, &mut data);
        let mut exec = Exec::new(&tree, nodes, &mut cx, &mut none);
        let status = exec.tick_host(1, held.get(), super::super::NO_STATE, false);
        assert_eq!(status, Status::Running);
        assert_eq!(data, 1);
        // Send and Sync, as the Arc it holds.
        let sent: Box<dyn Send + Sync> = Box::new(held);
        drop(sent);
    }

    #[test]
    fn the_tree_runs() {
        let mut agent = crate::Agent::new(Arc::new(tree()), 1);
        let mut steps = 0u32;
        assert_eq!(agent.tick(&mut steps, 0.1), Status::Success);
        assert_eq!(steps, 2);
    }
}
