//! Status: what ticking a node returns (docs/semantics.md rule 1).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The result of ticking a node. IDLE and SKIPPED exist in other engines but are never
/// observable in Arbor (rule 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The node did what it was for.
    Success,
    /// The node could not do it.
    Failure,
    /// The node needs more ticks.
    Running,
}

impl Status {
    /// The name used in files and traces: `success`, `failure` or `running`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Failure => "failure",
            Status::Running => "running",
        }
    }

    /// Parses the file/trace spelling.
    pub fn parse(text: &str) -> Option<Status> {
        match text {
            "success" => Some(Status::Success),
            "failure" => Some(Status::Failure),
            "running" => Some(Status::Running),
            _ => None,
        }
    }

    /// `success` or `failure`: the node has finished this execution.
    pub fn is_done(self) -> bool {
        self != Status::Running
    }

    /// Swaps success and failure; running passes through (rules 15 and 29).
    pub fn inverted(self) -> Status {
        match self {
            Status::Success => Status::Failure,
            Status::Failure => Status::Success,
            Status::Running => Status::Running,
        }
    }

    /// `success` for true, `failure` for false: the result of a condition.
    pub fn from_bool(ok: bool) -> Status {
        if ok {
            Status::Success
        } else {
            Status::Failure
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
