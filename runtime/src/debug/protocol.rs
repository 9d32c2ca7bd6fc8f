//! Protocol: the messages of docs/debug-protocol.md as serde types.
//!
//! Server messages borrow what they carry, so sending one costs a serialisation and no
//! copies. Requests are parsed in two steps (see `requests.rs`) so that an unknown `type`
//! and a bad field get different error codes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::status::Status;

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// Longest line a client may send, newline excluded.
pub(crate) const MAX_LINE: usize = 1 << 20;

/// Error codes of `error` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ErrorCode {
    Protocol,
    Auth,
    BadRequest,
    LineTooLong,
    UnknownType,
    UnknownInstance,
    UnknownNode,
    UnknownKey,
    BadValue,
}

/// A node's last status in a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum NodeStatus {
    Success,
    Failure,
    Running,
    Aborted,
}

impl From<Status> for NodeStatus {
    fn from(status: Status) -> NodeStatus {
        match status {
            Status::Success => NodeStatus::Success,
            Status::Failure => NodeStatus::Failure,
            Status::Running => NodeStatus::Running,
        }
    }
}

/// Why an instance paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PauseReason {
    Request,
    Breakpoint,
    Step,
}

/// The tree an instance runs, as listed.
#[derive(Debug, Serialize)]
pub(crate) struct TreeRef<'a> {
    pub guid: &'a str,
    pub name: &'a str,
}

/// One entry of an `instances` message.
#[derive(Debug, Serialize)]
pub(crate) struct InstanceEntry<'a> {
    pub instance: u64,
    pub name: &'a str,
    pub tree: TreeRef<'a>,
    pub paused: bool,
    pub ticks: u64,
}

/// Everything the server sends.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ServerMessage<'a> {
    Hello {
        protocol: u64,
        server: &'a str,
        auth: &'a str,
    },
    Welcome,
    Instances {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
        instances: Vec<InstanceEntry<'a>>,
    },
    Tree {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
        instance: u64,
        file: &'a Value,
    },
    Tick {
        instance: u64,
        tick: u64,
        time: f64,
        status: Status,
        nodes: Vec<(&'a str, NodeStatus)>,
        blackboard: Map<String, Value>,
    },
    Paused {
        instance: u64,
        reason: PauseReason,
        #[serde(skip_serializing_if = "Option::is_none")]
        node: Option<&'a str>,
        tick: u64,
    },
    Resumed {
        instance: u64,
    },
    Dropped {
        instance: u64,
        frames: u64,
    },
    Ok {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
    },
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
        code: ErrorCode,
        message: String,
    },
}

impl ServerMessage<'_> {
    /// The message as one NDJSON line, newline included.
    pub(crate) fn to_line(&self) -> String {
        // Serialising these types cannot fail: every map key is a string and no type has a
        // fallible `Serialize`. Should it ever fail, an error line beats a panic.
        let mut line = serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"type":"error","code":"protocol","message":"internal: {e}"}}"#)
        });
        line.push('\n');
        line
    }
}

/// Client requests, after the `type` was read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Request {
    Hello(Hello),
    List,
    Tree(One),
    Subscribe(Many),
    Unsubscribe(Many),
    Pause(One),
    Resume(One),
    Step(One),
    Breakpoint(Breakpoint),
    Set(Set),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Hello {
    pub protocol: u64,
    #[serde(default)]
    pub token: Option<String>,
}

/// Fields of requests about one instance.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct One {
    pub instance: u64,
}

/// Fields of requests about several instances.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Many {
    pub instances: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Breakpoint {
    pub instance: u64,
    pub node: String,
    pub set: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Set {
    pub instance: u64,
    pub key: String,
    /// Required: `null` clears the key, a missing field is a bad request.
    pub value: Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_the_documented_shapes() {
        let id = Value::from(5);
        assert_eq!(
            ServerMessage::Ok { id: Some(&id) }.to_line(),
            "{\"type\":\"ok\",\"id\":5}\n"
        );
        let error = ServerMessage::Error {
            id: None,
            code: ErrorCode::UnknownInstance,
            message: "no instance 9".into(),
        };
        assert_eq!(
            error.to_line(),
            "{\"type\":\"error\",\"code\":\"unknown_instance\",\"message\":\"no instance 9\"}\n"
        );
        let paused = ServerMessage::Paused {
            instance: 3,
            reason: PauseReason::Breakpoint,
            node: Some("g"),
            tick: 7,
        };
        assert_eq!(
            paused.to_line(),
            "{\"type\":\"paused\",\"instance\":3,\"reason\":\"breakpoint\",\"node\":\"g\",\"tick\":7}\n"
        );
        let tick = ServerMessage::Tick {
            instance: 1,
            tick: 2,
            time: 0.5,
            status: Status::Running,
            nodes: vec![("a", NodeStatus::Aborted)],
            blackboard: Map::new(),
        };
        assert_eq!(
            tick.to_line(),
            "{\"type\":\"tick\",\"instance\":1,\"tick\":2,\"time\":0.5,\"status\":\"running\",\"nodes\":[[\"a\",\"aborted\"]],\"blackboard\":{}}\n"
        );
    }
}
