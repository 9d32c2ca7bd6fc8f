//! The Groot2 requests of BT.CPP 4.10 that the `behaviortreepy` program (BT.CPP 4.8.2)
//! cannot show: the `ROOT` blackboard entry, and the bulk hook requests against a
//! publisher that refuses them. The peer is a fake publisher written here from BT.CPP's
//! `groot2_protocol.h` and `groot2_publisher.cpp` (4.10): a REP socket answering with the
//! 22-byte reply header (the request's 6 bytes, then a 16-byte program id), or with the
//! two parts `error`, message; hooks kept by UID as the publisher keeps its pre-tick hooks.
//! It records every request letter, so the tests can tell what the editor asked, in what
//! order, and that it keeps asking (the heartbeat) without timing anything.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbor_editor::live::LiveSource;
use arbor_editor::remote::groot2::{Address, Groot2, NodeHook};
use arbor_editor::remote::Connection;
use arbor_runtime::Status;
use serde_json::{json, Value};

use super::groot2::serve;

/// The tree as `WriteTreeToXML(tree, true, true)` reports it: every node with its `_uid`.
const TREE: &str = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main" _fullpath="">
    <Sequence name="patrol" _uid="1">
      <AlwaysSuccess name="look" _uid="2"/>
      <AlwaysSuccess name="walk" _uid="3"/>
      <AlwaysSuccess name="rest" _uid="4"/>
    </Sequence>
  </BehaviorTree>
</root>"#;

/// What the fake publisher knows, and what it holds.
#[derive(Default)]
struct Program {
    /// Answers `D`, `A`, `X` (BT.CPP since 4.1); otherwise refuses them as BT.CPP
    /// refuses a letter it does not know ("Request not recognized").
    bulk_hooks: bool,
    /// Adds the root blackboard as `ROOT` to blackboard answers (BT.CPP 4.10, for a
    /// program whose trees share a blackboard it made).
    root_entry: bool,
    /// The pre-tick hooks by UID, as BT.CPP's hook JSON.
    hooks: BTreeMap<u16, Value>,
    /// Every request's letter, in order.
    asked: Vec<u8>,
}

type Shared = Arc<Mutex<Program>>;

fn lock(p: &Shared) -> std::sync::MutexGuard<'_, Program> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

/// The answer to one request: the reply header and body parts, or the refusal message.
fn answer(p: &Shared, parts: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, String> {
    let head = parts.first().ok_or("wrong request header")?;
    if head.len() != 6 {
        return Err("wrong request header".into());
    }
    let mut program = lock(p);
    program.asked.push(head[1]);
    let json_body = || -> Result<Value, String> {
        let body = parts.get(1).ok_or("must be 2 parts message")?;
        serde_json::from_slice(body).map_err(|e| e.to_string())
    };
    let uid_of = |v: &Value| v["uid"].as_u64().and_then(|u| u16::try_from(u).ok());
    let body: Option<Vec<u8>> = match head[1] {
        b'T' => Some(TREE.as_bytes().to_vec()),
        // Four nodes, all IDLE: UID (u16 little-endian) and the status byte.
        b'S' => Some(
            (1u16..=4)
                .flat_map(|u| [u.to_le_bytes()[0], 0, 0])
                .collect(),
        ),
        b'B' => {
            let mut boards = json!({"Main": {"laps": 3}});
            if program.root_entry {
                boards["ROOT"] = json!({"robot": "r2"});
            }
            Some(rmp_serde::to_vec(&boards).map_err(|e| e.to_string())?)
        }
        b'I' => {
            let hooks = match json_body()? {
                Value::Array(list) => list,
                one => vec![one],
            };
            for hook in hooks {
                let uid = uid_of(&hook).ok_or("no uid")?;
                program.hooks.insert(uid, hook);
            }
            None
        }
        b'R' => {
            let uid = uid_of(&json_body()?).ok_or("no uid")?;
            program.hooks.remove(&uid).ok_or("Node ID not found")?;
            None
        }
        b'U' => None,
        b'D' if program.bulk_hooks => {
            let dump: Vec<&Value> = program.hooks.values().collect();
            Some(serde_json::to_vec(&dump).map_err(|e| e.to_string())?)
        }
        b'A' if program.bulk_hooks => {
            program.hooks.clear();
            None
        }
        b'X' if program.bulk_hooks => {
            for hook in program.hooks.values_mut() {
                hook["enabled"] = json!(false);
            }
            None
        }
        _ => return Err("Request not recognized".into()),
    };
    let mut reply = head.clone();
    reply.extend_from_slice(&[0x5a; 16]);
    Ok(std::iter::once(reply).chain(body).collect())
}

/// Starts the fake publisher on a free port.
fn publish(program: Program) -> (u16, Shared) {
    let shared = Arc::new(Mutex::new(program));
    let state = shared.clone();
    let port = serve(move |parts| {
        answer(&state, &parts).unwrap_or_else(|why| vec![b"error".to_vec(), why.into_bytes()])
    });
    (port, shared)
}

fn hook(uid: u16, enabled: bool, mode: u8, once: bool, desired: &str) -> Value {
    json!({"enabled": enabled, "uid": uid, "mode": mode, "once": once,
           "desired_status": desired, "position": 0})
}

fn attach(port: u16) -> Groot2 {
    Groot2::connect(Address {
        host: "127.0.0.1".into(),
        port,
    })
}

/// Polls the editor until `done` holds of it and the program; fails after ten seconds.
fn until(g: &mut Groot2, p: &Shared, what: &str, done: impl Fn(&Groot2, &Program) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        g.poll();
        if done(g, &lock(p)) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; connection {:?}, log {:?}, asked {:?}",
            g.connection,
            g.log,
            String::from_utf8_lossy(&lock(p).asked)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn asked(p: &Shared, letter: u8) -> usize {
    lock(p).asked.iter().filter(|l| **l == letter).count()
}

fn enabled(p: &Program, uid: u16) -> Option<bool> {
    p.hooks.get(&uid).and_then(|h| h["enabled"].as_bool())
}

#[test]
fn a_bt_cpp_4_10_program_shows_its_hooks_and_root_blackboard_and_takes_bulk_hook_requests() {
    // Hooks set before the editor attached (by Groot2): a breakpoint, a disabled forced
    // failure, and the one-shot hook of a step that never finished.
    let mut hooks = BTreeMap::new();
    hooks.insert(2, hook(2, true, 0, false, "SKIPPED"));
    hooks.insert(3, hook(3, false, 1, false, "FAILURE"));
    hooks.insert(4, hook(4, true, 0, true, "SKIPPED"));
    let (port, p) = publish(Program {
        bulk_hooks: true,
        root_entry: true,
        hooks,
        ..Program::default()
    });
    let mut g = attach(port);
    until(&mut g, &p, "the tree", |g, _| g.tree.is_some());
    // Resynced from the dump: the breakpoint and the disabled forced result are the
    // editor's now; the stale step hook is gone from the program.
    assert_eq!(g.hooks.get(&2), Some(&NodeHook::Breakpoint));
    assert_eq!(g.disabled.get(&3), Some(&NodeHook::Force(Status::Failure)));
    assert!(!g.hooks.contains_key(&4) && !g.disabled.contains_key(&4));
    assert!(g.has_breakpoint(g.guid(2).expect("mapped")));
    until(&mut g, &p, "the step hook removed", |_, p| {
        !p.hooks.contains_key(&4)
    });
    assert_eq!(
        lock(&p).asked[..2],
        [b'T', b'D'],
        "the tree, then the hooks"
    );
    assert_eq!(asked(&p, b'A'), 0, "hooks a program can list are not wiped");

    // The root blackboard comes beside the trees' own.
    until(&mut g, &p, "the blackboards", |g, _| {
        g.blackboards.contains_key("Main") && g.root_blackboard().is_some()
    });
    assert_eq!(
        g.root_blackboard().map(|b| b["robot"].clone()),
        Some(json!("r2"))
    );

    // Disable all: the program keeps its hooks, switched off; enable all sets them again.
    g.disable_all_hooks();
    assert!(g.hooks.is_empty());
    assert_eq!(g.disabled.len(), 2);
    until(&mut g, &p, "the hooks disabled", |_, p| {
        enabled(p, 2) == Some(false) && enabled(p, 3) == Some(false)
    });
    g.enable_all_hooks();
    until(&mut g, &p, "the hooks enabled", |_, p| {
        enabled(p, 2) == Some(true) && enabled(p, 3) == Some(true)
    });
    assert_eq!(g.hooks.len(), 2);

    // Remove all: none left in the program or the editor.
    g.remove_all_hooks();
    assert!(g.hooks.is_empty() && g.disabled.is_empty());
    until(&mut g, &p, "the hooks removed", |_, p| p.hooks.is_empty());

    // The heartbeat: attached and idle, the editor keeps asking (BT.CPP disables every
    // hook when nothing came for 5 s), so the breakpoint set now stays enabled.
    let walk = g.guid(3).expect("mapped").to_owned();
    g.toggle_breakpoint(&walk);
    until(&mut g, &p, "the breakpoint", |_, p| {
        enabled(p, 3) == Some(true)
    });
    let before = lock(&p).asked.len();
    until(&mut g, &p, "twenty more requests", |_, p| {
        p.asked.len() >= before + 20
    });
    assert!(matches!(g.connection, Connection::Connected { .. }));
    assert!(
        lock(&p).asked[before..]
            .iter()
            .all(|l| [b'S', b'B'].contains(l)),
        "the keep-alive is the polling itself"
    );

    // Detaching removes every hook: the program is not left waiting for an editor that
    // is gone. Then nothing more is asked.
    drop(g);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !lock(&p).hooks.is_empty() {
        assert!(Instant::now() < deadline, "the hooks outlived the editor");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        asked(&p, b'A'),
        2,
        "the remove-all asked earlier, then on detaching"
    );
}

#[test]
fn a_publisher_that_refuses_the_bulk_hook_requests_is_served_hook_by_hook() {
    let (port, p) = publish(Program::default());
    let mut g = attach(port);
    until(&mut g, &p, "the tree", |g, _| g.tree.is_some());
    until(&mut g, &p, "the note", |g, _| {
        g.log
            .iter()
            .any(|l| l.contains("does not know the hooks dump"))
    });
    // Without a dump the client clears the hooks instead; that is refused too.
    assert_eq!(lock(&p).asked[..3], [b'T', b'D', b'A']);
    assert!(g.hooks.is_empty());

    let walk = g.guid(3).expect("mapped").to_owned();
    let look = g.guid(2).expect("mapped").to_owned();
    g.toggle_breakpoint(&walk);
    g.force(&look, Some(Status::Success));
    until(&mut g, &p, "two hooks", |_, p| p.hooks.len() == 2);

    // Disable all: removed one by one instead, kept by the editor to set again.
    g.disable_all_hooks();
    until(&mut g, &p, "the hooks removed", |_, p| p.hooks.is_empty());
    assert!(g
        .log
        .iter()
        .any(|l| l.contains("does not know disable-all-hooks")));
    assert_eq!(g.disabled.len(), 2);
    g.enable_all_hooks();
    until(&mut g, &p, "the hooks set again", |_, p| {
        enabled(p, 2) == Some(true) && enabled(p, 3) == Some(true)
    });

    // Remove all: hook by hook, without asking for `A` again.
    g.remove_all_hooks();
    until(&mut g, &p, "the hooks removed", |_, p| p.hooks.is_empty());
    assert!(matches!(g.connection, Connection::Connected { .. }));
    assert_eq!(
        (asked(&p, b'D'), asked(&p, b'A'), asked(&p, b'X')),
        (1, 1, 1),
        "each unknown request is asked once"
    );
    // No ROOT entry from this publisher: no root blackboard, and no problem.
    until(&mut g, &p, "the blackboards", |g, _| {
        g.blackboards.contains_key("Main")
    });
    assert!(g.root_blackboard().is_none());

    // Detaching: the editor's hooks are removed one by one too.
    g.toggle_breakpoint(&walk);
    until(&mut g, &p, "the breakpoint", |_, p| p.hooks.len() == 1);
    drop(g);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !lock(&p).hooks.is_empty() {
        assert!(Instant::now() < deadline, "the hook outlived the editor");
        std::thread::sleep(Duration::from_millis(10));
    }
}
