//! The Groot2 wire format, as BT.CPP 4's `Groot2Publisher` serves it (its
//! `groot2_protocol.h`), without sockets: what the client sends and how it reads answers.
//!
//! Every request is a ZeroMQ multipart message to the publisher's reply socket (the port
//! the program chose, 1667 by default): a 6-byte header (protocol 2, a request letter, a
//! random u32 id, little-endian) and for some requests a second part. Every answer starts
//! with a 22-byte header (the request's 6 bytes and a 16-byte id the program draws at
//! start, so a different id means the program restarted), then a body; or it is the two
//! parts `error`, message. Breakpoint notifications come on the publish socket (port + 1)
//! as a request header of kind `N` and the node UID in decimal.
//!
//! Which publisher speaks what: BT.CPP has served the bulk hook requests (`D` hooks dump,
//! `A` remove all, `X` disable all) and the heartbeat since 4.1; 4.10 adds the [`ROOT`]
//! entry to blackboard answers. A publisher that does not know a request answers it with
//! `error` (BT.CPP's "Request not recognized"): the client then falls back (see
//! client.rs) rather than ending the session.
//!
//! Nothing here trusts the peer: lengths are checked, bodies are bounded by the caller's
//! socket, and every failure is a [`WireError`] with a message for the log.

use std::fmt;
use std::time::Duration;

use arbor_runtime::btcpp::NodeState;
use arbor_runtime::Status;
use serde_json::{json, Value};

/// `kProtocolID`.
pub const PROTOCOL: u8 = 2;
/// The reply header: the request's 6 bytes, then the program's 16-byte id.
const REPLY_HEADER: usize = 22;
/// The publisher's `max_heartbeat_delay`: once no request came for this long it takes the
/// client for gone and disables every hook (waking a node held at a breakpoint); the next
/// request enables them again.
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// The name BT.CPP 4.10 gives, in a blackboard answer, to the root blackboard of the
/// trees asked for when it is none of them (a blackboard the program made and passed to
/// `createTree`, shared by all its trees).
pub const ROOT: &str = "ROOT";

/// The requests the editor makes (BT.CPP's `RequestType` letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The tree as XML.
    FullTree,
    /// Every node's status byte.
    Status,
    /// The blackboards named in the second part, as MessagePack.
    Blackboard,
    /// Insert (or update) a hook: JSON in the second part.
    HookInsert,
    HookRemove,
    /// Let a node waiting at a breakpoint go on, optionally with a forced result.
    BreakpointUnlock,
    /// Sent by the program on the publish socket when a node reaches a breakpoint.
    BreakpointReached,
    /// Every hook the program holds, as a JSON array (the hook JSON of [`hook`]).
    HooksDump,
    /// Remove every hook, waking a node held at a breakpoint.
    RemoveAllHooks,
    /// Keep every hook but disable it (a held node goes on); inserting a hook again
    /// enables it.
    DisableAllHooks,
}

impl Kind {
    fn letter(self) -> u8 {
        match self {
            Kind::FullTree => b'T',
            Kind::Status => b'S',
            Kind::Blackboard => b'B',
            Kind::HookInsert => b'I',
            Kind::HookRemove => b'R',
            Kind::BreakpointUnlock => b'U',
            Kind::BreakpointReached => b'N',
            Kind::HooksDump => b'D',
            Kind::RemoveAllHooks => b'A',
            Kind::DisableAllHooks => b'X',
        }
    }
}

/// A request header.
pub fn header(kind: Kind, id: u32) -> Vec<u8> {
    let mut out = vec![PROTOCOL, kind.letter()];
    out.extend_from_slice(&id.to_le_bytes());
    out
}

/// An answer or notification that cannot be used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// The program answered with its own error message.
    Refused(String),
    /// Bytes that are not this protocol.
    Garbage(String),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Refused(why) => write!(f, "the program refused: {why}"),
            WireError::Garbage(why) => write!(f, "not a Groot2 answer: {why}"),
        }
    }
}

fn garbage(why: impl Into<String>) -> WireError {
    WireError::Garbage(why.into())
}

/// Checks an answer to the request `kind`/`id`; returns the program's id and the body
/// parts.
pub fn reply(parts: &[Vec<u8>], kind: Kind, id: u32) -> Result<([u8; 16], &[Vec<u8>]), WireError> {
    let Some((head, body)) = parts.split_first() else {
        return Err(garbage("an empty message"));
    };
    if head.as_slice() == b"error" {
        let why = body
            .first()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        return Err(WireError::Refused(why));
    }
    if head.len() != REPLY_HEADER {
        return Err(garbage(format!(
            "a {}-byte header, not {REPLY_HEADER}",
            head.len()
        )));
    }
    if head[0] != PROTOCOL {
        return Err(garbage(format!(
            "protocol {}, this editor speaks {PROTOCOL}",
            head[0]
        )));
    }
    let sent = header(kind, id);
    if head[..6] != sent[..] {
        return Err(garbage("the answer is not to the request sent"));
    }
    let mut program = [0u8; 16];
    program.copy_from_slice(&head[6..]);
    Ok((program, body))
}

/// The one body part of an answer.
pub fn body<'a>(parts: &'a [Vec<u8>], what: &str) -> Result<&'a [u8], WireError> {
    parts
        .first()
        .map(Vec::as_slice)
        .ok_or_else(|| garbage(format!("no {what} in the answer")))
}

/// The status buffer: 3 bytes per node, its UID (u16) and its [`NodeState`] byte.
pub fn statuses(body: &[u8]) -> Result<Vec<(u16, NodeState)>, WireError> {
    if !body.len().is_multiple_of(3) {
        return Err(garbage(format!(
            "a status buffer of {} bytes (3 per node)",
            body.len()
        )));
    }
    body.chunks_exact(3)
        .map(|c| {
            let uid = u16::from_le_bytes([c[0], c[1]]);
            NodeState::from_byte(c[2])
                .map(|s| (uid, s))
                .ok_or_else(|| garbage(format!("node {uid} has status byte {}", c[2])))
        })
        .collect()
}

/// The blackboards answer: MessagePack of `{blackboard: {key: value}}`.
pub fn blackboards(body: &[u8]) -> Result<Value, WireError> {
    let value: Value =
        rmp_serde::from_slice(body).map_err(|e| garbage(format!("blackboards: {e}")))?;
    if value.is_object() || value.is_null() {
        Ok(value)
    } else {
        Err(garbage("blackboards: not a map"))
    }
}

/// A breakpoint notification from the publish socket: the UID of the node that waits.
pub fn breakpoint_reached(parts: &[Vec<u8>]) -> Result<u16, WireError> {
    let [head, uid] = parts else {
        return Err(garbage(format!(
            "a notification of {} parts, not 2",
            parts.len()
        )));
    };
    if head.len() != 6 || head[0] != PROTOCOL || head[1] != Kind::BreakpointReached.letter() {
        return Err(garbage("a notification that is not a breakpoint"));
    }
    std::str::from_utf8(uid)
        .ok()
        .and_then(|u| u.trim().parse().ok())
        .ok_or_else(|| garbage("a breakpoint notification without a node UID"))
}

/// BT.CPP's name for a forced result; `None` lets the node run as usual.
fn desired(result: Option<Status>) -> &'static str {
    match result {
        Some(Status::Success) => "SUCCESS",
        Some(Status::Failure) => "FAILURE",
        // BT.CPP cannot force RUNNING: anything but SUCCESS/FAILURE means "tick it".
        Some(Status::Running) | None => "SKIPPED",
    }
}

/// A hook before the node's tick (`position` 0): a breakpoint that waits for
/// [`unlock`], or with `replace` a result returned instead of ticking the node.
pub fn hook(uid: u16, replace: Option<Status>) -> String {
    hook_json(uid, replace, false).to_string()
}

fn hook_json(uid: u16, replace: Option<Status>, once: bool) -> Value {
    json!({
        "enabled": true,
        "uid": uid,
        "mode": if replace.is_some() { 1 } else { 0 },
        "once": once,
        "desired_status": desired(replace),
        "position": 0,
    })
}

/// A hook as the program reports it in a hooks dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramHook {
    pub uid: u16,
    pub enabled: bool,
    /// `None`: a breakpoint that waits; `Some`: the result returned instead of a tick.
    pub replace: Option<Status>,
    /// Removed by the program once it fired (the hooks of a step).
    pub once: bool,
    /// Before the tick (0) or after it (1; the editor sets only the former).
    pub after_tick: bool,
}

/// The hooks dump: a JSON array of hooks as BT.CPP's `to_json(Hook)` writes them.
pub fn hooks_dump(body: &[u8]) -> Result<Vec<ProgramHook>, WireError> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| garbage(format!("hooks dump: {e}")))?;
    let Value::Array(hooks) = value else {
        return Err(garbage("hooks dump: not a list"));
    };
    hooks.iter().map(program_hook).collect()
}

fn program_hook(hook: &Value) -> Result<ProgramHook, WireError> {
    let field = |name: &str| {
        hook.get(name)
            .ok_or_else(|| garbage(format!("hooks dump: a hook without `{name}`")))
    };
    let flag = |name: &str| {
        field(name)?
            .as_bool()
            .ok_or_else(|| garbage(format!("hooks dump: `{name}` is not true or false")))
    };
    let number = |name: &str| {
        field(name)?
            .as_u64()
            .ok_or_else(|| garbage(format!("hooks dump: `{name}` is not a number")))
    };
    let uid =
        u16::try_from(number("uid")?).map_err(|_| garbage("hooks dump: a uid beyond 65535"))?;
    let replace = match number("mode")? {
        0 => None,
        1 => match field("desired_status")?.as_str() {
            Some("SUCCESS") => Some(Status::Success),
            Some("FAILURE") => Some(Status::Failure),
            // BT.CPP's SKIPPED (or RUNNING, IDLE): the node is ticked as usual.
            _ => Some(Status::Running),
        },
        m => return Err(garbage(format!("hooks dump: hook mode {m}"))),
    };
    Ok(ProgramHook {
        uid,
        enabled: flag("enabled")?,
        replace,
        once: flag("once")?,
        after_tick: number("position")? != 0,
    })
}

/// One-shot breakpoints before each of `uids` (BT.CPP removes each once it fired), in one
/// request: what a single step is made of.
pub fn step_hooks(uids: &[u16]) -> String {
    Value::Array(uids.iter().map(|u| hook_json(*u, None, true)).collect()).to_string()
}

/// Removes the hook before the node's tick.
pub fn unhook(uid: u16) -> String {
    json!({"uid": uid, "position": 0}).to_string()
}

/// Lets the node waiting at its breakpoint go on: ticked as usual, or returning `result`
/// without being ticked.
pub fn unlock(uid: u16, result: Option<Status>) -> String {
    json!({
        "uid": uid,
        "desired_status": desired(result),
        "position": 0,
        "remove_when_done": false,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(kind: Kind, id: u32, program: u8, body: &[u8]) -> Vec<Vec<u8>> {
        let mut head = header(kind, id);
        head.extend_from_slice(&[program; 16]);
        vec![head, body.to_vec()]
    }

    #[test]
    fn headers_are_protocol_letter_and_little_endian_id() {
        assert_eq!(header(Kind::Status, 0x0403_0201), vec![2, b'S', 1, 2, 3, 4]);
    }

    #[test]
    fn a_reply_is_checked_against_the_request() {
        let parts = answer(Kind::FullTree, 7, 9, b"<root/>");
        let (program, body) = reply(&parts, Kind::FullTree, 7).expect("ok");
        assert_eq!(program, [9; 16]);
        assert_eq!(body, &[b"<root/>".to_vec()]);
        assert!(matches!(
            reply(&parts, Kind::FullTree, 8),
            Err(WireError::Garbage(_))
        ));
        assert!(matches!(
            reply(&parts, Kind::Status, 7),
            Err(WireError::Garbage(_))
        ));
        assert!(matches!(
            reply(&[], Kind::Status, 7),
            Err(WireError::Garbage(_))
        ));
        let short = vec![vec![2, b'T', 7, 0, 0, 0]];
        assert!(matches!(
            reply(&short, Kind::FullTree, 7),
            Err(WireError::Garbage(_))
        ));
        let refused = vec![b"error".to_vec(), b"Node ID not found".to_vec()];
        assert_eq!(
            reply(&refused, Kind::HookRemove, 1),
            Err(WireError::Refused("Node ID not found".into()))
        );
    }

    #[test]
    fn status_buffers_are_read_three_bytes_a_node() {
        let got = statuses(&[1, 0, 1, 2, 0, 13, 0, 1, 0]).expect("ok");
        assert_eq!(
            got,
            vec![
                (1, NodeState::Running),
                (2, NodeState::IdleAfter(Status::Failure)),
                (256, NodeState::Idle)
            ]
        );
        assert!(statuses(&[1, 0]).is_err());
        assert!(statuses(&[1, 0, 99]).is_err());
    }

    #[test]
    fn breakpoint_notifications_name_a_uid() {
        let parts = vec![header(Kind::BreakpointReached, 5), b"12".to_vec()];
        assert_eq!(breakpoint_reached(&parts), Ok(12));
        let wrong = vec![header(Kind::Status, 5), b"12".to_vec()];
        assert!(breakpoint_reached(&wrong).is_err());
        let nonsense = vec![header(Kind::BreakpointReached, 5), b"x".to_vec()];
        assert!(breakpoint_reached(&nonsense).is_err());
    }

    #[test]
    fn hooks_say_what_bt_cpp_reads() {
        let v: Value = serde_json::from_str(&hook(4, None)).expect("json");
        assert_eq!(v["mode"], 0);
        assert_eq!(v["desired_status"], "SKIPPED");
        let v: Value = serde_json::from_str(&hook(4, Some(Status::Failure))).expect("json");
        assert_eq!(
            (v["mode"].clone(), v["desired_status"].clone()),
            (json!(1), json!("FAILURE"))
        );
        let v: Value = serde_json::from_str(&step_hooks(&[2, 3])).expect("json");
        assert_eq!(v[1]["uid"], 3);
        assert_eq!(
            (v[0]["once"].clone(), v[0]["mode"].clone()),
            (json!(true), json!(0))
        );
        let v: Value = serde_json::from_str(&unlock(4, Some(Status::Success))).expect("json");
        assert_eq!(v["desired_status"], "SUCCESS");
        assert_eq!(v["remove_when_done"], false);
    }

    #[test]
    fn bulk_hook_requests_have_bt_cpps_letters() {
        assert_eq!(header(Kind::HooksDump, 1)[1], b'D');
        assert_eq!(header(Kind::RemoveAllHooks, 1)[1], b'A');
        assert_eq!(header(Kind::DisableAllHooks, 1)[1], b'X');
    }

    #[test]
    fn a_hooks_dump_reads_what_hook_json_writes() {
        // A dump lists hooks as the client writes them: a breakpoint and a step's hook.
        let step: Value = serde_json::from_str(&step_hooks(&[9])).expect("json");
        let dump = format!("[{},{}]", hook(4, None), step[0]);
        let hooks = hooks_dump(dump.as_bytes()).expect("ok");
        assert_eq!(
            hooks,
            vec![
                ProgramHook {
                    uid: 4,
                    enabled: true,
                    replace: None,
                    once: false,
                    after_tick: false
                },
                ProgramHook {
                    uid: 9,
                    enabled: true,
                    replace: None,
                    once: true,
                    after_tick: false
                },
            ]
        );
        let forced = format!("[{}]", hook(2, Some(Status::Failure)));
        let forced = forced.replace("\"enabled\":true", "\"enabled\":false");
        let got = hooks_dump(forced.as_bytes()).expect("ok");
        assert_eq!(
            (got[0].replace, got[0].enabled),
            (Some(Status::Failure), false)
        );
        assert_eq!(hooks_dump(b"[]"), Ok(vec![]));
        for bad in [
            &b"{}"[..],
            b"[{\"uid\":1}]",
            b"[{\"enabled\":true,\"uid\":70000,\"mode\":0,\"once\":false,\"position\":0}]",
            b"[{\"enabled\":1,\"uid\":1,\"mode\":0,\"once\":false,\"position\":0}]",
            b"[{\"enabled\":true,\"uid\":1,\"mode\":5,\"once\":false,\"position\":0}]",
            b"not json",
        ] {
            assert!(
                matches!(hooks_dump(bad), Err(WireError::Garbage(_))),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn blackboards_must_be_a_messagepack_map() {
        let map = rmp_serde::to_vec(&json!({"Main": {"laps": 3}})).expect("encodes");
        assert_eq!(blackboards(&map).expect("ok")["Main"]["laps"], 3);
        let list = rmp_serde::to_vec(&json!([1])).expect("encodes");
        assert!(blackboards(&list).is_err());
        assert!(blackboards(&[0xc1]).is_err());
    }
}
