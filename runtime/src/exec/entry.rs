//! Per-child entries: what a parent needs to tick a child without reading the child's
//! `Node` (64 bytes, most of it cold for the common kinds) or the tree's action table.
//!
//! `CompiledTree::entries` runs parallel to `CompiledTree::children` (entry `k` describes
//! child `k`), so a composite walks its children's entries in one contiguous slice. The two
//! commonest shapes get a step of their own: a host leaf without attached decorators (the
//! action itself is in the entry) and a Sequence or Selector that needs nothing but its
//! loop (its child range is in the entry). Everything else is [`Step::Node`] and takes the
//! general lifecycle of `Exec::tick_node`. A new built-in kind needs nothing here: it is a
//! `Step::Node` until it is worth a step of its own.

use std::sync::Arc;

use crate::host::Action;
use crate::nodes::Kind;
use crate::tree::Node;

/// How a parent ticks one child.
pub(crate) enum Step<C> {
    /// A host leaf without attached decorators.
    Leaf {
        action: Arc<dyn Action<C>>,
        /// Host state index, or `NO_STATE`.
        state: u32,
        /// Whether the action may have `enter`, `exit` or `abort` of its own (`Node::hooks`).
        hooks: bool,
    },
    /// A Sequence (`seq`) or Selector without attached decorators, not `dynamic`, without
    /// `memory` and without a child with a LowerPriority/Both condition (`Node::rescan`):
    /// when it resumes, nothing is done before its current child. Its children's entries
    /// are `entries[first..end]`.
    Loop { seq: bool, first: u32, end: u32 },
    /// Any other node: the general path reads the node.
    Node,
}

/// One child as its parent sees it: the node's index and how to tick it.
pub(crate) struct Entry<C> {
    pub node: u32,
    pub step: Step<C>,
}

/// Which step a node takes, from the node alone: what `entry_of` builds. Generated code
/// (`codegen`) takes the same decision for leaves and plain loops, so a node the
/// interpreter ticks through its general path is never given a leaf's or a plain loop's
/// fast path by generated code (it emits the walk of other Sequences and Selectors with
/// the general lifecycle around it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A host leaf without attached decorators ([`Step::Leaf`]).
    Leaf,
    /// A plain Sequence (`seq`) or Selector ([`Step::Loop`]).
    Loop { seq: bool },
    /// Anything else ([`Step::Node`]).
    Node,
}

/// The [`Shape`] of `node`, a node of a finished node array (`rescan` set).
pub(crate) fn shape_of(node: &Node) -> Shape {
    let undecorated = node.decorator_count == 0;
    match node.kind {
        Kind::Host { .. } if undecorated => Shape::Leaf,
        Kind::Sequence {
            dynamic: false,
            memory: false,
            yields: false,
        } if undecorated && !node.rescan => Shape::Loop { seq: true },
        Kind::Selector {
            dynamic: false,
            yields: false,
        } if undecorated && !node.rescan => Shape::Loop { seq: false },
        _ => Shape::Node,
    }
}

/// The entry of node `i` of a finished node array (children ranges and `rescan` set).
pub(crate) fn entry_of<C>(nodes: &[Node], actions: &[Arc<dyn Action<C>>], i: u32) -> Entry<C> {
    let node = &nodes[i as usize];
    let step = match (shape_of(node), &node.kind) {
        // A tree compiled without a registry (checking only) has no actions.
        (Shape::Leaf, &Kind::Host { action, state }) if (action as usize) < actions.len() => {
            Step::Leaf {
                action: actions[action as usize].clone(),
                state,
                hooks: node.hooks,
            }
        }
        (Shape::Loop { seq }, _) => Step::Loop {
            seq,
            first: node.first_child,
            end: node.first_child + node.child_count,
        },
        _ => Step::Node,
    };
    Entry { node: i, step }
}

/// The entries parallel to `children`: one per child, in the same order.
///
/// Asserts what `exec::unchecked` relies on: every entry's node is in `nodes` and every
/// loop's child range in the entries. A failure is a bug in the loader, not bad input.
pub(crate) fn entries<C>(
    nodes: &[Node],
    children: &[u32],
    actions: &[Arc<dyn Action<C>>],
) -> Vec<Entry<C>> {
    let entries: Vec<Entry<C>> = children
        .iter()
        .map(|&c| entry_of(nodes, actions, c))
        .collect();
    for e in &entries {
        assert_in_bounds(e, nodes.len(), entries.len());
    }
    entries
}

/// Invariant 2 of `exec::unchecked` for one entry.
pub(crate) fn assert_in_bounds<C>(e: &Entry<C>, nodes: usize, entries: usize) {
    assert!(
        (e.node as usize) < nodes,
        "entry of node {} of {nodes}",
        e.node
    );
    if let Step::Loop { first, end, .. } = e.step {
        assert!(
            first <= end && end as usize <= entries,
            "children {first}..{end} of {entries} entries"
        );
    }
}
