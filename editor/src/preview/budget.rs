//! The preview's budget: the preview runs whatever file is opened, so after each tick it
//! checks what the tick did against fixed limits and stops playing, with a message in the
//! panel, when a tree goes over them. Opening a hostile file (a script that doubles a
//! string every tick, a loop that visits millions of nodes) then costs a stopped preview,
//! never the editor.
//!
//! - Memory: the blackboard's strings and JSON values, in bytes, at most
//!   [`MAX_BLACKBOARD_BYTES`]. Scripts keep nothing else between ticks, so this is what
//!   grows. Within one tick the runtime's own limit on script strings applies.
//! - Work: trace events (node enters, ticks, exits, checks) in one tick, at most
//!   [`MAX_TICK_EVENTS`]. A tick cannot be cut short from outside, so this stops the
//!   ticks that would follow one that already took too long.
//!
//! Limitation: the check runs after the tick; a single tick that exhausts memory before
//! returning is left to the runtime's limits.

use arbor_runtime::{Blackboard, Value};

/// Most bytes of values the blackboard may hold after a preview tick.
pub const MAX_BLACKBOARD_BYTES: usize = 4 * 1024 * 1024;
/// Most trace events one preview tick may produce.
pub const MAX_TICK_EVENTS: u64 = 2_000_000;

/// Why the preview stopped: the message for the panel, or `None` if the tick was within
/// budget.
pub fn over_budget(blackboard: Option<&Blackboard>, events: u64) -> Option<String> {
    if events > MAX_TICK_EVENTS {
        return Some(format!(
            "Stopped: the last tick ran {events} node events, over the preview's limit of \
             {MAX_TICK_EVENTS} per tick (a loop that never yields?). Fix the tree, then Reset."
        ));
    }
    let bytes = blackboard.map_or(0, blackboard_bytes);
    (bytes > MAX_BLACKBOARD_BYTES).then(|| {
        format!(
            "Stopped: the blackboard holds {} after the last tick, over the preview's limit \
             of {} (a script that keeps growing a string?). Fix the tree, then Reset.",
            megabytes(bytes),
            megabytes(MAX_BLACKBOARD_BYTES)
        )
    })
}

/// Bytes held by the blackboard's values: string lengths and the strings and numbers of
/// JSON values. Stops counting once over the budget, so a check costs at most that.
pub fn blackboard_bytes(bb: &Blackboard) -> usize {
    let mut total = 0usize;
    for (key, _) in bb.keys() {
        total = total.saturating_add(bb.get(key).map_or(0, value_bytes));
        if total > MAX_BLACKBOARD_BYTES {
            break;
        }
    }
    total
}

fn value_bytes(value: &Value) -> usize {
    match value {
        Value::Str(s) => s.len(),
        Value::Json(json) => json_bytes(json),
        _ => 8,
    }
}

fn json_bytes(json: &serde_json::Value) -> usize {
    use serde_json::Value as J;
    match json {
        J::String(s) => s.len(),
        J::Array(items) => items.iter().map(json_bytes).fold(8, usize::saturating_add),
        J::Object(map) => map
            .iter()
            .map(|(k, v)| k.len().saturating_add(json_bytes(v)))
            .fold(8, usize::saturating_add),
        _ => 8,
    }
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_budget_is_quiet_and_over_it_says_why() {
        assert_eq!(over_budget(None, 10), None);
        let work = over_budget(None, MAX_TICK_EVENTS + 1).expect("over");
        assert!(work.starts_with("Stopped:"), "{work}");
        let big = serde_json::json!({"s": "x".repeat(100), "n": [1, 2]});
        assert!(json_bytes(&big) >= 100);
    }
}
