//! Test helpers: write trees as nested JSON (easy to read), turn them into the flat file
//! format with deterministic GUIDs, tick them, and render traces with node names.
#![allow(dead_code)]

use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, LoadError, Recorded, Recorder, Status};
use serde_json::{json, Map, Value};

/// The deterministic GUID number `n`.
pub fn guid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

/// Flattens a nested node (`{"type", "name"?, "guid"?, "params"?, "decorators"?, "children"?}`) into
/// a tree file with the given blackboard declarations. Names default to the type.
pub fn tree_json(root: Value, blackboard: Value) -> Value {
    let mut nodes = Vec::new();
    let mut counter = 1;
    let root = flatten(&root, &mut nodes, &mut counter);
    json!({
        "format": "arbor-tree",
        "version": 1,
        "guid": guid(0),
        "name": "test",
        "blackboard": blackboard,
        "root": root,
        "nodes": nodes,
    })
}

fn flatten(node: &Value, out: &mut Vec<Value>, counter: &mut usize) -> String {
    // A node may name its GUID (a tree edited between versions keeps its nodes' GUIDs);
    // the count goes on either way, so the other nodes' GUIDs do not move.
    let id = match node.get("guid").and_then(Value::as_str) {
        Some(g) => g.to_owned(),
        None => guid(*counter),
    };
    *counter += 1;
    let index = out.len();
    let kind = node["type"].as_str().unwrap_or("?").to_owned();
    let mut def = Map::new();
    def.insert("guid".into(), json!(id));
    def.insert(
        "name".into(),
        node.get("name").cloned().unwrap_or(json!(kind)),
    );
    def.insert("type".into(), json!(kind));
    if let Some(enabled) = node.get("enabled") {
        def.insert("enabled".into(), enabled.clone());
    }
    if let Some(p) = node.get("params") {
        def.insert("params".into(), p.clone());
    }
    if let Some(ds) = node.get("decorators").and_then(Value::as_array) {
        let ds: Vec<Value> = ds
            .iter()
            .map(|d| {
                let g = guid(*counter);
                *counter += 1;
                let mut d = d.as_object().cloned().unwrap_or_default();
                d.insert("guid".into(), json!(g));
                let kind = d.get("type").cloned().unwrap_or(json!(""));
                d.entry("name").or_insert(kind);
                Value::Object(d)
            })
            .collect();
        def.insert("decorators".into(), json!(ds));
    }
    out.push(Value::Object(def));
    if let Some(children) = node.get("children").and_then(Value::as_array) {
        let ids: Vec<String> = children.iter().map(|c| flatten(c, out, counter)).collect();
        out[index]["children"] = json!(ids);
    }
    id
}

/// Compiles a nested tree with built-in nodes only.
pub fn compile(root: Value, blackboard: Value) -> Arc<CompiledTree<()>> {
    match load_text(&tree_json(root, blackboard).to_string()) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// Loads a nested tree with built-in nodes only, returning the loader's verdict.
pub fn try_compile(root: Value, blackboard: Value) -> Result<CompiledTree<()>, LoadError> {
    load_text(&tree_json(root, blackboard).to_string())
}

/// Every tree the helpers compile goes through here: dumped when `ARBOR_DUMP_TREES` names
/// a folder (runtime/codegen-semantics generates code from the dump), then loaded by the
/// engine this test binary runs (`crate::engine_under_test`: the interpreter here, generated
/// code in runtime/codegen-semantics), so the same test bodies check both engines.
fn load_text(text: &str) -> Result<CompiledTree<()>, LoadError> {
    if let Some(dir) = std::env::var_os("ARBOR_DUMP_TREES") {
        let path = std::path::Path::new(&dir).join(format!("{}.json", tree_hash(text)));
        if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, text)) {
            panic!("ARBOR_DUMP_TREES: cannot write {}: {e}", path.display());
        }
    }
    crate::engine_under_test::load(text)
}

/// The name a tree's text is dumped and looked up under: FNV-1a 64 of its bytes, 16 hex
/// digits (stable across runs and platforms, unlike `DefaultHasher`).
pub fn tree_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// An agent on a nested tree with the given RNG seed.
pub fn agent_seeded(root: Value, blackboard: Value, seed: u64) -> Agent<()> {
    Agent::new(compile(root, blackboard), seed)
}

/// An agent on a nested tree, seeded 1.
pub fn agent(root: Value, blackboard: Value) -> Agent<()> {
    Agent::new(compile(root, blackboard), 1)
}

/// An agent on a nested tree written as format version 2, whose parameters may be bound
/// to keys (`{"$key": …}`, rule 47), seeded `seed`.
pub fn agent_v2(root: Value, blackboard: Value, seed: u64) -> Agent<()> {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    match load_text(&file.to_string()) {
        Ok(tree) => Agent::new(Arc::new(tree), seed),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// An agent on a nested tree written as format version 3, whose nodes may be switched
/// off (`"enabled": false`, rule 79), seeded 1.
pub fn agent_v3(root: Value, blackboard: Value) -> Agent<()> {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(3);
    match load_text(&file.to_string()) {
        Ok(tree) => Agent::new(Arc::new(tree), 1),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// One tick with dt = 1: the root's status and the trace as `enter A`, `tick A success`,
/// `exit A success`, `abort A`, `exit A aborted`, `check A#0 true` strings.
pub fn step(agent: &mut Agent<()>) -> (Status, Vec<String>) {
    let mut rec = Recorder::default();
    let status = agent.tick_traced(&mut (), 1.0, &mut rec);
    (status, render(agent.tree(), &rec))
}

/// One host tick with time step `dt` (rule 2): the clock advances, `inputs` applies the
/// host's inputs for this tick (blackboard writes, events, triggers) at the new `now`, then
/// the root is ticked once. Returns the root's status and the full trace.
pub fn step_with(
    agent: &mut Agent<()>,
    dt: f64,
    inputs: impl FnOnce(&mut Agent<()>),
) -> (Status, Vec<String>) {
    agent.advance(dt);
    inputs(agent);
    let mut rec = Recorder::default();
    let status = agent.run_traced(&mut (), &mut rec);
    (status, render(agent.tree(), &rec))
}

/// One tick with time step `dt` and no host inputs.
pub fn step_dt(agent: &mut Agent<()>, dt: f64) -> (Status, Vec<String>) {
    step_with(agent, dt, |_| {})
}

/// [`step_with`] with dt = 1 and the trace reduced to lifecycle events.
pub fn step_lifecycle_with(
    agent: &mut Agent<()>,
    inputs: impl FnOnce(&mut Agent<()>),
) -> (Status, Vec<String>) {
    let (status, events) = step_with(agent, 1.0, inputs);
    (status, lifecycle(events))
}

/// Drops decorator checks and logs from a trace.
pub fn lifecycle(events: Vec<String>) -> Vec<String> {
    events
        .into_iter()
        .filter(|e| !e.starts_with("check") && !e.starts_with("log"))
        .collect()
}

/// Only the decorator checks of a trace.
pub fn checks(events: &[String]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.starts_with("check"))
        .cloned()
        .collect()
}

/// Ticks `n` times with dt = 1 and returns the root statuses.
pub fn run_n(agent: &mut Agent<()>, n: usize) -> Vec<Status> {
    (0..n).map(|_| step(agent).0).collect()
}

/// The valid value of blackboard key `name` as JSON (`null` when it has none, rule 33).
pub fn bb(agent: &Agent<()>, name: &str) -> Value {
    let board = agent.blackboard();
    match board.key(name) {
        Some(key) => board.get(key).map_or(Value::Null, |v| v.to_json()),
        None => panic!("no blackboard key `{name}`"),
    }
}

/// Writes a plain JSON value to blackboard key `name` (a host write at the current `now`).
pub fn bb_set(agent: &mut Agent<()>, name: &str, value: Value) {
    agent
        .blackboard_mut()
        .set_json(name, &value, None)
        .expect("host write should be accepted");
}

/// Writes a JSON value with a ttl to blackboard key `name`.
pub fn bb_set_ttl(agent: &mut Agent<()>, name: &str, value: Value, ttl: f64) {
    agent
        .blackboard_mut()
        .set_json(name, &value, Some(ttl))
        .expect("host write should be accepted");
}

/// Like [`step`] without decorator checks and logs: just the lifecycle.
pub fn step_lifecycle(agent: &mut Agent<()>) -> (Status, Vec<String>) {
    let (status, events) = step(agent);
    (status, lifecycle(events))
}

pub fn render<C>(tree: &CompiledTree<C>, rec: &Recorder) -> Vec<String> {
    let name = |n: arbor_runtime::NodeId| tree.info(n).name.clone();
    rec.events
        .iter()
        .map(|e| match e {
            Recorded::Enter(n) => format!("enter {}", name(*n)),
            Recorded::Tick(n, s) => format!("tick {} {s}", name(*n)),
            Recorded::Exit(n, Some(s)) => format!("exit {} {s}", name(*n)),
            Recorded::Exit(n, None) => format!("exit {} aborted", name(*n)),
            Recorded::Abort(n) => format!("abort {}", name(*n)),
            Recorded::Check {
                node,
                decorator,
                passed,
            } => format!("check {}#{decorator} {passed}", name(*node)),
            Recorded::Log(n, m) => format!("log {} {m}", name(*n)),
        })
        .collect()
}

/// Only the body executions (`tick` events) of a trace, as node names.
pub fn ticked(events: &[String]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.strip_prefix("tick "))
        .map(|e| e.rsplit_once(' ').map_or(e, |(n, _)| n).to_owned())
        .collect()
}

/// A Scripted leaf.
pub fn scripted(name: &str, returns: &[&str]) -> Value {
    json!({"type": "Scripted", "name": name, "params": {"returns": returns}})
}

/// A Scripted leaf with attached decorators.
pub fn scripted_with(name: &str, returns: &[&str], decorators: Value) -> Value {
    json!({"type": "Scripted", "name": name, "params": {"returns": returns},
           "decorators": decorators})
}

/// A composite of `kind` named `name` over `children`.
pub fn composite(kind: &str, name: &str, children: Vec<Value>) -> Value {
    json!({"type": kind, "name": name, "children": children})
}

/// A Sequence named `name`.
pub fn seq(name: &str, children: Vec<Value>) -> Value {
    composite("Sequence", name, children)
}

/// A Selector named `name`.
pub fn sel(name: &str, children: Vec<Value>) -> Value {
    composite("Selector", name, children)
}

/// Turns `&["a", "b"]` into owned strings, for comparing traces.
pub fn strs(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// Runs the `arbor` binary with `args`. Whatever happens, it must never end in a panic.
pub fn arbor(args: &[&str]) -> std::process::Output {
    use std::io::Read as _;
    use std::process::{Command, Output, Stdio};
    use std::time::{Duration, Instant};
    // A deadline, so that a read that blocks (a FIFO given to `check`) fails the test
    // instead of hanging the suite. The pipes are drained on their own threads so a
    // chatty child cannot block on a full pipe while it is waited for.
    // `option_env!`: runtime/codegen-semantics includes these helpers without the binary.
    let Some(exe) = option_env!("CARGO_BIN_EXE_arbor") else {
        panic!("the arbor binary is built only for arbor-runtime's own tests");
    };
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbor binary runs");
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("arbor can be waited for") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arbor {args:?} did not finish within 120 s: does a read block?");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = Output {
        status,
        stdout: stdout.join().expect("stdout drained"),
        stderr: stderr.join().expect("stderr drained"),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "arbor panicked: {stderr}");
    out
}

/// A process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `files` (name, text) into a fresh folder `arbor-PREFIX-PID-NAME` under the
/// system's temporary folder; returns their paths, in order.
pub fn scratch_files(
    prefix: &str,
    name: &str,
    files: &[(&str, String)],
) -> Vec<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("arbor-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    files
        .iter()
        .map(|(n, t)| {
            let p = dir.join(n);
            std::fs::write(&p, t).expect("write a scratch file");
            p
        })
        .collect()
}
