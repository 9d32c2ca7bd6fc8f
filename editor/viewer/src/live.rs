//! The live-status contract: what a running tree tells a drawing about each node. The
//! editor's preview, an instance attached in a running program and the in-game
//! [`crate::TreeViewer`] implement [`LiveSource`]; the painters read statuses through it
//! only, so each source is drawn the same way.

use arbor_runtime::Status;

/// Where a drawing reads what each node did.
pub trait LiveSource {
    /// The node's last visit; `None`: not visited (or not in the running tree).
    fn node_live(&self, guid: &str) -> Option<NodeLive>;
    /// Whether the node has a breakpoint (drawn as a red dot).
    fn has_breakpoint(&self, guid: &str) -> bool;
    /// The GUIDs of the host nodes the source runs as stand-ins (a preview without the
    /// game's code): their cards carry a badge. Asked once per frame, not per node.
    fn stand_ins(&self) -> Vec<&str> {
        Vec::new()
    }
}

/// No statuses: a tree drawn in its category colours only.
impl LiveSource for () {
    fn node_live(&self, _guid: &str) -> Option<NodeLive> {
        None
    }

    fn has_breakpoint(&self, _guid: &str) -> bool {
        false
    }
}

/// What a drawing shows of a node while its tree runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeLive {
    /// The status of the node's last visit: the final status from its exit, or running if
    /// it ticked running (or was entered and is still running). An aborted node reads as
    /// failure (rule 28); see [`NodeLive::aborted`]. `None`: not visited yet (only its
    /// conditions were checked).
    pub status: Option<Status>,
    /// Seconds of the source's time since that visit, for the fade ([`crate::freshness`]).
    /// The editor's preview time stands still while paused, so the statuses stay visible
    /// at a breakpoint.
    pub age: f32,
    /// Last result of each attached decorator, top first (`None`: not evaluated yet, or not
    /// a condition).
    pub decorators: Vec<Option<bool>>,
    /// The last visit ended in an abort (rule 28), not a completion.
    pub aborted: bool,
    /// Ticks since that visit: 0 when the node was visited in the tick shown.
    pub ticks_ago: u64,
}
