//! Attaching to real BehaviorTree.CPP programs (Groot2's protocol), end to end: a Python
//! script (tests/data/groot2/program.py) builds a BT.CPP 4 tree through `behaviortreepy`,
//! publishes it with `Groot2Publisher` on a free loopback port and ticks it; the editor
//! attaches, imports the tree, follows statuses and blackboards, sets breakpoints and
//! forced results, and reconnects when the program restarts. A second test replays the
//! `.btlog` the program's `FileLogger` wrote.
//!
//! The venv with `behaviortreepy` is made on first use (runtime/tests/btcpp/venv.rs, the
//! same one the differential test uses); the tests skip, saying so, only when this
//! machine has no Python or pip.

use std::io::{BufRead as _, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::Harness;
use arbor_editor::app::{Action, Bottom};
use arbor_editor::live::LiveSource;
use arbor_editor::remote::groot2::{Address, Groot2};
use arbor_editor::remote::Connection;
use arbor_editor::replay::Replay;
use arbor_editor::Session;
use arbor_runtime::btcpp::{BtLog, NodeState};
use arbor_runtime::Status;

#[path = "../../../runtime/tests/btcpp/venv.rs"]
mod venv;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the editor sits in the workspace")
        .to_path_buf()
}

fn python() -> Option<PathBuf> {
    venv::btcpp_python_or_skip(&workspace(), "the Groot2 test against a BT.CPP program")
}

/// A loopback port whose next port is free too (the publisher takes it).
fn free_port() -> u16 {
    for _ in 0..50 {
        let Ok(a) = TcpListener::bind("127.0.0.1:0") else {
            continue;
        };
        let Ok(port) = a.local_addr().map(|a| a.port()) else {
            continue;
        };
        if port < u16::MAX && TcpListener::bind(("127.0.0.1", port + 1)).is_ok() {
            return port;
        }
    }
    panic!("no two free consecutive loopback ports");
}

/// The BT.CPP program; killed when dropped.
struct Program(Child);

impl Program {
    fn start(py: &Path, port: u16, args: &[&str]) -> Program {
        let script = workspace().join("editor/tests/data/groot2/program.py");
        let mut child = Command::new(py)
            .arg(script)
            .arg(port.to_string())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the BT.CPP program starts");
        let stdout = child.stdout.take().expect("piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the program says it is ready");
        assert_eq!(line.trim(), "ready", "the program did not start");
        Program(child)
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Polls until `done` holds; fails after ten seconds with the connection and log.
fn until(g: &mut Groot2, what: &str, done: impl Fn(&Groot2) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        g.poll();
        if done(g) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; connection {:?}, log {:?}",
            g.connection,
            g.log
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The UID of the node named `name` in the program's tree.
fn uid(g: &Groot2, name: &str) -> u16 {
    let tree = g.tree.as_ref().expect("a tree");
    let guid = tree
        .imported
        .files
        .iter()
        .flat_map(|f| f.tree.nodes.iter())
        .find(|n| n.name == name)
        .map(|n| n.guid.clone())
        .unwrap_or_else(|| panic!("no node {name}"));
    g.uid(&guid).expect("the node has a UID")
}

fn guid(g: &Groot2, name: &str) -> String {
    g.guid(uid(g, name)).expect("mapped").to_owned()
}

fn status(g: &Groot2, name: &str) -> Option<Status> {
    g.state(uid(g, name)).and_then(NodeState::status)
}

#[test]
fn a_bt_cpp_program_is_watched_paused_forced_and_found_again_after_a_restart() {
    let Some(py) = python() else {
        return;
    };
    let port = free_port();
    let program = Program::start(&py, port, &[]);
    let mut g = Groot2::connect(Address {
        host: "127.0.0.1".into(),
        port,
    });
    until(&mut g, "the tree", |g| g.tree.is_some());
    assert!(matches!(g.connection, Connection::Connected { .. }));

    // The imported tree: the program's names, every node's UID mapped.
    let tree = g.tree.as_ref().expect("a tree");
    let names = |i: usize| -> Vec<String> {
        tree.imported.files[i]
            .tree
            .nodes
            .iter()
            .map(|n| n.name.clone())
            .collect()
    };
    let main = names(0);
    for name in ["patrol", "ready", "battery_ok", "charge", "walk"] {
        assert!(main.contains(&name.to_owned()), "{name} in {main:?}");
    }
    assert_eq!(
        tree.imported.files.len(),
        2,
        "Main and the Deliver instance"
    );
    assert!(names(1).contains(&"pick".to_owned()));
    assert_eq!(tree.nodes.len(), 10, "{:?}", tree.nodes);
    assert_eq!(tree.blackboard_request(), "Main;Deliver::7");

    // Statuses over time: walk runs for ticks, then succeeds; the check always fails.
    until(&mut g, "walk running", |g| {
        status(g, "walk") == Some(Status::Running)
    });
    until(&mut g, "walk succeeded", |g| {
        status(g, "walk") == Some(Status::Success)
    });
    until(&mut g, "the failing check", |g| {
        status(g, "battery_ok") == Some(Status::Failure)
    });
    assert_eq!(
        g.node_live(&guid(&g, "battery_ok")).and_then(|l| l.status),
        Some(Status::Failure),
        "drawn through LiveSource"
    );
    until(&mut g, "the blackboard", |g| {
        g.blackboards
            .get("Main")
            .and_then(|b| b.get("target"))
            .is_some_and(|v| v.to_string().contains("dock"))
    });

    // A breakpoint before walk: the program stops there, the statuses freeze.
    let walk = guid(&g, "walk");
    g.toggle_breakpoint(&walk);
    assert!(g.has_breakpoint(&walk));
    let walk_uid = uid(&g, "walk");
    until(&mut g, "the breakpoint", |g| g.waiting == Some(walk_uid));
    assert_eq!(g.take_hit().as_deref(), Some(walk.as_str()));
    std::thread::sleep(Duration::from_millis(300));
    g.poll();
    let frozen: Vec<_> = (1..=10).map(|u| g.state(u)).collect();
    std::thread::sleep(Duration::from_millis(400));
    g.poll();
    assert_eq!(
        (1..=10).map(|u| g.state(u)).collect::<Vec<_>>(),
        frozen,
        "nothing ticks while the program waits at the breakpoint"
    );
    // Continue: walk is ticked (it runs). Its pre-tick hook fires on every tick of it, so
    // the program stops there again on the next tick.
    g.resume(None);
    until(&mut g, "walk running after Continue", |g| {
        status(g, "walk") == Some(Status::Running)
    });
    until(&mut g, "the breakpoint again", |g| {
        g.waiting == Some(walk_uid)
    });
    // F10: walk goes on and the next node ticked stops (the next tick's root, or the
    // Deliver subtree once walk is done). Continue: the step's other one-shot hooks are
    // gone, so the next stop is walk's breakpoint again, not the node after.
    g.step();
    until(&mut g, "the step's stop", |g| {
        g.waiting.is_some_and(|u| u != walk_uid)
    });
    let stepped_to = g.waiting;
    assert!(
        [Some(uid(&g, "patrol")), Some(uid(&g, "Deliver"))].contains(&stepped_to),
        "stepped to {stepped_to:?}"
    );
    g.resume(None);
    until(&mut g, "walk's breakpoint after the step", |g| {
        g.waiting.is_some() && g.waiting != stepped_to
    });
    assert_eq!(
        g.waiting,
        Some(walk_uid),
        "no one-shot hook was left behind"
    );
    // Forced at the breakpoint: walk fails without running, so the sequence fails and
    // starts over without running the Deliver subtree, and stops before walk again.
    let deliver = uid(&g, "Deliver");
    let delivered = g.state(deliver);
    g.resume(Some(Status::Failure));
    until(&mut g, "walk forced to fail", |g| {
        status(g, "walk") == Some(Status::Failure)
    });
    until(&mut g, "the breakpoint on the next lap", |g| {
        g.waiting == Some(walk_uid)
    });
    assert_eq!(
        status(&g, "walk"),
        Some(Status::Failure),
        "not ticked since"
    );
    assert_eq!(
        g.state(deliver),
        delivered,
        "the failed sequence skipped Deliver"
    );
    g.toggle_breakpoint(&walk);
    assert!(!g.has_breakpoint(&walk));

    // Fault injection without stopping: the failing check is forced to succeed.
    let check = guid(&g, "battery_ok");
    g.force(&check, Some(Status::Success));
    until(&mut g, "the check forced to succeed", |g| {
        status(g, "battery_ok") == Some(Status::Success)
    });

    // The program restarts on the same port: found again, same tree, same tab, and the
    // forced result is set again.
    let generation = g.generation;
    drop(program);
    until(&mut g, "the loss", |g| {
        matches!(g.connection, Connection::Lost(_))
    });
    let _program = Program::start(&py, port, &[]);
    until(&mut g, "the new run", |g| {
        matches!(g.connection, Connection::Connected { .. })
            && status(g, "battery_ok") == Some(Status::Success)
            && status(g, "walk").is_some()
    });
    assert_eq!(
        g.generation, generation,
        "the same tree is not imported again"
    );
}

#[test]
fn the_editor_shows_a_bt_cpp_program_in_a_read_only_tab_drawn_live() {
    let Some(py) = python() else {
        return;
    };
    let port = free_port();
    let _program = Program::start(&py, port, &[]);
    let mut h = Harness::new(Session::default());
    h.app.attach_to(&format!("groot2://127.0.0.1:{port}"), "");
    assert_eq!(h.app.bottom(), Bottom::Groot2);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !(h.app.groot2_is_live()
        && h.app.groot2().is_some_and(|g| {
            g.tree
                .as_ref()
                .is_some_and(|t| t.nodes.keys().any(|u| g.state(*u).is_some()))
        }))
    {
        assert!(
            Instant::now() < deadline,
            "no live tab: {:?}",
            h.app.groot2().map(|g| &g.log)
        );
        h.frame();
        std::thread::sleep(Duration::from_millis(10));
    }
    let session = h.app.session();
    assert!(session
        .read_only_reason()
        .is_some_and(|r| r.contains("BT.CPP")));
    let walk = session
        .document()
        .nodes()
        .find(|n| n.name == "walk")
        .map(|n| n.guid.clone())
        .expect("walk in the tab");
    assert_eq!(
        h.app.tab().error_count(),
        0,
        "the imported tree resolves its subtree"
    );

    // F9 on the selected node sets the breakpoint in the program; it stops there; F5 lets
    // it go on; F9 again clears it.
    h.app
        .set_selection(arbor_editor::document::Selection::of_nodes([walk.clone()]));
    h.act(Action::Breakpoint);
    assert!(h.app.groot2().is_some_and(|g| g.has_breakpoint(&walk)));
    let deadline = Instant::now() + Duration::from_secs(10);
    while h.app.groot2().is_none_or(|g| g.waiting.is_none()) {
        assert!(Instant::now() < deadline, "the breakpoint was not reached");
        h.frame();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.act(Action::PlayPause);
    assert!(
        h.app.groot2().is_some_and(|g| g.waiting.is_none()),
        "F5 continues"
    );
    h.act(Action::Breakpoint);
    assert!(!h.app.groot2().is_some_and(|g| g.has_breakpoint(&walk)));
    h.app.detach();
    assert!(h.app.groot2().is_none());
}

#[test]
fn a_file_logger_log_replays_each_nodes_status_at_every_transition() {
    let Some(py) = python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("run.btlog");
    let port = free_port();
    let mut program = Program::start(&py, port, &["24", path.to_str().expect("utf-8")]);
    let exited = program.0.wait().expect("the program runs to its end");
    assert!(exited.success());
    let log = BtLog::read_file(&path).expect("a readable log");
    assert_eq!(log.truncated, 0);
    let mut replay = Replay::from_btlog("run.btlog", log).expect("the embedded tree imports");
    assert_eq!(
        replay.unknown, 0,
        "every UID in the log is a node of its tree"
    );
    let tree = replay.tree.clone().expect("the log's tree");
    let named = |name: &str| -> String {
        tree.imported
            .files
            .iter()
            .flat_map(|f| f.tree.nodes.iter())
            .find(|n| n.name == name)
            .map(|n| n.guid.clone())
            .unwrap_or_else(|| panic!("no node {name}"))
    };
    let (root, walk, check, pick) = (
        named("patrol"),
        named("walk"),
        named("battery_ok"),
        named("pick"),
    );
    let n = replay.len();
    assert!(n > 50, "{n} transitions");
    // Transition 0: the root starts running, nothing else has run.
    replay.seek(0);
    let first = replay.step_at(0).expect("one").clone();
    assert_eq!(
        (first.node.as_str(), first.state),
        (root.as_str(), NodeState::Running)
    );
    assert_eq!(
        replay.node_live(&root).and_then(|l| l.status),
        Some(Status::Running)
    );
    assert_eq!(replay.node_live(&walk), None);
    // The first time walk succeeds: there it reads success; one transition before,
    // running (it ran for ticks first); the check had failed by then.
    let done = (0..n)
        .find(|i| {
            replay
                .step_at(*i)
                .is_some_and(|s| s.node == walk && s.state == NodeState::Success)
        })
        .expect("walk succeeded in the log");
    replay.seek(done);
    assert_eq!(
        replay.node_live(&walk).and_then(|l| l.status),
        Some(Status::Success)
    );
    assert_eq!(
        replay.node_live(&check).and_then(|l| l.status),
        Some(Status::Failure)
    );
    assert_eq!(replay.node_live(&pick), None, "the subtree has not run yet");
    replay.step(-1);
    assert_eq!(replay.position(), done - 1);
    assert_eq!(
        replay.node_live(&walk).and_then(|l| l.status),
        Some(Status::Running)
    );
    // Later, pick (in the subtree instance) runs.
    replay.seek(n - 1);
    assert!(replay.node_live(&pick).is_some());

    // The editor opens the same file: the log's tree read-only, drawn from the replay.
    let mut h = Harness::new(Session::default());
    h.app.open(&path);
    h.frames(2);
    assert_eq!(h.app.bottom(), Bottom::Replay);
    assert!(h.app.replay_is_live());
    assert!(h.app.session().read_only_reason().is_some());
    assert!(h.app.session().document().nodes().any(|n| n.name == "walk"));
}

#[test]
fn an_arbor_trace_replays_on_the_open_tree_it_names() {
    const TREE: &str = "33333333-3333-4333-8333-000000000000";
    const ROOT: &str = "33333333-3333-4333-8333-000000000001";
    const WAIT: &str = "33333333-3333-4333-8333-000000000002";
    let file = serde_json::json!({
        "format": "arbor-tree", "version": 1, "guid": TREE, "name": "t",
        "root": ROOT,
        "nodes": [
            {"guid": ROOT, "name": "loop", "type": "Sequence", "children": [WAIT]},
            {"guid": WAIT, "name": "wait", "type": "Wait", "params": {"seconds": 0.1}}
        ]
    });
    let doc = arbor_editor::document::io::load_str(&file.to_string(), None).expect("a document");
    let mut h = Harness::new(Session::new(doc));
    let dir = tempfile::tempdir().expect("a temp dir");
    // As `arbor run --trace` prints them: wait runs a tick, then succeeds.
    let trace = [
        serde_json::json!({"tick": 1, "status": "running", "events": [
            {"event": "enter", "node": ROOT, "name": "loop"},
            {"event": "enter", "node": WAIT, "name": "wait"},
            {"event": "tick", "node": WAIT, "name": "wait", "status": "running"},
            {"event": "tick", "node": ROOT, "name": "loop", "status": "running"}]}),
        serde_json::json!({"tick": 2, "status": "success", "events": [
            {"event": "tick", "node": WAIT, "name": "wait", "status": "success"},
            {"event": "exit", "node": WAIT, "name": "wait", "status": "success"},
            {"event": "exit", "node": ROOT, "name": "loop", "status": "success"}]}),
    ]
    .map(|l| l.to_string())
    .join("\n");
    let path = dir.path().join("run.jsonl");
    std::fs::write(&path, trace).expect("written");
    h.app.open(&path);
    h.frames(2);
    assert_eq!(
        h.app.tabs().len(),
        1,
        "replayed on the open tree, no new tab"
    );
    assert!(h.app.replay_is_live());
    let replay = h.app.replay_mut().expect("a replay");
    assert_eq!(replay.len(), 7);
    replay.seek(2);
    assert_eq!(
        replay.node_live(WAIT).and_then(|l| l.status),
        Some(Status::Running)
    );
    replay.seek(6);
    assert_eq!(
        replay.node_live(WAIT).and_then(|l| l.status),
        Some(Status::Success)
    );
    assert_eq!(
        replay.node_live(ROOT).and_then(|l| l.status),
        Some(Status::Success)
    );

    // A trace of another tree is refused, saying why.
    let other = dir.path().join("other.jsonl");
    std::fs::write(
        &other,
        r#"{"tick":1,"events":[{"event":"enter","node":"x","name":"x"}]}"#,
    )
    .expect("written");
    let mut h = Harness::new(Session::default());
    h.app.open(&other);
    h.frame();
    assert!(h.app.replay().is_none());
}

/// A "program" on a free port that speaks ZeroMQ but answers every request with `reply`.
fn fake_server(reply: Vec<Vec<u8>>) -> u16 {
    serve(move |_| reply.clone())
}

/// A ZeroMQ peer on a free port, as a Groot2 publisher binds it: a REP socket answering each
/// request (its frames) with what `respond` gives, and a PUB socket on the next port. It
/// runs until the test process ends.
pub(crate) fn serve(mut respond: impl FnMut(Vec<Vec<u8>>) -> Vec<Vec<u8>> + Send + 'static) -> u16 {
    use zeromq::{Socket, SocketRecv, SocketSend, ZmqMessage};
    let port = free_port();
    let (ready, bound) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let mut rep = zeromq::RepSocket::new();
            rep.bind(&format!("tcp://127.0.0.1:{port}"))
                .await
                .expect("bound");
            let mut publisher = zeromq::PubSocket::new();
            publisher
                .bind(&format!("tcp://127.0.0.1:{}", port + 1))
                .await
                .expect("bound");
            let _ = ready.send(());
            while let Ok(request) = rep.recv().await {
                let frames = request.into_vec().into_iter().map(|b| b.to_vec()).collect();
                let mut parts = respond(frames).into_iter();
                let mut message = ZmqMessage::from(parts.next().unwrap_or_default());
                for part in parts {
                    message.push_back(part.into());
                }
                if rep.send(message).await.is_err() {
                    break;
                }
            }
        });
    });
    bound.recv().expect("the fake server started");
    port
}

#[test]
fn a_program_that_answers_garbage_or_nothing_costs_a_message_not_a_hang() {
    let connect = |port| {
        Groot2::connect(Address {
            host: "127.0.0.1".into(),
            port,
        })
    };
    // Speaks ZeroMQ, but not Groot2.
    let mut g = connect(fake_server(vec![b"hello".to_vec()]));
    until(&mut g, "the complaint", |g| {
        g.log.iter().any(|l| l.contains("not a Groot2 answer"))
            && matches!(g.connection, Connection::Lost(_))
    });
    assert!(g.tree.is_none());
    // A header of the right size for another request: refused as garbage too.
    let mut wrong = vec![2, b'S', 0, 0, 0, 0];
    wrong.extend_from_slice(&[7; 16]);
    let mut g = connect(fake_server(vec![wrong, b"x".to_vec()]));
    until(&mut g, "the complaint", |g| {
        g.log.iter().any(|l| l.contains("not to the request sent"))
    });
    // Nothing listens: the connection is lost, said once, and retried.
    let port = free_port();
    let mut g = connect(port);
    until(&mut g, "the loss", |g| {
        matches!(g.connection, Connection::Lost(_))
    });
    // The same loss is said once however often the retry fails, so nothing is pending:
    // `poll` only takes what is queued and returns with no change.
    let log = g.log.clone();
    assert!(!g.poll(), "an event after the loss; log {:?}", g.log);
    assert_eq!(g.log, log);
    // Not ZeroMQ at all: a server that writes junk and hangs up.
    let listener = TcpListener::bind("127.0.0.1:0").expect("bound");
    let junk = listener.local_addr().expect("an address").port();
    std::thread::spawn(move || {
        for mut s in listener.incoming().take(3).flatten() {
            use std::io::Write as _;
            let _ = s.write_all(&[0xff; 64]);
        }
    });
    let mut g = connect(junk);
    until(&mut g, "the loss", |g| {
        matches!(g.connection, Connection::Lost(_))
    });
    assert!(g.tree.is_none());
}

/// A trace `arbor run --trace` really printed (runtime/tests/data/cli/counting.json, three
/// ticks with target20.json) replays on that tree.
#[test]
fn a_trace_printed_by_arbor_run_replays_on_its_tree() {
    let tree = workspace().join("runtime/tests/data/cli/counting.json");
    let session = Session::open(&tree).expect("the counting tree");
    let root = session
        .document()
        .root()
        .map(str::to_owned)
        .expect("a root");
    let mut h = Harness::new(session);
    h.app
        .open(&workspace().join("editor/tests/data/groot2/counting.trace.jsonl"));
    h.frame();
    assert!(h.app.replay_is_live());
    let replay = h.app.replay_mut().expect("a replay");
    assert!(replay.len() > 10, "{} steps", replay.len());
    replay.seek(0);
    assert_eq!(
        replay.node_live(&root).and_then(|l| l.status),
        Some(Status::Running)
    );
    // The root succeeds in tick 1 (the count reaches 20) and fails in ticks 2 and 3.
    let end_of_first = (0..replay.len())
        .rev()
        .find(|i| replay.step_at(*i).is_some_and(|s| s.at == 1.0))
        .expect("tick 1");
    replay.seek(end_of_first);
    assert_eq!(
        replay.node_live(&root).and_then(|l| l.status),
        Some(Status::Success)
    );
    let last = replay.len() - 1;
    replay.seek(last);
    assert_eq!(
        replay.node_live(&root).and_then(|l| l.status),
        Some(Status::Failure)
    );
}
