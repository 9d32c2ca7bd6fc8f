//! The live-status contract: what a running tree tells the views about each node, the one
//! palette its statuses are drawn with ([`status_color`]), and [`LiveBlackboard`], the one
//! widget both sources' blackboards are drawn and edited with.
//!
//! Two sources implement [`LiveSource`]: the local preview (`preview::Preview`) and an
//! instance attached in a running program (`remote::Remote`). The canvas reads statuses
//! through the trait only, so an attached instance is drawn exactly as the preview is.
//! This module sits below all three (it imports none of them), as egui keeps its `View`
//! trait beside the widgets rather than in the app.

mod blackboard;

pub use blackboard::{parse_value, Entry, LiveBlackboard};

use arbor_runtime::Status;
use egui::Color32;

/// Where the canvas reads what each node did: the local preview, or an instance attached
/// in a running program.
pub trait LiveSource {
    /// The node's last visit; `None`: not visited (or not in the running tree).
    fn node_live(&self, guid: &str) -> Option<NodeLive>;
    fn has_breakpoint(&self, guid: &str) -> bool;
}

/// What the canvas shows of a node while the preview runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeLive {
    /// The status of the node's last visit: the final status from its exit, or running if
    /// it ticked running (or was entered and is still running). An aborted node reads as
    /// failure (rule 28); see [`NodeLive::aborted`]. `None`: not visited yet (only its
    /// conditions were checked).
    pub status: Option<Status>,
    /// Seconds of preview time since that visit, for the fade. Preview time runs while
    /// playing (at wall-clock pace, whatever the speed) and stands still while paused, so
    /// the statuses stay visible at a breakpoint.
    pub age: f32,
    /// Last result of each attached decorator, top first (`None`: not evaluated yet, or not
    /// a condition).
    pub decorators: Vec<Option<bool>>,
    /// The last visit ended in an abort (rule 28), not a completion.
    pub aborted: bool,
    /// Ticks since that visit: 0 when the node was visited in the tick shown (the latest
    /// one, or the one the timeline is scrubbed to).
    pub ticks_ago: u64,
}

/// How a node's visit in one tick ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Running,
    Success,
    Failure,
    Aborted,
}

impl Outcome {
    pub fn from_status(status: Status) -> Outcome {
        match status {
            Status::Running => Outcome::Running,
            Status::Success => Outcome::Success,
            Status::Failure => Outcome::Failure,
        }
    }

    pub fn from_visit(visit: arbor_runtime::Visit) -> Outcome {
        match visit {
            arbor_runtime::Visit::Running => Outcome::Running,
            arbor_runtime::Visit::Success => Outcome::Success,
            arbor_runtime::Visit::Failure => Outcome::Failure,
            arbor_runtime::Visit::Aborted => Outcome::Aborted,
        }
    }

    /// The status a parent would see: an abort counts as failure (rule 28).
    pub fn status(self) -> Status {
        match self {
            Outcome::Running => Status::Running,
            Outcome::Success => Status::Success,
            Outcome::Failure | Outcome::Aborted => Status::Failure,
        }
    }
}

/// The colour of a status, wherever one is drawn: canvas nodes and wires, the zoomed-out
/// boxes, the preview's controls and log, the remote panel.
pub fn status_color(status: Status) -> Color32 {
    match status {
        Status::Running => Color32::from_rgb(226, 178, 32),
        Status::Success => Color32::from_rgb(60, 170, 80),
        Status::Failure => Color32::from_rgb(210, 70, 70),
    }
}
