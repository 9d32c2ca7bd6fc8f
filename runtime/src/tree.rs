//! CompiledTree: the immutable, flat form of a loaded tree, shared through `Arc` by every
//! agent that runs it.
//!
//! Nodes sit in depth-first pre-order, so a node's index is its pre-order index (used by the
//! event visibility rule 31) and a subtree is a contiguous range. Children and attached
//! decorators live in side arrays addressed by ranges. Names and GUIDs are kept apart from
//! the hot data that ticking reads.

use std::path::PathBuf;
use std::sync::Arc;

use crate::blackboard::KeyInfo;
use crate::compile::Problem;
use crate::exec::Entry;
use crate::host::{Action, StateMaker};
use crate::nodes::{attached::Decorator, Kind};
use crate::trace::NodeId;

/// Hot, per-node data read while ticking.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub kind: Kind,
    pub first_child: u32,
    pub child_count: u32,
    pub first_decorator: u32,
    pub decorator_count: u32,
    /// Has a condition decorator re-evaluated while running (rule 23, Precondition).
    pub self_abort: bool,
    /// Has a condition decorator with LowerPriority or Both (rules 24, 25).
    pub lower_priority: bool,
    /// A Sequence or Selector that is `dynamic` or has a child with `lower_priority`: when
    /// it resumes, earlier children may be re-ticked or re-checked (rules 24, 25, 27).
    /// Without either there is nothing to do before the running child, so the walk over
    /// earlier children is skipped.
    pub rescan: bool,
    /// A built-in node kind without attached decorators: nothing to check, run or reset
    /// around its body, so `Exec::tick_node` takes its short path.
    pub plain: bool,
    /// A host leaf whose action may have `enter`, `exit` or `abort` of its own (see
    /// `host::Factory::hooks`); when false the engine skips those empty calls.
    pub hooks: bool,
}

/// Cold, descriptive data of a node or attached decorator.
#[derive(Clone, Debug)]
pub struct NodeInfo {
    /// The node's GUID in its file.
    pub guid: String,
    /// The node's name.
    pub name: String,
    /// The node's type.
    pub kind: String,
    /// The file the node was loaded from (differs from the tree's for subtree nodes).
    pub file: Arc<str>,
}

/// A loaded, checked tree, ready to be run by agents.
pub struct CompiledTree<C> {
    pub(crate) nodes: Vec<Node>,
    pub(crate) children: Vec<u32>,
    pub(crate) decorators: Vec<Decorator>,
    pub(crate) info: Arc<[NodeInfo]>,
    pub(crate) decorator_info: Vec<NodeInfo>,
    pub(crate) parents: Vec<u32>,
    pub(crate) keys: Arc<[KeyInfo]>,
    pub(crate) events: Vec<String>,
    pub(crate) triggers: Vec<String>,
    pub(crate) actions: Vec<Arc<dyn Action<C>>>,
    /// The composites and decorators written as controls, by `Kind::Control::control`.
    pub(crate) controls: Vec<Box<dyn crate::control::Erased<C>>>,
    /// Per-child entries, parallel to `children` (see `exec::entry`).
    pub(crate) entries: Vec<Entry<C>>,
    /// The root's entry, where every tick starts.
    pub(crate) root: Entry<C>,
    /// Timed nodes (`Duration::timer`): each agent keeps one deadline per timer.
    pub(crate) timers: u32,
    /// Makers of the stateful host nodes' per-agent states, by state index.
    pub(crate) states: Vec<StateMaker>,
    /// What the host conditions that say so observe (rule 98), by
    /// `DecoratorKind::Host::observes`.
    pub(crate) observations: Vec<crate::observes::Observation>,
    pub(crate) name: String,
    pub(crate) guid: String,
    pub(crate) source: Option<PathBuf>,
    /// The subtree files the tree was built from, sorted (`subtree_files`).
    pub(crate) subtree_files: Vec<PathBuf>,
    pub(crate) warnings: Vec<Problem>,
    /// Generated code that runs this tree in place of the interpreter (`arbor codegen`;
    /// installed through the core's hook, `program::Program`, after its shape was checked).
    /// A `Box`, not an `Arc`: calling through it needs no offset computed from the vtable.
    pub(crate) program: Option<Box<dyn crate::program::Program<C>>>,
    /// Places and shapes of the nodes, for snapshots and hot reload; made when first asked.
    pub(crate) layout: std::sync::OnceLock<crate::snapshot::Layout>,
}

impl<C> CompiledTree<C> {
    /// The tree's name from its file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tree's GUID from its file.
    pub fn guid(&self) -> &str {
        &self.guid
    }

    /// The file the tree was loaded from, if any.
    pub fn source(&self) -> Option<&std::path::Path> {
        self.source.as_deref()
    }

    /// The subtree files the tree was built from, each once, sorted: canonical paths when
    /// they were read from disk, their names when they were embedded
    /// ([`crate::LoadOptions::embedded`]). A program that watches files for hot reload
    /// watches these and [`CompiledTree::source`].
    pub fn subtree_files(&self) -> &[PathBuf] {
        &self.subtree_files
    }

    /// Places and shapes of the nodes (`snapshot::layout`).
    pub(crate) fn layout(&self) -> &crate::snapshot::Layout {
        self.layout
            .get_or_init(|| crate::snapshot::Layout::of(self))
    }

    /// Number of nodes, subtrees' included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes (a loaded tree always has at least one).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root node (index 0).
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The node's GUID, name, type and file.
    pub fn info(&self, node: NodeId) -> &NodeInfo {
        &self.info[node.index()]
    }

    /// Where the node sits, as BehaviorTree.CPP 4.10 names a node that threw
    /// (`Exception in node 'Deliver/pick' [Work]`): the names of the Subtree nodes from the
    /// root down to it, then its own, `/`-separated. A subtree used twice gives two
    /// different paths, so this tells the uses apart where the GUID cannot.
    pub fn path(&self, node: NodeId) -> String {
        let mut names = vec![self.info(node).name.as_str()];
        let mut at = node;
        while let Some(parent) = self.parent(at) {
            let info = self.info(parent);
            if info.kind == "Subtree" {
                names.push(info.name.as_str());
            }
            at = parent;
        }
        names.reverse();
        names.join("/")
    }

    /// The node for a message: its [`path`](Self::path), type, GUID and file, as in
    /// ``Deliver/pick [Script] (GUID `n7` in door.Deliver.json)``.
    pub fn locate(&self, node: NodeId) -> String {
        let info = self.info(node);
        format!(
            "{} [{}] (GUID `{}` in {})",
            self.path(node),
            info.kind,
            info.guid,
            info.file
        )
    }

    /// The first node with this GUID (a subtree used twice holds its GUIDs twice).
    pub fn find(&self, guid: &str) -> Option<NodeId> {
        self.info
            .iter()
            .position(|i| i.guid == guid)
            .map(|i| NodeId(i as u32))
    }

    /// The node's children, in order.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let n = &self.nodes[node.index()];
        let range = n.first_child as usize..(n.first_child + n.child_count) as usize;
        self.children[range].iter().map(|&c| NodeId(c))
    }

    /// The node's parent; `None` for the root.
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        let p = self.parents[node.index()];
        (p != u32::MAX).then_some(NodeId(p))
    }

    /// Attached decorators of a node, top first.
    pub fn decorators(&self, node: NodeId) -> &[NodeInfo] {
        let n = &self.nodes[node.index()];
        &self.decorator_info
            [n.first_decorator as usize..(n.first_decorator + n.decorator_count) as usize]
    }

    /// Declared blackboard keys (subtree-private ones included).
    pub fn keys(&self) -> &[KeyInfo] {
        &self.keys
    }

    /// Trigger names used by the tree.
    pub fn triggers(&self) -> &[String] {
        &self.triggers
    }

    /// Event names used by the tree.
    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// Non-fatal problems found while loading (unreachable nodes, empty composites).
    pub fn warnings(&self) -> &[Problem] {
        &self.warnings
    }

    /// Whether agents run this tree through generated code (`arbor codegen`) rather than
    /// the interpreter.
    pub fn is_generated(&self) -> bool {
        self.program.is_some()
    }

    /// Bytes of per-agent state this tree needs, besides blackboard values' heap data:
    /// node slots, blackboard entries, events, triggers and host nodes' own states.
    pub fn state_size(&self) -> usize {
        crate::agent::state_size(
            self.nodes.len(),
            self.keys.len(),
            self.events.len(),
            self.triggers.len(),
            self.timers as usize,
        ) + self.states.iter().map(|m| m.bytes).sum::<usize>()
    }
}

impl<C> std::fmt::Debug for CompiledTree<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledTree")
            .field("name", &self.name)
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}
