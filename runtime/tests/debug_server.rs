//! The debug server (feature `debug-server`) against a plain `TcpStream` client speaking
//! docs/debug-protocol.md: handshake and token, listing, `tree`, tick frames, pause, step,
//! breakpoints, blackboard writes, bad input, and a client that stops reading.
//!
//! Every test starts its own server on `127.0.0.1:0`, so they run in parallel, and every
//! read has a timeout, so a broken server fails a test instead of hanging it.

use std::io::{BufReader, ErrorKind, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbor_runtime::debug::{
    is_timeout, DebugConfig, DebugError, DebugServer, Framed, Instance, LineReader, MAX_LINE,
};
use arbor_runtime::format::TreeFile;
use arbor_runtime::{parse_str, Agent, NodeType, Registry, Status};
use serde_json::{json, Value};

/// Generous: CI machines are slow, and a passing test never waits this long.
const TIMEOUT: Duration = Duration::from_secs(10);

const ROOT: &str = "0d5e0000-0000-4000-8000-000000000001";
const INC: &str = "0d5e0000-0000-4000-8000-000000000002";
const WORK: &str = "0d5e0000-0000-4000-8000-000000000003";

/// The host's data: how many times the `Work` action really ran.
#[derive(Default)]
struct Data {
    worked: u64,
}

/// `Sequence[Increment count, Work]`: every tick changes `count` and runs `Work` once.
fn tree_file() -> TreeFile {
    let text = json!({
        "format": "arbor-tree", "version": 1,
        "guid": "0d5e0000-0000-4000-8000-000000000000", "name": "Worker",
        "blackboard": [
            {"key": "count", "type": "int", "default": 0},
            {"key": "mood", "type": "string", "default": "calm"},
            {"key": "speed", "type": "float", "default": 1.5}
        ],
        "root": ROOT,
        "nodes": [
            {"guid": ROOT, "name": "root", "type": "Sequence", "children": [INC, WORK]},
            {"guid": INC, "name": "count", "type": "Increment", "params": {"key": "count"}},
            {"guid": WORK, "name": "work", "type": "Work"}
        ]
    })
    .to_string();
    parse_str(&text, None).expect("the test tree parses")
}

fn agent(file: &TreeFile) -> Agent<Data> {
    let mut registry = Registry::<Data>::new();
    registry.action(NodeType::action("Work", "Counts."), |cx| {
        cx.agent.worked += 1;
        Status::Success
    });
    let tree = registry
        .loader()
        .load_tree(file, None)
        .expect("the test tree compiles");
    Agent::new(Arc::new(tree), 1)
}

fn server() -> DebugServer {
    DebugServer::start(DebugConfig::new("127.0.0.1:0")).expect("a loopback server starts")
}

/// A registered agent with its data and handle.
struct Host {
    agent: Agent<Data>,
    data: Data,
    handle: Instance,
}

impl Host {
    fn new(server: &DebugServer, name: &str) -> Host {
        let file = tree_file();
        let agent = agent(&file);
        let handle = server.register(name, &agent, &file);
        Host {
            agent,
            data: Data::default(),
            handle,
        }
    }

    fn tick(&mut self) -> Option<Status> {
        self.handle.tick(&mut self.agent, &mut self.data, 0.1)
    }

    fn id(&self) -> u64 {
        self.handle.id()
    }
}

/// A line-oriented client with timeouts, reading through the protocol's own framing
/// (`LineReader` keeps partial lines across timed-out reads) and writing JSON by hand, so
/// the messages are checked as docs/debug-protocol.md writes them.
struct Client {
    reader: LineReader<BufReader<TcpStream>>,
    writer: TcpStream,
}

impl Client {
    fn connect_raw(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_millis(50)))
            .expect("read timeout");
        let writer = stream.try_clone().expect("clones");
        Client {
            reader: LineReader::new(BufReader::new(stream)),
            writer,
        }
    }

    /// Connects and completes the handshake.
    fn connect(addr: SocketAddr) -> Client {
        let mut client = Client::connect_raw(addr);
        let hello = client.recv();
        assert_eq!(hello["type"], "hello", "{hello}");
        client.send(json!({"type": "hello", "protocol": 1, "client": "test"}));
        client.expect("welcome");
        client
    }

    fn send(&mut self, message: Value) {
        self.send_raw(format!("{message}\n").as_bytes());
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("sends");
    }

    /// The next message within `wait`; `None` on timeout. Panics on EOF.
    fn try_recv(&mut self, wait: Duration) -> Option<Value> {
        match self.next_line(wait) {
            Line::Message(v) => Some(v),
            Line::Timeout => None,
            Line::Eof => panic!("the server closed the connection"),
        }
    }

    fn next_line(&mut self, wait: Duration) -> Line {
        let deadline = Instant::now() + wait;
        loop {
            match self.reader.read() {
                Ok(Framed::Line(line)) => {
                    return Line::Message(serde_json::from_slice(line).expect("server sends JSON"))
                }
                Ok(Framed::Eof) => return Line::Eof,
                Ok(Framed::TooLong) => panic!("the server sent a line over the limit"),
                Err(e) if is_timeout(&e) => {}
                Err(e) if e.kind() == ErrorKind::ConnectionReset => return Line::Eof,
                Err(e) => panic!("read failed: {e}"),
            }
            if Instant::now() >= deadline {
                return Line::Timeout;
            }
        }
    }

    fn recv(&mut self) -> Value {
        self.try_recv(TIMEOUT)
            .expect("a message within the timeout")
    }

    /// Reads until a message of type `ty`, skipping unasked `instances` listings.
    fn expect(&mut self, ty: &str) -> Value {
        self.expect_past(ty, &["instances"])
    }

    /// Reads until a message of type `ty`, skipping unasked messages of the `skip` types.
    fn expect_past(&mut self, ty: &str, skip: &[&str]) -> Value {
        loop {
            let message = self.recv();
            if message["type"] == ty {
                return message;
            }
            assert!(
                skip.iter().any(|s| message["type"] == *s) && message.get("id").is_none(),
                "expected `{ty}`, got {message}"
            );
        }
    }

    /// Sends a request and returns its reply (matched by `id`).
    fn request(&mut self, mut message: Value, id: u64) -> Value {
        message["id"] = json!(id);
        self.send(message);
        loop {
            let reply = self.recv();
            if reply.get("id") == Some(&json!(id)) {
                return reply;
            }
            assert!(
                matches!(
                    reply["type"].as_str(),
                    Some("instances" | "paused" | "resumed" | "tick")
                ),
                "unexpected {reply}"
            );
        }
    }

    fn ok(&mut self, message: Value, id: u64) {
        let reply = self.request(message, id);
        assert_eq!(reply["type"], "ok", "{reply}");
    }

    fn error_code(&mut self, message: Value, id: u64) -> String {
        let reply = self.request(message, id);
        assert_eq!(reply["type"], "error", "{reply}");
        reply["code"].as_str().expect("a code").to_owned()
    }

    /// True once the server has closed the connection (within the timeout).
    fn closed(&mut self) -> bool {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            match self.next_line(Duration::from_millis(100)) {
                Line::Eof => return true,
                Line::Message(_) | Line::Timeout => {}
            }
        }
        false
    }
}

enum Line {
    Message(Value),
    Timeout,
    Eof,
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn handshake_greets_and_welcomes() {
    let server = server();
    let mut client = Client::connect_raw(server.local_addr());
    let hello = client.recv();
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["protocol"], 1);
    assert_eq!(hello["auth"], "none");
    assert!(hello["server"]
        .as_str()
        .is_some_and(|s| s.starts_with("arbor-runtime ")));
    client.send(json!({"type": "hello", "protocol": 1, "client": "test 0.1"}));
    assert_eq!(client.recv(), json!({"type": "welcome"}));
}

#[test]
fn requests_before_the_handshake_are_refused() {
    let server = server();
    let mut client = Client::connect_raw(server.local_addr());
    client.expect("hello");
    assert_eq!(client.error_code(json!({"type": "list"}), 1), "protocol");
    client.send(json!({"type": "hello", "protocol": 1}));
    client.expect("welcome");
    assert_eq!(
        client.request(json!({"type": "list"}), 2)["type"],
        "instances"
    );
}

#[test]
fn unsupported_protocol_versions_are_refused_and_closed() {
    let server = server();
    let mut client = Client::connect_raw(server.local_addr());
    client.expect("hello");
    assert_eq!(
        client.error_code(json!({"type": "hello", "protocol": 2}), 1),
        "protocol"
    );
    assert!(client.closed());
}

#[test]
fn a_configured_token_is_required() {
    let server =
        DebugServer::start(DebugConfig::new("127.0.0.1:0").token("s3cret")).expect("starts");
    for token in [None, Some("wrong"), Some("s3cre")] {
        let mut client = Client::connect_raw(server.local_addr());
        assert_eq!(client.expect("hello")["auth"], "token");
        let mut hello = json!({"type": "hello", "protocol": 1});
        if let Some(token) = token {
            hello["token"] = json!(token);
        }
        assert_eq!(client.error_code(hello, 1), "auth", "token {token:?}");
        assert!(client.closed(), "token {token:?}");
    }
    let mut client = Client::connect_raw(server.local_addr());
    client.expect("hello");
    client.send(json!({"type": "hello", "protocol": 1, "token": "s3cret"}));
    client.expect("welcome");
}

#[test]
fn non_loopback_addresses_need_opt_in_and_token() {
    let refused = DebugServer::start(DebugConfig::new("0.0.0.0:0"));
    assert!(matches!(refused, Err(DebugError::RemoteNotAllowed { .. })));
    let refused = DebugServer::start(DebugConfig::new("0.0.0.0:0").allow_remote(true));
    assert!(matches!(
        refused,
        Err(DebugError::RemoteWithoutToken { .. })
    ));
    let server = DebugServer::start(
        DebugConfig::new("0.0.0.0:0")
            .allow_remote(true)
            .token("s3cret"),
    )
    .expect("opted in, with a token");
    assert!(server.local_addr().ip().is_unspecified());
}

#[test]
fn instances_are_listed_on_request_and_when_they_change() {
    let server = server();
    let mut first = Host::new(&server, "villager #1");
    first.tick();
    let mut client = Client::connect(server.local_addr());
    // With no client connected the host does not publish its tick count: only from the
    // first tick call after a client connected (docs/debug-protocol.md, `instances`).
    first.tick();
    let listing = client.request(json!({"type": "list"}), 7);
    assert_eq!(listing["type"], "instances");
    assert_eq!(
        listing["instances"],
        json!([{
            "instance": first.id(), "name": "villager #1",
            "tree": {"guid": "0d5e0000-0000-4000-8000-000000000000", "name": "Worker"},
            "paused": false, "ticks": 2
        }])
    );

    let second = Host::new(&server, "villager #2");
    let unasked = client.recv();
    assert_eq!(unasked["type"], "instances");
    assert!(unasked.get("id").is_none(), "{unasked}");
    let names: Vec<&str> = unasked["instances"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|i| i["name"].as_str())
        .collect();
    assert_eq!(names, ["villager #1", "villager #2"]);
    assert_ne!(second.id(), first.id());

    drop(first);
    let unasked = client.recv();
    assert_eq!(unasked["type"], "instances");
    assert_eq!(unasked["instances"].as_array().map(Vec::len), Some(1));
    assert_eq!(unasked["instances"][0]["instance"], second.id());
}

#[test]
fn tree_replies_with_the_registered_file() {
    let server = server();
    let host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    let reply = client.request(json!({"type": "tree", "instance": host.id()}), 2);
    assert_eq!(reply["type"], "tree");
    assert_eq!(reply["instance"], host.id());
    let expected = serde_json::to_value(tree_file()).expect("serialises");
    assert_eq!(reply["file"], expected);
    assert_eq!(
        reply["file"]["guid"],
        "0d5e0000-0000-4000-8000-000000000000"
    );
    let code = client.error_code(json!({"type": "tree", "instance": 999}), 3);
    assert_eq!(code, "unknown_instance");
}

#[test]
fn subscribers_get_a_frame_per_tick() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    client.ok(json!({"type": "subscribe", "instances": [host.id()]}), 1);

    for _ in 0..3 {
        assert_eq!(host.tick(), Some(Status::Success));
    }
    let first = client.expect("tick");
    assert_eq!(first["instance"], host.id());
    assert_eq!(first["tick"], 1);
    assert_eq!(first["status"], "success");
    assert!((first["time"].as_f64().expect("a time") - 0.1).abs() < 1e-9);
    assert_eq!(
        first["nodes"],
        json!([[ROOT, "success"], [INC, "success"], [WORK, "success"]])
    );
    assert_eq!(
        first["blackboard"],
        json!({"count": 1, "mood": "calm", "speed": 1.5}),
        "the first frame carries every key"
    );
    let second = client.expect("tick");
    assert_eq!(second["tick"], 2);
    assert_eq!(
        second["blackboard"],
        json!({"count": 2}),
        "then only changes"
    );
    assert_eq!(client.expect("tick")["tick"], 3);

    // Host writes between ticks show up as changes too.
    let mood = host.agent.blackboard().key("mood").expect("declared");
    host.agent
        .blackboard_mut()
        .set(mood, "grumpy")
        .expect("a string");
    host.tick();
    let fourth = client.expect("tick");
    assert_eq!(fourth["blackboard"], json!({"count": 4, "mood": "grumpy"}));

    client.ok(json!({"type": "unsubscribe", "instances": [host.id()]}), 2);
    host.tick();
    assert_eq!(client.try_recv(Duration::from_millis(300)), None);
    let code = client.error_code(
        json!({"type": "subscribe", "instances": [host.id(), 999]}),
        3,
    );
    assert_eq!(code, "unknown_instance");
}

#[test]
fn pause_stops_ticking_and_step_runs_exactly_one_tick() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    host.tick();
    client.ok(json!({"type": "pause", "instance": host.id()}), 1);
    let paused = client.expect("paused");
    assert_eq!(
        paused,
        json!({"type": "paused", "instance": host.id(), "reason": "request", "tick": 1})
    );
    for _ in 0..5 {
        assert_eq!(
            host.tick(),
            None,
            "paused: the tick call returns without ticking"
        );
    }
    assert_eq!((host.agent.ticks(), host.data.worked), (1, 1));
    assert!(host.handle.is_paused());
    let listing = client.request(json!({"type": "list"}), 2);
    assert_eq!(listing["instances"][0]["paused"], true);

    client.ok(json!({"type": "step", "instance": host.id()}), 3);
    assert_eq!(host.tick(), Some(Status::Success));
    let stepped = client.expect("paused");
    assert_eq!(
        (stepped["reason"].as_str(), stepped["tick"].as_u64()),
        (Some("step"), Some(2))
    );
    assert_eq!(host.tick(), None, "paused again after the step");
    assert_eq!((host.agent.ticks(), host.data.worked), (2, 2));

    client.ok(json!({"type": "resume", "instance": host.id()}), 4);
    assert_eq!(
        client.expect("resumed"),
        json!({"type": "resumed", "instance": host.id()})
    );
    assert_eq!(host.tick(), Some(Status::Success));
    assert_eq!(host.tick(), Some(Status::Success));
    assert_eq!(host.agent.ticks(), 4);
    assert!(!host.handle.is_paused());
}

#[test]
fn a_breakpoint_pauses_after_the_tick_that_entered_its_node() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    let code = client.error_code(
        json!({"type": "breakpoint", "instance": host.id(), "node": "nope", "set": true}),
        1,
    );
    assert_eq!(code, "unknown_node");
    client.ok(
        json!({"type": "breakpoint", "instance": host.id(), "node": WORK, "set": true}),
        2,
    );
    assert_eq!(host.tick(), Some(Status::Success), "the tick completes");
    assert_eq!(host.data.worked, 1);
    let paused = client.expect("paused");
    assert_eq!(
        paused,
        json!({"type": "paused", "instance": host.id(), "reason": "breakpoint", "node": WORK, "tick": 1})
    );
    assert_eq!(host.tick(), None);

    client.ok(
        json!({"type": "breakpoint", "instance": host.id(), "node": WORK, "set": false}),
        3,
    );
    client.ok(json!({"type": "resume", "instance": host.id()}), 4);
    client.expect("resumed");
    for _ in 0..3 {
        assert_eq!(host.tick(), Some(Status::Success));
    }
    assert_eq!(host.data.worked, 4);
    assert_eq!(
        client.try_recv(Duration::from_millis(200)),
        None,
        "no more pauses"
    );
}

#[test]
fn set_writes_the_blackboard_at_the_next_tick() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    let id = host.id();
    client.ok(
        json!({"type": "set", "instance": id, "key": "count", "value": 41}),
        1,
    );
    client.ok(
        json!({"type": "set", "instance": id, "key": "mood", "value": "happy"}),
        2,
    );
    client.ok(
        json!({"type": "set", "instance": id, "key": "speed", "value": null}),
        3,
    );
    host.tick();
    let bb = host.agent.blackboard();
    let key = |name| bb.key(name).expect("declared");
    assert_eq!(bb.get_i64(key("count")), Some(42), "41, then Increment");
    assert_eq!(bb.get_str(key("mood")), Some("happy"));
    assert_eq!(bb.get(key("speed")), None, "null clears the key");

    let bad = client.request(
        json!({"type": "set", "instance": id, "key": "count", "value": "many"}),
        4,
    );
    assert_eq!(
        (bad["type"].as_str(), bad["code"].as_str()),
        (Some("error"), Some("bad_value"))
    );
    assert!(
        bad["message"].as_str().is_some_and(|m| m.contains("count")),
        "{bad}"
    );
    let code = client.error_code(
        json!({"type": "set", "instance": id, "key": "nope", "value": 1}),
        5,
    );
    assert_eq!(code, "unknown_key");
    let code = client.error_code(
        json!({"type": "set", "instance": 999, "key": "count", "value": 1}),
        6,
    );
    assert_eq!(code, "unknown_instance");
    let count = key("count");
    host.tick();
    assert_eq!(
        host.agent.blackboard().get_i64(count),
        Some(43),
        "bad writes change nothing"
    );
}

#[test]
fn malformed_messages_get_errors_and_the_connection_stays_usable() {
    let server = server();
    let mut client = Client::connect(server.local_addr());
    client.send_raw(b"{nope\n");
    let error = client.recv();
    assert_eq!(
        (error["type"].as_str(), error["code"].as_str()),
        (Some("error"), Some("bad_request"))
    );
    client.send_raw(b"[1, 2]\n");
    assert_eq!(client.recv()["code"], "bad_request");
    assert_eq!(client.error_code(json!({"type": "fly"}), 3), "unknown_type");
    assert_eq!(
        client.error_code(json!({"type": "pause"}), 4),
        "bad_request"
    );
    assert_eq!(
        client.error_code(json!({"type": "pause", "instance": "one"}), 5),
        "bad_request"
    );
    let listing = client.request(json!({"type": "list", "extra": "ignored"}), 6);
    assert_eq!(listing["type"], "instances");
}

#[test]
fn an_over_long_line_closes_only_that_connection() {
    let logged = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = logged.clone();
    let server = DebugServer::start(DebugConfig::new("127.0.0.1:0").log(move |line| {
        sink.lock().expect("log lock").push(line.to_owned());
    }))
    .expect("starts");
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    let mut line = vec![b'x'; MAX_LINE + (1 << 19)];
    line.push(b'\n');
    client.send_raw(&line);
    let error = client.expect("error");
    assert_eq!(error["code"], "line_too_long");
    assert!(client.closed());
    wait_until("the server logs it", || {
        logged
            .lock()
            .expect("log lock")
            .iter()
            .any(|l| l.contains("longer than"))
    });

    assert_eq!(host.tick(), Some(Status::Success), "the host is unaffected");
    let mut other = Client::connect(server.local_addr());
    assert_eq!(
        other.request(json!({"type": "list"}), 1)["instances"][0]["instance"],
        host.id()
    );
    wait_until("the closed client is gone", || server.clients() == 1);
}

#[test]
fn a_client_that_stops_reading_never_stalls_the_host() {
    let server = DebugServer::start(DebugConfig::new("127.0.0.1:0").queue(16)).expect("starts");
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    client.ok(json!({"type": "subscribe", "instances": [host.id()]}), 1);

    // The client reads nothing while the host ticks flat out: every tick returns (a host
    // that waited for the client would block here), and the frames that did not fit the
    // client's queue are dropped, which the client is told below.
    for _ in 0..200_000 {
        host.tick();
    }
    assert_eq!(host.agent.ticks(), 200_000);

    // Reading again, the client learns what it missed while the host keeps ticking.
    let deadline = Instant::now() + TIMEOUT;
    let mut ticking_until = |ty: &str| loop {
        assert!(Instant::now() < deadline, "no `{ty}` message");
        host.tick();
        if let Some(message) = client.try_recv(Duration::from_millis(5)) {
            if message["type"] == ty {
                break message;
            }
        }
    };
    let dropped = ticking_until("dropped");
    assert!(
        dropped["frames"].as_u64().is_some_and(|n| n > 0),
        "{dropped}"
    );

    // The frames it missed carried changes it never saw: the next one carries every key
    // (`mood` and `speed` never change, so only a full frame has them).
    let frame = ticking_until("tick");
    assert_eq!(frame["blackboard"]["mood"], "calm", "{frame}");
    assert_eq!(frame["blackboard"]["speed"], 1.5, "{frame}");
    assert_eq!(dropped["instance"], host.id());
}

#[test]
fn disconnecting_clients_are_forgotten() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    {
        let mut client = Client::connect(server.local_addr());
        client.ok(json!({"type": "subscribe", "instances": [host.id()]}), 1);
        assert_eq!(server.clients(), 1);
    }
    wait_until("the client is gone", || server.clients() == 0);
    for _ in 0..10 {
        assert_eq!(host.tick(), Some(Status::Success));
    }
}

#[test]
fn dropping_the_server_closes_every_connection() {
    let server = server();
    let host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    // Dropping returns once the server's threads have ended; the client sees the close.
    drop(server);
    assert!(client.closed());
    drop(host);
}

#[test]
fn step_on_a_running_instance_pauses_it_after_one_tick() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    client.ok(json!({"type": "step", "instance": host.id()}), 1);
    assert_eq!(host.tick(), Some(Status::Success));
    let paused = client.expect("paused");
    assert_eq!(
        (paused["reason"].as_str(), paused["tick"].as_u64()),
        (Some("step"), Some(1))
    );
    assert_eq!(host.tick(), None);
    assert_eq!(host.agent.ticks(), 1);
}

#[test]
fn handles_and_servers_can_move_to_other_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Instance>();
    send_and_sync::<DebugServer>();
}

// ---- Deadlines, idle clients, what a disconnect releases, refusal logging ----

#[test]
fn trickled_bytes_do_not_extend_the_hello_deadline() {
    let server = DebugServer::start(
        DebugConfig::new("127.0.0.1:0").hello_timeout(Duration::from_millis(400)),
    )
    .expect("starts");
    let mut client = Client::connect_raw(server.local_addr());
    assert_eq!(client.recv()["type"], "hello");
    let hello = b"{\"type\":\"hello\",\"protocol\":1,\"client\":\"slow\"}\n";
    let mut sent = 0;
    let mut refused = None;
    // One byte per 100 ms: the whole hello would take 4.6 s.
    for byte in hello {
        let _ = client.writer.write_all(&[*byte]);
        sent += 1;
        match client.next_line(Duration::from_millis(100)) {
            Line::Message(m) => refused = Some(m),
            Line::Eof => break,
            Line::Timeout => {}
        }
    }
    assert!(sent < hello.len(), "closed before the hello was complete");
    let refused = refused.expect("an error before closing");
    assert_eq!(refused["message"], "no `hello` in time", "{refused}");
}

#[test]
fn idle_clients_subscribed_to_nothing_are_disconnected_but_watchers_stay() {
    let server = DebugServer::start(
        DebugConfig::new("127.0.0.1:0").idle_timeout(Duration::from_millis(300)),
    )
    .expect("starts");
    let host = Host::new(&server, "worker");
    let mut watcher = Client::connect(server.local_addr());
    watcher.ok(json!({"type": "subscribe", "instances": [host.id()]}), 1);
    let mut idle = Client::connect(server.local_addr());
    assert!(idle.closed(), "an idle client is disconnected");
    std::thread::sleep(Duration::from_millis(900));
    // Three idle timeouts later the subscribed client is still served.
    let listing = watcher.request(json!({"type": "list"}), 2);
    assert_eq!(listing["type"], "instances", "{listing}");
}

#[test]
fn a_pause_is_released_when_the_client_holding_it_disconnects() {
    let server = server();
    let mut host = Host::new(&server, "worker");
    let mut other = Client::connect(server.local_addr());
    {
        let mut pauser = Client::connect(server.local_addr());
        pauser.ok(json!({"type": "pause", "instance": host.id()}), 1);
        assert_eq!(host.tick(), None);
    }
    // The other client hears that it runs again.
    assert_eq!(
        other.expect_past("resumed", &["instances", "paused"]),
        json!({"type": "resumed", "instance": host.id()})
    );
    assert_eq!(host.tick(), Some(Status::Success));

    // With no client left, breakpoint pauses are released too.
    other.ok(
        json!({"type": "breakpoint", "instance": host.id(), "node": WORK, "set": true}),
        2,
    );
    host.tick();
    assert!(host.handle.is_paused(), "the breakpoint paused it");
    drop(other);
    wait_until("the pause is released", || !host.handle.is_paused());
    for _ in 0..3 {
        assert_eq!(
            host.tick(),
            Some(Status::Success),
            "and no breakpoint is left"
        );
    }
}

#[test]
fn refused_connections_are_logged_at_most_once_per_interval() {
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = lines.clone();
    let server = DebugServer::start(
        DebugConfig::new("127.0.0.1:0")
            .max_clients(1)
            .log(move |line| log.lock().expect("log").push(line.to_owned())),
    )
    .expect("starts");
    let _first = Client::connect(server.local_addr());
    for _ in 0..30 {
        let mut refused = Client::connect_raw(server.local_addr());
        let _ = refused.closed();
    }
    let refusals = lines
        .lock()
        .expect("log")
        .iter()
        .filter(|l| l.contains("refused"))
        .count();
    assert_eq!(refusals, 1, "{:?}", lines.lock().expect("log"));
}

#[test]
fn replies_a_client_does_not_read_are_bounded_in_bytes_and_end_its_connection() {
    const BOUND: usize = 2 << 20;
    let server =
        DebugServer::start(DebugConfig::new("127.0.0.1:0").queue_bytes(BOUND)).expect("starts");
    let file = tree_file();
    let agent = agent(&file);
    // A tree file of about 1 MiB: each `tree` reply carries all of it.
    let big = json!({"name": "big", "padding": "x".repeat(1 << 20)});
    let handle = server.register_json("big", &agent, big);
    let mut client = Client::connect(server.local_addr());

    // 100 requests of a few dozen bytes, and no reading: about 100 MiB of replies, far
    // more than the sockets buffer, so the server's queue for this client fills up.
    let request = format!("{}\n", json!({"type": "tree", "instance": handle.id()}));
    client.send_raw(request.repeat(100).as_bytes());
    wait_until("the server gives the client up", || server.clients() == 0);
    let peak = server.peak_queue_bytes();
    assert!(peak > 0);
    assert!(
        peak <= BOUND,
        "the queue held {peak} bytes; the bound is {BOUND}"
    );

    // What was queued still arrives, then the reason, then the end of the connection.
    let mut trees = 0;
    let mut last = Value::Null;
    loop {
        match client.next_line(TIMEOUT) {
            Line::Message(m) => {
                if m["type"] == "tree" {
                    trees += 1;
                }
                last = m;
            }
            Line::Eof => break,
            Line::Timeout => panic!("the connection stays open"),
        }
    }
    assert!(trees < 100, "every reply was queued");
    assert_eq!(last["type"], "error", "{last}");
    assert_eq!(last["code"], "busy", "{last}");
}

#[test]
fn blackboard_writes_waiting_for_the_host_are_bounded_in_bytes() {
    let server =
        DebugServer::start(DebugConfig::new("127.0.0.1:0").pending_writes(4096)).expect("starts");
    let mut host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    let id = host.id();
    let mood = "m".repeat(1000);
    let set = json!({"type": "set", "instance": id, "key": "mood", "value": mood});
    // The host does not tick: the writes wait, up to the bound.
    let replies: Vec<String> = (1..=10)
        .map(|n| {
            let reply = client.request(set.clone(), n);
            match reply["type"].as_str() {
                Some("ok") => "ok".to_owned(),
                _ => reply["code"].as_str().unwrap_or("?").to_owned(),
            }
        })
        .collect();
    assert_eq!(replies[..3], ["ok", "ok", "ok"], "{replies:?}");
    assert!(replies[3..].iter().all(|r| r == "busy"), "{replies:?}");
    // The host's tick applies them and makes room again.
    host.tick();
    let key = host.agent.blackboard().key("mood").expect("declared");
    assert_eq!(host.agent.blackboard().get_str(key), Some(mood.as_str()));
    client.ok(set, 11);
}

#[test]
fn a_repeated_key_in_a_request_is_refused_with_its_id() {
    let server = server();
    let host = Host::new(&server, "worker");
    let mut client = Client::connect(server.local_addr());
    client.send_raw(
        format!(
            "{{\"id\": 7, \"type\": \"set\", \"instance\": {}, \"key\": \"count\", \"value\": 1, \"value\": 2}}\n",
            host.id()
        )
        .as_bytes(),
    );
    let reply = client.recv();
    assert_eq!(reply["code"], "bad_request", "{reply}");
    assert_eq!(reply["id"], 7, "{reply}");
    assert!(
        reply["message"]
            .as_str()
            .is_some_and(|m| m.contains("duplicate key `value` in $")),
        "{reply}"
    );
}
