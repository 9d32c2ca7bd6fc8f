//! Remote debugging end to end: a host runs a tree through the runtime's debug server on
//! an ephemeral loopback port, and the editor attaches to it. Covers listing,
//! attaching, statuses drawn on the matching document, pause/step/breakpoints, blackboard
//! writes, the read-only view of a tree that is not open, and reconnection after the
//! program restarts.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::common::Harness;
use arbor_editor::app::{ArborApp, Bottom};
use arbor_editor::document::io;
use arbor_editor::live::{LiveSource, Outcome};
use arbor_editor::remote::{Connection, Remote};
use arbor_editor::Session;
use arbor_runtime::debug::{DebugConfig, DebugServer, PauseReason};
use arbor_runtime::{Agent, Registry, Status};
use serde_json::{json, Value};

const TREE: &str = "11111111-1111-4111-8111-000000000000";
const ROOT: &str = "11111111-1111-4111-8111-000000000001";
const COUNT: &str = "11111111-1111-4111-8111-000000000002";
const WAIT: &str = "11111111-1111-4111-8111-000000000003";

/// Sequence { Increment count, Wait 0.03 s }: a tick that increments, then some running.
fn tree(guid: &str) -> Value {
    json!({
        "format": "arbor-tree", "version": 1, "guid": guid, "name": "counter",
        "blackboard": [{"key": "count", "type": "int", "default": 0}],
        "root": ROOT,
        "nodes": [
            {"guid": ROOT, "name": "loop", "type": "Sequence", "children": [COUNT, WAIT]},
            {"guid": COUNT, "name": "count", "type": "Increment", "params": {"key": "count", "by": 1}},
            {"guid": WAIT, "name": "wait", "type": "Wait", "params": {"seconds": 0.03}}
        ],
        "editor": {"positions": {ROOT: [0.0, 0.0], COUNT: [300.0, -60.0], WAIT: [300.0, 60.0]}}
    })
}

/// A program ticking one agent every few milliseconds through the debug server.
struct Host {
    server: Option<DebugServer>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Host {
    fn start(addr: &str, name: &str, file: Value) -> Host {
        let server = DebugServer::start(DebugConfig::new(addr)).expect("the server starts");
        let compiled = Registry::<()>::new()
            .loader()
            .load_str(&file.to_string(), None)
            .expect("the tree loads");
        let mut agent = Agent::new(Arc::new(compiled), 7);
        let mut instance = server.register_json(name, &agent, file);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                let _ = instance.tick(&mut agent, &mut (), 0.01);
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        Host {
            server: Some(server),
            stop,
            thread: Some(thread),
        }
    }

    fn addr(&self) -> String {
        self.server
            .as_ref()
            .map(|s| s.local_addr().to_string())
            .unwrap_or_default()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        drop(self.server.take());
    }
}

/// Polls until `done` holds; fails the test with `what` after five seconds.
fn until(remote: &mut Remote, what: &str, done: impl Fn(&Remote) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        remote.poll();
        if done(remote) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; connection {:?}, log {:?}",
            remote.connection,
            remote.log
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn attached(remote: &mut Remote, name: &str) {
    until(remote, "the listing", |r| {
        r.listed.iter().any(|i| i.name == name)
    });
    remote.attach(name);
}

#[test]
fn attaching_lists_instances_and_folds_ticks_into_statuses_and_blackboard() {
    let host = Host::start("127.0.0.1:0", "counter #1", tree(TREE));
    let mut remote = Remote::connect(&host.addr(), None);
    attached(&mut remote, "counter #1");
    assert!(matches!(remote.connection, Connection::Connected { .. }));
    assert_eq!(remote.listed[0].tree.guid, TREE);
    until(&mut remote, "statuses of both leaves", |r| {
        r.node_live(COUNT).is_some() && r.node_live(WAIT).is_some()
    });
    let (_, view) = remote
        .focused()
        .expect("the first attached instance has the focus");
    assert_eq!(view.tree.as_ref().map(|t| t.name.as_str()), Some("counter"));
    assert!(
        view.blackboard.contains_key("count"),
        "{:?}",
        view.blackboard
    );
    assert_eq!(
        remote.node_live(COUNT).and_then(|l| l.status),
        Some(Status::Success)
    );
    until(&mut remote, "the tree file", |r| {
        r.focused().is_some_and(|(_, v)| v.file.is_some())
    });
}

#[test]
fn pause_step_breakpoint_and_set_go_to_the_program() {
    let host = Host::start("127.0.0.1:0", "counter #1", tree(TREE));
    let mut remote = Remote::connect(&host.addr(), None);
    attached(&mut remote, "counter #1");
    until(&mut remote, "a first tick", |r| {
        r.focused().is_some_and(|(_, v)| v.tick > 0)
    });

    remote.pause();
    until(&mut remote, "paused", |r| {
        r.focused().is_some_and(|(_, v)| v.paused.is_some())
    });
    let ticks = |r: &Remote| r.focused().map_or(0, |(_, v)| v.tick);
    std::thread::sleep(Duration::from_millis(100));
    remote.poll();
    let at = ticks(&remote);
    std::thread::sleep(Duration::from_millis(100));
    remote.poll();
    assert_eq!(ticks(&remote), at, "a paused instance does not tick");

    remote.step();
    until(&mut remote, "one step", |r| {
        r.focused().is_some_and(|(_, v)| {
            v.tick == at + 1
                && v.paused
                    .as_ref()
                    .is_some_and(|p| p.reason == PauseReason::Step)
        })
    });

    remote.set_value("count", json!(1000));
    remote.step();
    until(
        &mut remote,
        "the value set, then incremented by the step",
        |r| {
            r.focused().is_some_and(|(_, v)| {
                v.blackboard.get("count").and_then(Value::as_i64) >= Some(1000)
            })
        },
    );
    remote.set_value("count", json!("not a number"));
    until(&mut remote, "the server's refusal", |r| {
        r.log.iter().any(|l| l.contains("bad_value"))
    });

    remote.toggle_breakpoint(COUNT);
    assert!(remote.has_breakpoint(COUNT));
    remote.resume();
    until(&mut remote, "the breakpoint", |r| {
        r.focused().is_some_and(|(_, v)| {
            v.paused.as_ref().is_some_and(|p| {
                p.reason == PauseReason::Breakpoint && p.node.as_deref() == Some(COUNT)
            })
        })
    });
    assert_eq!(
        remote.take_hit().as_deref(),
        Some(COUNT),
        "the app frames it"
    );
    assert_eq!(remote.take_hit(), None, "once");
    let live = remote.node_live(COUNT).expect("visited");
    assert_eq!(live.status, Some(Outcome::Success.status()));
}

#[test]
fn the_editor_draws_statuses_on_the_open_document_with_the_same_tree_guid() {
    let host = Host::start("127.0.0.1:0", "counter #1", tree(TREE));
    let doc = io::load_str(&tree(TREE).to_string(), None).expect("a document");
    let mut h = Harness::new(Session::new(doc));
    h.app.attach_to(&host.addr(), "");
    assert_eq!(h.app.bottom(), Bottom::Remote);
    // The Attach… dialog is drawn too, with the instance list, every frame.
    h.app.open_attach_dialog();
    attach_in_frames(&mut h, "statuses", |app| {
        app.remote_is_live() && app.remote().is_some_and(|r| r.node_live(WAIT).is_some())
    });
    let app = &mut h.app;
    assert!(
        app.tabs().len() == 1,
        "the open document was used, no tab opened"
    );

    // Detach: the document stays, the canvas goes back to the local preview.
    app.detach();
    h.frame();
    assert!(h.app.remote().is_none() && !h.app.remote_is_live());
    assert_eq!(h.app.session().document().guid(), TREE);
}

#[test]
fn a_tree_that_is_not_open_is_shown_read_only_in_a_new_tab() {
    let other = "22222222-2222-4222-8222-000000000000";
    let host = Host::start("127.0.0.1:0", "counter #1", tree(other));
    let doc = io::load_str(&tree(TREE).to_string(), None).expect("a document");
    let mut h = Harness::new(Session::new(doc));
    h.app.attach_to(&host.addr(), "");
    attach_in_frames(&mut h, "a read-only tab", |app| {
        app.session().document().guid() == other
    });
    let app = &mut h.app;
    assert_eq!(
        app.tabs().len(),
        2,
        "the document that was open moved to a tab"
    );
    assert_eq!(app.tabs()[0].session().document().guid(), TREE);
    assert!(app.session().read_only_reason().is_some());
    assert!(app.remote_is_live());
    let before = app.session().document().clone();
    let err = app
        .session_mut()
        .delete(&arbor_editor::document::Selection::of_nodes([
            WAIT.to_owned()
        ]))
        .expect_err("a read-only document refuses edits");
    assert!(err.to_string().contains("read-only"), "{err}");
    assert_eq!(app.session().document(), &before);
}

#[test]
fn the_editor_reconnects_when_the_program_restarts_and_keeps_its_breakpoints() {
    let host = Host::start("127.0.0.1:0", "counter #1", tree(TREE));
    let addr = host.addr();
    let mut remote = Remote::connect(&addr, None);
    attached(&mut remote, "counter #1");
    until(&mut remote, "ticks", |r| r.node_live(WAIT).is_some());
    let first = remote.focused().and_then(|(_, v)| v.id);
    remote.toggle_breakpoint(COUNT);

    drop(host);
    until(&mut remote, "the loss", |r| {
        matches!(r.connection, Connection::Lost(_))
            && r.focused().is_some_and(|(_, v)| !v.is_running())
    });

    // The program starts again on the same address; the editor finds its instance by name,
    // subscribes again and sets the breakpoint again, which pauses it.
    let _again = Host::start(&addr, "counter #1", tree(TREE));
    until(&mut remote, "the breakpoint after the restart", |r| {
        r.focused().is_some_and(|(_, v)| {
            v.is_running()
                && v.paused
                    .as_ref()
                    .is_some_and(|p| p.reason == PauseReason::Breakpoint)
        })
    });
    assert!(matches!(remote.connection, Connection::Connected { .. }));
    assert!(first.is_some());
    assert!(remote.focused().is_some_and(|(_, v)| v.id.is_some()));
}

#[test]
fn a_wrong_token_is_refused_for_good_and_said_so() {
    let server = DebugServer::start(DebugConfig::new("127.0.0.1:0").token("s3cret"))
        .expect("the server starts");
    let addr = server.local_addr().to_string();
    let mut remote = Remote::connect(&addr, Some("wrong".into()));
    until(&mut remote, "the refusal", |r| {
        matches!(r.connection, Connection::Refused(_))
    });
    let mut ok = Remote::connect(&addr, Some("s3cret".into()));
    until(&mut ok, "the welcome", |r| {
        matches!(r.connection, Connection::Connected { .. })
    });
}

/// Runs editor frames, attaching to "counter #1" once it is listed (as ticking its box in
/// the Attach… dialog does), until `done`.
fn attach_in_frames(h: &mut Harness, what: &str, done: impl Fn(&ArborApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut frames = 0;
    while !done(&h.app) {
        h.frame();
        frames += 1;
        if let Some(remote) = h.app.remote_mut() {
            if remote.attached.is_empty() && !remote.listed.is_empty() {
                remote.attach("counter #1");
            }
        }
        assert!(Instant::now() < deadline, "no {what} after {frames} frames");
        std::thread::sleep(Duration::from_millis(5));
    }
}
