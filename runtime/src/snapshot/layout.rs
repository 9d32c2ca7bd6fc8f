//! Layout: each node's place and shape in a compiled tree, the terms in which a saved state
//! is matched to an edited version of the tree (rules 94 to 97).
//!
//! A node's **place** is its GUID, prefixed by the GUIDs of the Subtree nodes it sits
//! under (`subtree-guid/node-guid`), so that a subtree file used twice gives each use its
//! own places. Its **shape** is a hash of what its saved state means: its type, its mode
//! parameters (those that make it another node in BehaviorTree.CPP's terms), its children's
//! GUIDs in order and its attached decorators' GUIDs and types. Value parameters (counts,
//! durations, keys, scripts, host parameters) are not in it (rule 95).
//!
//! Computed once per tree and cached in it ([`crate::CompiledTree`]'s `layout`).

use std::collections::HashMap;

use crate::nodes::attached::DecoratorKind;
use crate::nodes::Kind;
use crate::trace::NodeId;
use crate::tree::CompiledTree;

/// Places and shapes of a tree's nodes and host states.
#[derive(Debug)]
pub(crate) struct Layout {
    /// The GUIDs of the Subtree nodes above each node, joined by `/` (empty at top level).
    pub within: Vec<String>,
    /// Each node's shape.
    pub shape: Vec<u64>,
    /// Each host state's owner (a node or an attached host condition): place and shape.
    pub state_owner: Vec<(String, u64)>,
    /// The node at each place (the first, should a file repeat a GUID).
    by_place: HashMap<String, u32>,
}

/// `within/guid`, or `guid` at top level.
pub(crate) fn place(within: &str, guid: &str) -> String {
    if within.is_empty() {
        guid.to_owned()
    } else {
        format!("{within}/{guid}")
    }
}

/// A shape as it is written in a snapshot: 16 hex digits.
pub(crate) fn shape_text(shape: u64) -> String {
    format!("{shape:016x}")
}

impl Layout {
    pub(crate) fn of<C>(tree: &CompiledTree<C>) -> Layout {
        let n = tree.nodes.len();
        let mut within: Vec<String> = Vec::with_capacity(n);
        let mut shape = Vec::with_capacity(n);
        let mut by_place = HashMap::with_capacity(n);
        for i in 0..n {
            // Pre-order: the parent's entry is already there.
            let w = match tree.parent(NodeId(i as u32)) {
                None => String::new(),
                Some(p) if matches!(tree.nodes[p.index()].kind, Kind::Subtree) => {
                    place(&within[p.index()], &tree.info[p.index()].guid)
                }
                Some(p) => within[p.index()].clone(),
            };
            by_place
                .entry(place(&w, &tree.info[i].guid))
                .or_insert(i as u32);
            within.push(w);
            shape.push(node_shape(tree, i));
        }
        let mut state_owner = vec![(String::new(), 0); tree.states.len()];
        for i in 0..n {
            let owner = place(&within[i], &tree.info[i].guid);
            if let Kind::Host { state, .. } | Kind::Control { state, .. } = tree.nodes[i].kind {
                if let Some(slot) = state_owner.get_mut(state as usize) {
                    *slot = (owner.clone(), shape[i]);
                }
            }
            let node = &tree.nodes[i];
            let first = node.first_decorator as usize;
            for (k, d) in tree.decorators[first..first + node.decorator_count as usize]
                .iter()
                .enumerate()
            {
                if let DecoratorKind::Host { state, .. } = d.kind {
                    let info = &tree.decorator_info[first + k];
                    if let Some(slot) = state_owner.get_mut(state as usize) {
                        let mut h = Fnv::new();
                        h.text(&info.kind);
                        *slot = (place(&within[i], &info.guid), h.0);
                    }
                }
            }
        }
        Layout {
            within,
            shape,
            state_owner,
            by_place,
        }
    }

    /// The node at `place`, if the tree has one.
    pub(crate) fn find(&self, place: &str) -> Option<u32> {
        self.by_place.get(place).copied()
    }

    /// Node `i`'s place.
    pub(crate) fn place_of<C>(&self, tree: &CompiledTree<C>, i: usize) -> String {
        place(&self.within[i], &tree.info[i].guid)
    }
}

/// Node `i`'s shape (see the module doc).
fn node_shape<C>(tree: &CompiledTree<C>, i: usize) -> u64 {
    let mut h = Fnv::new();
    h.text(&tree.info[i].kind);
    let flags: &[bool] = match tree.nodes[i].kind {
        Kind::Sequence {
            dynamic,
            memory,
            yields,
        } => &[dynamic, memory, yields],
        Kind::Selector { dynamic, yields } => &[dynamic, yields],
        Kind::Repeat { yields, .. } | Kind::Retry { yields, .. } => &[yields],
        Kind::Parallel { failures, .. } => &[failures.is_some()],
        _ => &[],
    };
    for &f in flags {
        h.num(u64::from(f));
    }
    h.num(u64::MAX);
    for &c in tree.child_indices(i as u32) {
        h.text(&tree.info[c as usize].guid);
    }
    h.num(u64::MAX);
    for d in tree.decorators(NodeId(i as u32)) {
        h.text(&d.guid);
        h.text(&d.kind);
    }
    h.0
}

/// FNV-1a, 64 bits: stable across runs and platforms, so hashes can be saved.
pub(crate) struct Fnv(pub u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub(crate) fn text(&mut self, text: &str) {
        self.num(text.len() as u64);
        self.bytes(text.as_bytes());
    }
    pub(crate) fn num(&mut self, n: u64) {
        self.bytes(&n.to_le_bytes());
    }
}
