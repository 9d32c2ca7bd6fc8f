//! RestoreReport: what a restore into an edited tree or a hot reload kept of an agent's
//! state and what it dropped (rules 94 to 97).

/// A node named in a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRef {
    /// Its GUID.
    pub guid: String,
    /// Its name (empty when a version 1 snapshot did not hold it).
    pub name: String,
}

/// Why a node's saved state was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The tree has no node at its place (rule 94).
    Removed,
    /// The node at its place has another shape: type, mode parameters, children or
    /// attached decorators (rule 95).
    Changed,
}

/// A node whose saved state was dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedNode {
    /// The node (as saved).
    pub node: NodeRef,
    /// Why.
    pub reason: DropReason,
    /// It was running: its branch restarts (rule 96).
    pub was_running: bool,
}

/// What a restore into an edited tree ([`crate::Agent::restore_edited`]) or a hot reload
/// ([`crate::Agent::reload`]) did with each part of the saved state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RestoreReport {
    /// Nodes whose state was kept, in the new tree's pre-order.
    pub kept: Vec<NodeRef>,
    /// Nodes whose state was dropped.
    pub dropped: Vec<DroppedNode>,
    /// Nodes of the new tree that were running in the saved state and were aborted by the
    /// restore (rule 96), each branch's top node first.
    pub restarted: Vec<NodeRef>,
    /// Blackboard keys whose values were dropped: missing or of another type in the new tree.
    pub dropped_keys: Vec<String>,
}

impl RestoreReport {
    /// How many nodes that were running do not go on running where they were: the dropped
    /// ones that were running and the ones aborted.
    pub fn running_restarted(&self) -> usize {
        self.dropped.iter().filter(|d| d.was_running).count() + self.restarted.len()
    }
}
