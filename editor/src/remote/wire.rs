//! The client's half of the debug protocol (docs/debug-protocol.md, version 1): the
//! server's messages as the editor reads them, and the requests it writes.
//!
//! Parsing is lenient where the protocol says so (unknown fields are ignored, so a newer
//! minor server still works) and strict elsewhere: a message that is not what its `type`
//! promises becomes [`Incoming::Unreadable`] with the reason, which the panel shows, rather
//! than being dropped silently.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

/// The protocol version this client speaks.
pub const PROTOCOL: u32 = 1;

/// One instance the server lists.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct InstanceInfo {
    pub instance: u64,
    pub name: String,
    pub tree: TreeRef,
    #[serde(default)]
    pub paused: bool,
    #[serde(default)]
    pub ticks: u64,
}

/// Which tree an instance runs.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct TreeRef {
    pub guid: String,
    #[serde(default)]
    pub name: String,
}

/// A tick of a subscribed instance.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct TickFrame {
    pub instance: u64,
    pub tick: u64,
    #[serde(default)]
    pub time: f64,
    pub status: String,
    /// `[guid, status]` pairs of the nodes visited.
    #[serde(default)]
    pub nodes: Vec<(String, String)>,
    /// Keys whose value changed (`null`: no valid value).
    #[serde(default)]
    pub blackboard: BTreeMap<String, Value>,
}

/// A message from the server.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Incoming {
    Hello {
        protocol: u32,
        #[serde(default)]
        server: String,
        #[serde(default)]
        auth: String,
    },
    Welcome {},
    Instances {
        instances: Vec<InstanceInfo>,
    },
    Tree {
        instance: u64,
        file: Value,
    },
    Tick(TickFrame),
    Paused {
        instance: u64,
        #[serde(default)]
        reason: String,
        #[serde(default)]
        node: Option<String>,
        #[serde(default)]
        tick: Option<u64>,
    },
    Resumed {
        instance: u64,
    },
    Dropped {
        instance: u64,
        frames: u64,
    },
    Ok {
        #[serde(default)]
        id: Option<Value>,
    },
    Error {
        #[serde(default)]
        id: Option<Value>,
        #[serde(default)]
        code: String,
        #[serde(default)]
        message: String,
    },
    /// A line this client could not read (not JSON, an unknown type, a wrong field).
    #[serde(skip)]
    Unreadable(String),
}

impl Incoming {
    /// Reads one line from the server.
    pub fn parse(line: &str) -> Incoming {
        serde_json::from_str(line).unwrap_or_else(|e| {
            let shown: String = line.chars().take(120).collect();
            Incoming::Unreadable(format!("{e}: {shown}"))
        })
    }
}

/// A request to the server, as one line of JSON (without the newline).
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Hello {
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
        node: String,
        set: bool,
    },
    Set {
        instance: u64,
        key: String,
        value: Value,
    },
}

impl Request {
    pub fn to_line(&self) -> String {
        let value = match self {
            Request::Hello { token } => {
                let mut hello = json!({
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "client": concat!("arbor-editor ", env!("CARGO_PKG_VERSION")),
                });
                if let Some(token) = token {
                    hello["token"] = json!(token);
                }
                hello
            }
            Request::List => json!({"type": "list"}),
            Request::Tree { instance } => json!({"type": "tree", "instance": instance}),
            Request::Subscribe { instances } => {
                json!({"type": "subscribe", "instances": instances})
            }
            Request::Unsubscribe { instances } => {
                json!({"type": "unsubscribe", "instances": instances})
            }
            Request::Pause { instance } => json!({"type": "pause", "instance": instance}),
            Request::Resume { instance } => json!({"type": "resume", "instance": instance}),
            Request::Step { instance } => json!({"type": "step", "instance": instance}),
            Request::Breakpoint {
                instance,
                node,
                set,
            } => json!({"type": "breakpoint", "instance": instance, "node": node, "set": set}),
            Request::Set {
                instance,
                key,
                value,
            } => json!({"type": "set", "instance": instance, "key": key, "value": value}),
        };
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_examples() {
        let hello = Incoming::parse(
            r#"{"type":"hello","protocol":1,"server":"arbor-runtime 0.1.0","auth":"none"}"#,
        );
        assert!(matches!(hello, Incoming::Hello { protocol: 1, ref auth, .. } if auth == "none"));
        let list = Incoming::parse(
            r#"{"type":"instances","id":1,"instances":[{"instance":3,"name":"villager #3","tree":{"guid":"g","name":"Villager"},"paused":false,"ticks":1234}]}"#,
        );
        let Incoming::Instances { instances } = list else {
            panic!("not instances: {list:?}");
        };
        assert_eq!(instances[0].name, "villager #3");
        assert_eq!(instances[0].tree.guid, "g");
        let tick = Incoming::parse(
            r#"{"type":"tick","instance":3,"tick":1234,"time":61.7,"status":"running","nodes":[["a","success"],["b","running"]],"blackboard":{"hunger":12,"target":null}}"#,
        );
        let Incoming::Tick(frame) = tick else {
            panic!("not a tick: {tick:?}");
        };
        assert_eq!(frame.nodes[1], ("b".to_owned(), "running".to_owned()));
        assert_eq!(frame.blackboard["target"], Value::Null);
    }

    #[test]
    fn unknown_fields_are_ignored_and_unknown_types_reported() {
        assert_eq!(
            Incoming::parse(r#"{"type":"resumed","instance":3,"later":"field"}"#),
            Incoming::Resumed { instance: 3 }
        );
        assert!(matches!(
            Incoming::parse(r#"{"type":"teleport"}"#),
            Incoming::Unreadable(_)
        ));
        assert!(matches!(
            Incoming::parse("not json"),
            Incoming::Unreadable(_)
        ));
    }

    #[test]
    fn requests_are_single_json_lines() {
        let line = Request::Set {
            instance: 2,
            key: "note".into(),
            value: json!("two\nlines"),
        }
        .to_line();
        assert!(!line.contains('\n'));
        let back: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(back["value"], "two\nlines");
        let hello: Value = serde_json::from_str(
            &Request::Hello {
                token: Some("s3cret".into()),
            }
            .to_line(),
        )
        .expect("json");
        assert_eq!(hello["token"], "s3cret");
        assert_eq!(hello["protocol"], 1);
    }
}
