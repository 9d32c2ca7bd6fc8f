//! TreeView: read access to a loaded tree's structure without its agent-data type, so the
//! editor's preview can map the trace's [`NodeId`]s to GUIDs and names through a
//! `dyn Simulation` (a `CompiledTree<C>` is generic over each sample's world type `C`).

use arbor_runtime::{CompiledTree, KeyInfo, NodeId, NodeInfo, Problem};

/// The structure of a compiled tree. Node ids are depth-first pre-order indices below
/// [`TreeView::len`]; methods taking a `NodeId` panic on an id from another tree.
pub trait TreeView {
    /// The tree's name from its file.
    fn name(&self) -> &str;
    /// The tree's GUID from its file.
    fn guid(&self) -> &str;
    /// Number of nodes, subtrees' included.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// GUID, name, type and source file of a node.
    fn info(&self, node: NodeId) -> &NodeInfo;
    /// The first node with this GUID.
    fn find(&self, guid: &str) -> Option<NodeId>;
    fn children(&self, node: NodeId) -> Vec<NodeId>;
    fn parent(&self, node: NodeId) -> Option<NodeId>;
    /// Attached decorators, top first (the trace's `Check::decorator` indexes this).
    fn decorators(&self, node: NodeId) -> &[NodeInfo];
    /// Declared blackboard keys.
    fn keys(&self) -> &[KeyInfo];
    /// Non-fatal problems found when the tree loaded.
    fn warnings(&self) -> &[Problem];
}

impl<C> TreeView for CompiledTree<C> {
    fn name(&self) -> &str {
        CompiledTree::name(self)
    }

    fn guid(&self) -> &str {
        CompiledTree::guid(self)
    }

    fn len(&self) -> usize {
        CompiledTree::len(self)
    }

    fn info(&self, node: NodeId) -> &NodeInfo {
        CompiledTree::info(self, node)
    }

    fn find(&self, guid: &str) -> Option<NodeId> {
        CompiledTree::find(self, guid)
    }

    fn children(&self, node: NodeId) -> Vec<NodeId> {
        CompiledTree::children(self, node).collect()
    }

    fn parent(&self, node: NodeId) -> Option<NodeId> {
        CompiledTree::parent(self, node)
    }

    fn decorators(&self, node: NodeId) -> &[NodeInfo] {
        CompiledTree::decorators(self, node)
    }

    fn keys(&self) -> &[KeyInfo] {
        CompiledTree::keys(self)
    }

    fn warnings(&self) -> &[Problem] {
        CompiledTree::warnings(self)
    }
}
