//! What BehaviorTree.CPP tells about a running tree, without a UI: the node statuses its
//! Groot2 publisher and its file logger report, the `.btlog` file format, and how BT.CPP's
//! node UIDs find the nodes of an import.
//!
//! # Brief overview
//! - [`NodeState`] (state.rs): one status byte as BT.CPP writes it, in the Groot2 status
//!   buffer (where an idle node remembers what it was before) and in transitions.
//! - [`BtLog`] (btlog.rs): a file written by BT.CPP's `FileLogger2` (Python: `FileLogger`),
//!   read whole and bounded: its embedded tree XML, its start time and its transitions.
//! - [`MonitoredTree`] (uids.rs): the XML a program reports (one `<BehaviorTree>` per
//!   subtree *instance*, every node with a `_uid`) imported, with the map from each UID
//!   to the imported node's GUID and the blackboard names Groot2 asks for.
//!
//! The wire protocol itself (ZeroMQ frames, headers, hooks) is the editor's
//! (`remote::groot2`); this module is what both the live view and a replay need.

mod btlog;
mod state;
mod uids;

pub use btlog::{BtLog, BtLogError, LogTransition, MAX_BTLOG_BYTES};
pub use state::NodeState;
pub use uids::{MonitoredTree, TreeInstance};
