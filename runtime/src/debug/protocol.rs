//! Protocol: the messages of docs/debug-protocol.md as serde types, the one definition both
//! ends use: the server (feature `debug-server`) writes [`ServerMessage`]s and reads
//! [`Request`]s; a client (the editor, feature `debug-protocol`) does the opposite.
//!
//! Every message is one line of JSON (see [`super::LineReader`] for reading them): the
//! `to_line` methods write one, newline included. Reading is lenient where the protocol
//! says so: unknown fields are ignored, so a newer minor version still parses.
//!
//! The two messages that can be big borrow what they carry ([`Tick`]'s node GUIDs, a
//! `tree` reply's file), so the server sends them with a serialisation and no copies; a
//! client reads them as `ServerMessage<'static>`, owning everything.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::line::MAX_LINE;
use crate::status::Status;

/// The protocol version this build speaks (both ends): the `protocol` of both `hello`s.
pub const PROTOCOL_VERSION: u64 = 1;

/// The address a server listens on, and a client connects to, unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:7878";

/// Error codes of `error` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
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

impl ErrorCode {
    /// The code as written on the wire, e.g. `bad_value`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Protocol => "protocol",
            ErrorCode::Auth => "auth",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::LineTooLong => "line_too_long",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::UnknownInstance => "unknown_instance",
            ErrorCode::UnknownNode => "unknown_node",
            ErrorCode::UnknownKey => "unknown_key",
            ErrorCode::BadValue => "bad_value",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A node's last status in a tick: a [`Status`], or aborted (and not ticked again).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeStatus {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PauseReason {
    /// A client's `pause`.
    Request,
    /// A breakpoint node was entered during the tick.
    Breakpoint,
    /// A `step` finished.
    Step,
}

/// What a server's `hello` asks of the client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Auth {
    /// No token needed.
    #[default]
    None,
    /// The client's `hello` must carry the host's token.
    Token,
}

/// The tree an instance runs, as listed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeRef {
    pub guid: String,
    #[serde(default)]
    pub name: String,
}

/// One entry of an `instances` message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceEntry {
    pub instance: u64,
    pub name: String,
    pub tree: TreeRef,
    #[serde(default)]
    pub paused: bool,
    #[serde(default)]
    pub ticks: u64,
}

/// A `tick` message: one tick of a subscribed instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tick<'a> {
    pub instance: u64,
    /// The instance's tick count after this tick.
    pub tick: u64,
    /// The instance's clock, in seconds.
    #[serde(default)]
    pub time: f64,
    /// What the root returned.
    pub status: Status,
    /// `[guid, status]` of every node visited, in the order first visited.
    #[serde(default)]
    pub nodes: Vec<(Cow<'a, str>, NodeStatus)>,
    /// The keys whose value changed (`null`: no valid value); every key in the first frame
    /// after `subscribe` and after `dropped`.
    #[serde(default)]
    pub blackboard: Map<String, Value>,
}

/// Everything a server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    Hello {
        protocol: u64,
        #[serde(default)]
        server: String,
        #[serde(default)]
        auth: Auth,
    },
    Welcome,
    Instances {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        instances: Vec<InstanceEntry>,
    },
    Tree {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        instance: u64,
        /// The instance's main tree file (docs/format.md).
        file: Cow<'a, Value>,
    },
    Tick(Tick<'a>),
    Paused {
        instance: u64,
        reason: PauseReason,
        /// The breakpoint node, for [`PauseReason::Breakpoint`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
        #[serde(default)]
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
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        code: ErrorCode,
        #[serde(default)]
        message: String,
    },
}

impl ServerMessage<'_> {
    /// The message as one NDJSON line, newline included. A message longer than the line
    /// limit ([`MAX_LINE`]) would make the client drop the connection, so it becomes an
    /// `error` (`line_too_long`, echoing the request's `id`) instead.
    pub fn to_line(&self) -> String {
        let line = to_line(self);
        if line.len() <= MAX_LINE + 1 {
            return line;
        }
        let message = format!(
            "the `{}` message would be {} bytes, more than the limit of {MAX_LINE}",
            self.kind(),
            line.len() - 1
        );
        to_line(&ServerMessage::Error {
            id: self.id().cloned(),
            code: ErrorCode::LineTooLong,
            message,
        })
    }

    /// Reads one line from a server (without its newline). Everything is owned, whatever
    /// the line's lifetime.
    pub fn from_line(line: &[u8]) -> Result<ServerMessage<'static>, serde_json::Error> {
        serde_json::from_slice(line)
    }

    /// The `id` echoed from the request this message answers.
    pub fn id(&self) -> Option<&Value> {
        match self {
            ServerMessage::Instances { id, .. }
            | ServerMessage::Tree { id, .. }
            | ServerMessage::Ok { id }
            | ServerMessage::Error { id, .. } => id.as_ref(),
            _ => None,
        }
    }

    /// The message's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMessage::Hello { .. } => "hello",
            ServerMessage::Welcome => "welcome",
            ServerMessage::Instances { .. } => "instances",
            ServerMessage::Tree { .. } => "tree",
            ServerMessage::Tick(_) => "tick",
            ServerMessage::Paused { .. } => "paused",
            ServerMessage::Resumed { .. } => "resumed",
            ServerMessage::Dropped { .. } => "dropped",
            ServerMessage::Ok { .. } => "ok",
            ServerMessage::Error { .. } => "error",
        }
    }
}

/// Everything a client sends. The `id` a client may add is not part of it: servers read it
/// separately, so that a request they cannot parse still gets its `id` echoed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    Hello {
        protocol: u64,
        /// How the client names itself (for logs); servers ignore it.
        #[serde(default)]
        client: String,
        /// Only when the server's `hello` asked for one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    List,
    Tree {
        instance: u64,
    },
    Subscribe {
        instances: Vec<u64>,
    },
    Unsubscribe {
        instances: Vec<u64>,
    },
    Pause {
        instance: u64,
    },
    Resume {
        instance: u64,
    },
    Step {
        instance: u64,
    },
    Breakpoint {
        instance: u64,
        /// The node's GUID.
        node: String,
        set: bool,
    },
    Set {
        instance: u64,
        key: String,
        /// JSON of the key's type; `null` clears the key. Required: a missing field is a
        /// bad request.
        value: Value,
    },
    /// A `type` this version does not know (from a newer client): servers answer
    /// `unknown_type`. Never sent: writing it is an error.
    #[serde(other, skip_serializing)]
    Unknown,
}

impl Request {
    /// The client's `hello` for this protocol version.
    pub fn hello(client: impl Into<String>, token: Option<String>) -> Request {
        Request::Hello {
            protocol: PROTOCOL_VERSION,
            client: client.into(),
            token,
        }
    }

    /// The request as one NDJSON line, newline included.
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

/// One NDJSON line, newline included.
fn to_line(message: &impl Serialize) -> String {
    // Serialising these types cannot fail: every map key is a string and no type has a
    // fallible `Serialize` (but `Request::Unknown`, which nobody sends). Should it ever
    // fail, an error line beats a panic.
    let mut line = serde_json::to_string(message).unwrap_or_else(|e| {
        format!(r#"{{"type":"error","code":"protocol","message":"internal: {e}"}}"#)
    });
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_match_the_documented_shapes() {
        let id = Value::from(5);
        assert_eq!(
            ServerMessage::Ok { id: Some(id) }.to_line(),
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
            node: Some("g".into()),
            tick: 7,
        };
        assert_eq!(
            paused.to_line(),
            "{\"type\":\"paused\",\"instance\":3,\"reason\":\"breakpoint\",\"node\":\"g\",\"tick\":7}\n"
        );
        let tick = ServerMessage::Tick(Tick {
            instance: 1,
            tick: 2,
            time: 0.5,
            status: Status::Running,
            nodes: vec![("a".into(), NodeStatus::Aborted)],
            blackboard: Map::new(),
        });
        assert_eq!(
            tick.to_line(),
            "{\"type\":\"tick\",\"instance\":1,\"tick\":2,\"time\":0.5,\"status\":\"running\",\"nodes\":[[\"a\",\"aborted\"]],\"blackboard\":{}}\n"
        );
        let hello = ServerMessage::Hello {
            protocol: PROTOCOL_VERSION,
            server: "arbor-runtime 0.1.0".into(),
            auth: Auth::None,
        };
        assert_eq!(
            hello.to_line(),
            "{\"type\":\"hello\",\"protocol\":1,\"server\":\"arbor-runtime 0.1.0\",\"auth\":\"none\"}\n"
        );
    }

    #[test]
    fn every_server_message_reads_back_as_written() {
        let file = json!({"format": "arbor-tree", "version": 1});
        let messages = [
            ServerMessage::Welcome,
            ServerMessage::Instances {
                id: Some(json!("a")),
                instances: vec![InstanceEntry {
                    instance: 3,
                    name: "villager #3".into(),
                    tree: TreeRef {
                        guid: "g".into(),
                        name: "Villager".into(),
                    },
                    paused: true,
                    ticks: 1234,
                }],
            },
            ServerMessage::Tree {
                id: None,
                instance: 3,
                file: Cow::Borrowed(&file),
            },
            ServerMessage::Tick(Tick {
                instance: 3,
                tick: 9,
                time: 61.7,
                status: Status::Failure,
                nodes: vec![("a".into(), NodeStatus::Success)],
                blackboard: json!({"hunger": 12, "target": null})
                    .as_object()
                    .cloned()
                    .expect("an object"),
            }),
            ServerMessage::Resumed { instance: 3 },
            ServerMessage::Dropped {
                instance: 3,
                frames: 17,
            },
        ];
        for message in messages {
            let line = message.to_line();
            let back = ServerMessage::from_line(line.trim_end().as_bytes()).expect("reads");
            assert_eq!(back, message, "{line}");
        }
    }

    #[test]
    fn reading_ignores_unknown_fields_and_refuses_unknown_types() {
        assert_eq!(
            ServerMessage::from_line(br#"{"type":"resumed","instance":3,"later":"field"}"#)
                .expect("reads"),
            ServerMessage::Resumed { instance: 3 }
        );
        assert!(ServerMessage::from_line(br#"{"type":"teleport"}"#).is_err());
        assert!(ServerMessage::from_line(b"not json").is_err());
    }

    #[test]
    fn requests_are_single_lines_and_read_back() {
        let set = Request::Set {
            instance: 2,
            key: "note".into(),
            value: json!("two\nlines"),
        };
        let line = set.to_line();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(serde_json::from_str::<Request>(&line).expect("reads"), set);
        assert_eq!(
            Request::hello("test", Some("s3cret".into())).to_line(),
            "{\"type\":\"hello\",\"protocol\":1,\"client\":\"test\",\"token\":\"s3cret\"}\n"
        );
        assert_eq!(Request::List.to_line(), "{\"type\":\"list\"}\n");
        assert_eq!(
            serde_json::from_str::<Request>(r#"{"type":"fly","id":1}"#).expect("reads"),
            Request::Unknown
        );
    }

    #[test]
    fn a_message_over_the_limit_becomes_an_error_with_its_id() {
        let file = Value::String("x".repeat(MAX_LINE));
        let tree = ServerMessage::Tree {
            id: Some(json!(4)),
            instance: 1,
            file: Cow::Owned(file),
        };
        let line = tree.to_line();
        let back = ServerMessage::from_line(line.trim_end().as_bytes()).expect("reads");
        assert!(
            matches!(
                back,
                ServerMessage::Error { id: Some(ref id), code: ErrorCode::LineTooLong, .. } if id == 4
            ),
            "{back:?}"
        );
    }
}
