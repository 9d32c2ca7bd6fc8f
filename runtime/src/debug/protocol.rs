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

/// The `code` of an `error` message: what kind of mistake the server found. The `message`
/// next to it says the rest, for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The handshake went wrong: an unsupported protocol version (the connection is then
    /// closed), a request before `hello`, a second `hello`, no `hello` in time or an idle
    /// client (both closed), or a server with no free client slot (sent instead of its
    /// `hello`).
    Protocol,
    /// The server asked for a token and the client's `hello` had none, or a wrong one; the
    /// connection is closed.
    Auth,
    /// Not JSON, not a JSON object, a missing or mistyped field, or an `id` that is neither
    /// a number nor a string.
    BadRequest,
    /// A client's line was longer than [`MAX_LINE`] (the connection is then closed), or a
    /// message the server would send is (a huge tree file: it is replaced by this error).
    LineTooLong,
    /// A `type` this server does not know (a request from a newer client).
    UnknownType,
    /// No instance has that id (never registered, or unregistered since).
    UnknownInstance,
    /// A `breakpoint` on a GUID that no node of the instance's tree has.
    UnknownNode,
    /// A `set` on a key the instance's blackboard does not declare.
    UnknownKey,
    /// A `set` whose value does not fit the key's declared type.
    BadValue,
    /// The server holds as much for this client as it may: a `set` beyond the bytes of
    /// writes waiting for the host's next tick (send it again after that tick), or, as the
    /// last line before the connection is closed, replies the client did not read.
    Busy,
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
            ErrorCode::Busy => "busy",
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
    /// The node's last tick in the tick returned [`Status::Success`].
    Success,
    /// The node's last tick in the tick returned [`Status::Failure`].
    Failure,
    /// The node's last tick in the tick returned [`Status::Running`].
    Running,
    /// The node was running, was interrupted (aborted) during the tick and was not ticked
    /// again after that.
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

/// The tree an instance runs, as an `instances` listing names it: enough for a client to
/// find the same file among those it has open, before asking for the whole `tree`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeRef {
    /// The tree file's `guid` (docs/format.md).
    pub guid: String,
    /// The tree file's `name`.
    #[serde(default)]
    pub name: String,
}

/// One entry of an `instances` message: a registered agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceEntry {
    /// The instance id, chosen by the server and unique for its lifetime (an agent
    /// registered again gets a new one). Requests name instances by it.
    pub instance: u64,
    /// The name the host registered the agent under, e.g. `villager #3`.
    pub name: String,
    /// The tree the agent runs.
    pub tree: TreeRef,
    /// Whether a client has the instance paused.
    #[serde(default)]
    pub paused: bool,
    /// The tick count as of the host's last tick call *while a client was connected*: a
    /// host does not publish it when nobody listens, so it can lag until the next tick
    /// call right after the first client connects.
    #[serde(default)]
    pub ticks: u64,
}

/// A `tick` message: one tick of a subscribed instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tick<'a> {
    /// The instance that ticked.
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

/// Everything a server sends, one variant per `type` (docs/debug-protocol.md, "Messages").
/// An `id` field is the `id` of the request the message answers, echoed as the client sent
/// it (a JSON number or string); it is absent from messages nobody asked for.
///
/// A client reads a line with [`ServerMessage::from_line`]:
///
/// ```
/// use arbor_runtime::debug::{Auth, ServerMessage, PROTOCOL_VERSION};
///
/// let line = br#"{"type":"hello","protocol":1,"server":"arbor-runtime 0.1.0","auth":"token"}"#;
/// match ServerMessage::from_line(line)? {
///     ServerMessage::Hello { protocol, auth, .. } => {
///         assert_eq!(protocol, PROTOCOL_VERSION);
///         assert_eq!(auth, Auth::Token); // answer with a `hello` that carries the token
///     }
///     other => panic!("a server greets first, not with `{}`", other.kind()),
/// }
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The server's first message on every connection: the client answers with its own
    /// [`Request::Hello`].
    Hello {
        /// The protocol version the server speaks ([`PROTOCOL_VERSION`]).
        protocol: u64,
        /// How the server names itself, e.g. `arbor-runtime 0.1.0` (for people and logs).
        #[serde(default)]
        server: String,
        /// Whether the client's `hello` must carry a token.
        #[serde(default)]
        auth: Auth,
    },
    /// The handshake succeeded: the client may now send any request.
    Welcome,
    /// The registered instances: the reply to `list`, and sent unasked (without `id`) to
    /// every client past the handshake whenever instances are registered or unregistered.
    Instances {
        /// The `list` request's `id`; `None` when sent unasked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        /// Every registered instance.
        instances: Vec<InstanceEntry>,
    },
    /// The reply to `tree`: the tree file an instance was registered with.
    Tree {
        /// The request's `id`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        /// The instance asked about.
        instance: u64,
        /// The instance's main tree file (docs/format.md), as the host registered it
        /// (re-serialised: same content, keys sorted). Nodes of subtree files are not in it.
        file: Cow<'a, Value>,
    },
    /// One tick of a subscribed instance.
    Tick(Tick<'a>),
    /// An instance stopped ticking: sent to every client past the handshake, and only when
    /// the state changes.
    Paused {
        /// The instance that paused.
        instance: u64,
        /// What paused it.
        reason: PauseReason,
        /// The breakpoint node's GUID, for [`PauseReason::Breakpoint`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        node: Option<String>,
        /// The tick during which the breakpoint was entered or the step ran; for
        /// [`PauseReason::Request`], the tick count when the pause was asked.
        #[serde(default)]
        tick: u64,
    },
    /// A paused instance ticks again (after a `resume`, or when the client that held the
    /// pause disconnected). Sent to every client past the handshake.
    Resumed {
        /// The instance that resumed.
        instance: u64,
    },
    /// Tick frames for this client were dropped because its queue on the server was full;
    /// the next [`ServerMessage::Tick`] carries every blackboard key.
    Dropped {
        /// The instance whose frames were dropped.
        instance: u64,
        /// How many frames were dropped since the last report.
        frames: u64,
    },
    /// A request was accepted (`subscribe`, `unsubscribe`, `pause`, `resume`, `step`,
    /// `breakpoint`, `set`). Queued requests take effect at the host's next tick call.
    Ok {
        /// The request's `id`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
    },
    /// A request was refused, or the server is refusing or closing the connection (the
    /// [`ErrorCode`] variants say which codes close it).
    Error {
        /// The request's `id`, when it had a readable one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<Value>,
        /// What kind of mistake, for programs.
        code: ErrorCode,
        /// What went wrong, for people (e.g. `no instance 9`).
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

/// Everything a client sends, one variant per `type` (docs/debug-protocol.md, "Requests").
/// The `id` a client may add is not part of it: servers read it separately, so that a
/// request they cannot parse still gets its `id` echoed. Instances are named by the ids of
/// an `instances` listing.
///
/// Write one with [`Request::to_line`]; to add an `id`, insert it into the JSON object:
///
/// ```
/// use arbor_runtime::debug::Request;
///
/// assert_eq!(
///     Request::hello("my-tool 1.0", None).to_line(),
///     "{\"type\":\"hello\",\"protocol\":1,\"client\":\"my-tool 1.0\"}\n"
/// );
/// let mut pause = serde_json::to_value(Request::Pause { instance: 3 })?;
/// pause["id"] = 7.into(); // the `ok` (or `error`) will carry `"id":7`
/// assert_eq!(pause, serde_json::json!({"type": "pause", "instance": 3, "id": 7}));
/// let line = format!("{pause}\n"); // compact JSON never holds a raw newline
/// # assert_eq!(line.matches('\n').count(), 1);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// The client's answer to the server's `hello` (build it with [`Request::hello`]):
    /// the server replies `welcome`, or an `error` and closes the connection.
    Hello {
        /// The protocol version the client speaks ([`PROTOCOL_VERSION`]).
        protocol: u64,
        /// How the client names itself (for logs); servers ignore it.
        #[serde(default)]
        client: String,
        /// Only when the server's `hello` asked for one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Asks for the registered instances: the reply is `instances`.
    List,
    /// Asks for the tree file an instance runs: the reply is `tree`.
    Tree {
        /// The instance.
        instance: u64,
    },
    /// Starts `tick` messages for these instances (every tick after the `ok`; the first
    /// frame carries every blackboard key). One unknown id subscribes to none.
    Subscribe {
        /// The instances to watch.
        instances: Vec<u64>,
    },
    /// Stops `tick` messages for these instances: none arrives after the `ok`.
    Unsubscribe {
        /// The instances to stop watching.
        instances: Vec<u64>,
    },
    /// Stops the instance at once: the host's tick calls do nothing until a `resume` (or
    /// until this client disconnects). Cancels the steps not yet run.
    Pause {
        /// The instance to pause.
        instance: u64,
    },
    /// Lets a paused instance tick again. Cancels the steps not yet run.
    Resume {
        /// The instance to resume.
        instance: u64,
    },
    /// Runs exactly one tick at the host's next tick call, then pauses (`paused` with
    /// reason `step`); on a running instance, pauses it after its next tick. Steps add up.
    Step {
        /// The instance to step.
        instance: u64,
    },
    /// Sets or clears a breakpoint: the instance pauses after a tick that entered the node.
    /// Applied at the host's next tick call.
    Breakpoint {
        /// The instance.
        instance: u64,
        /// The node's GUID. A node of a subtree used twice breaks in both places.
        node: String,
        /// `true` sets the breakpoint, `false` clears it.
        set: bool,
    },
    /// Writes a blackboard key: checked against the key's type at once, written at the
    /// host's next tick call (before the tick).
    Set {
        /// The instance.
        instance: u64,
        /// The key's name, as declared in the tree file.
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
