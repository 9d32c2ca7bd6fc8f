//! Arbor's recorded traces as replay steps: the lines `arbor run --trace` prints (one JSON
//! object per tick, docs/cli.md), each event of a node becoming a step.
//!
//! `enter` -> running; `tick` -> the body's status; `exit` -> what the node returned (an
//! `exit` without status follows an abort: failure, rule 28); `abort` -> failure. Lines
//! that are not JSON objects are errors naming the line; the text is bounded by the
//! caller ([`MAX_TRACE_BYTES`] when read from a file).

use std::fmt;

use arbor_runtime::btcpp::NodeState;
use serde_json::Value;

use super::Step;

/// The largest trace read from a file.
pub const MAX_TRACE_BYTES: u64 = 256 * 1024 * 1024;

/// A line that is not a trace line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

/// Reads a whole trace. Blank lines are skipped.
pub fn read_trace(text: &str) -> Result<Vec<Step>, TraceError> {
    let mut steps = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let error = |message: String| TraceError {
            line: line_no,
            message,
        };
        let value: Value =
            serde_json::from_str(line).map_err(|e| error(format!("not JSON: {e}")))?;
        let tick = value
            .get("tick")
            .and_then(Value::as_u64)
            .ok_or_else(|| error("no `tick` number: not a line of `arbor run --trace`".into()))?;
        let events = value
            .get("events")
            .and_then(Value::as_array)
            .ok_or_else(|| error("no `events` list".into()))?;
        for (k, event) in events.iter().enumerate() {
            let field = |name: &str| event.get(name).and_then(Value::as_str);
            let (Some(kind), Some(node)) = (field("event"), field("node")) else {
                return Err(error(format!("event {k} has no `event` or `node`")));
            };
            let status = field("status");
            let state = match (kind, status) {
                ("enter", _) => NodeState::Running,
                ("tick" | "exit", Some("running")) => NodeState::Running,
                ("tick" | "exit", Some("success")) => NodeState::Success,
                ("tick" | "exit", Some("failure")) | ("exit", None) | ("abort", _) => {
                    NodeState::Failure
                }
                _ => {
                    return Err(error(format!(
                        "event {k}: `{kind}` with status {status:?} is not a trace event"
                    )))
                }
            };
            steps.push(Step {
                at: tick as f64,
                node: node.to_owned(),
                state,
            });
        }
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_become_steps_with_their_tick() {
        let text = r#"{"tick":1,"status":"running","events":[{"event":"enter","node":"a","name":"a"},{"event":"tick","node":"b","name":"b","status":"failure"}],"blackboard":{},"triggers":[]}

{"tick":2,"status":"success","events":[{"event":"exit","node":"a","name":"a","status":"success"},{"event":"abort","node":"c","name":"c"}]}"#;
        let steps = read_trace(text).expect("a trace");
        let got: Vec<(f64, &str, NodeState)> = steps
            .iter()
            .map(|s| (s.at, s.node.as_str(), s.state))
            .collect();
        assert_eq!(
            got,
            vec![
                (1.0, "a", NodeState::Running),
                (1.0, "b", NodeState::Failure),
                (2.0, "a", NodeState::Success),
                (2.0, "c", NodeState::Failure),
            ]
        );
    }

    #[test]
    fn bad_lines_are_located() {
        let e = read_trace("{\"tick\":1,\"events\":[]}\nnot json").expect_err("bad");
        assert_eq!(e.line, 2);
        let e = read_trace("{\"events\":[]}").expect_err("bad");
        assert!(e.message.contains("tick"), "{e}");
        let e = read_trace(r#"{"tick":1,"events":[{"event":"fly","node":"a"}]}"#).expect_err("bad");
        assert!(e.message.contains("fly"), "{e}");
    }
}
