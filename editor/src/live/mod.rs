//! The live-status contract: what a running tree tells the views about each node
//! ([`LiveSource`], [`NodeLive`]) and the one palette its statuses are drawn with
//! ([`status_color`]), both arbor-viewer's, re-exported; how a visit ended ([`Outcome`]);
//! and [`LiveBlackboard`], the one widget both sources' blackboards are drawn and edited
//! with.
//!
//! Two sources implement [`LiveSource`]: the local preview (`preview::Preview`) and an
//! instance attached in a running program (`remote::Remote`). The canvas reads statuses
//! through the trait only, so an attached instance is drawn exactly as the preview is.
//! This module sits below all three (it imports none of them), as egui keeps its `View`
//! trait beside the widgets rather than in the app.

mod blackboard;

pub use blackboard::{parse_value, Entry, LiveBlackboard};

use arbor_runtime::Status;

/// The contract and the palette are the painter's (arbor-viewer): the editor and a game's
/// viewer read statuses and colour them the same way.
pub use arbor_viewer::{status_color, LiveSource, NodeLive};

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
