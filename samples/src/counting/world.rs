//! CounterWorld: what the counting sample shows: the blackboard's `current` and `target`
//! after the last tick, and what each branch of the root returned.
//!
//! The tree uses built-in nodes only, so this "world" is just a mirror of the blackboard
//! for drawing, plus the log.

use arbor_runtime::Status;

use crate::log::Log;

/// The blackboard keys of `trees/counting.json`.
pub const CURRENT_KEY: &str = "current";
pub const TARGET_KEY: &str = "target";

#[derive(Clone, Debug, Default)]
pub struct CounterWorld {
    /// `current` after the last tick (`None`: no valid value).
    pub current: Option<i64>,
    /// `target` after the last tick.
    pub target: Option<i64>,
    /// The root's children that completed in the last tick: name and status, in order.
    pub branches: Vec<(String, Status)>,
    /// What the root returned in the last tick.
    pub result: Option<Status>,
    pub log: Log,
    /// Overrides the tree's `target` default when set; kept by a reset.
    pub(crate) target_override: Option<i64>,
}
