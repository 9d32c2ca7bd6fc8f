//! The differential test against BehaviorTree.CPP itself: every XML tree is
//! imported into Arbor and run there with stand-ins, and run in BT.CPP 4 through the PyPI
//! package `behaviortreepy` (differential.py); both get the same scripted custom leaves and
//! the same ticks, and per tick the root status, the order of custom-leaf calls and the
//! blackboard values both expose must agree. A tick where BT.CPP's script throws must be
//! the tick where Arbor reports the same script stop (rule 86); the run ends there.
//!
//! Setup is part of the test: a virtual environment `target/btcpp-venv` with
//! `behaviortreepy` is created when missing (PyPI must be reachable; a failed install
//! fails the test with pip's output). Trees: our own, one per built-in BT.CPP node and
//! feature (`tests/data/btcpp/diff/`), which must all agree unless listed in
//! `KNOWN_DIFFERENCES`; and the development corpus of real BT.CPP trees in
//! `../shared/interop/btcpp/` beside the workspace, skipped with a message when absent.
//! One line per tree and the totals are printed (`cargo test … differential --
//! --nocapture`).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use arbor_runtime::btcpp::{
    import_file_with, stand_in_registry, ImportOptions, Imported, StandIns,
};
use arbor_runtime::{Agent, Category, Recorded, Recorder, StandIn, Status, TickMode};
use serde_json::{json, Value};

/// Ticks per run, and the time between them. BT.CPP's timers (Sleep, Timeout, Delay) run
/// on the wall clock, so trees that use them wait `DT_MS` between BT.CPP ticks; durations
/// in our trees sit half a tick away from a tick, so scheduling jitter does not matter.
/// Each runs with both of BT.CPP's single-tick methods ([`Method`]).
const TICKS: usize = 12;
const DT_MS: u64 = 80;

/// BT.CPP's tick method on one side and the Arbor tick mode that matches it (rule 85).
#[derive(Clone, Copy)]
enum Method {
    /// `tickExactlyOnce`: one root tick; Arbor's `TickMode::Once`.
    ExactlyOnce,
    /// `tickOnce`: root ticks repeated while a wake-up is pending; Arbor's
    /// `TickMode::RetickAfterYield`.
    Once,
}

impl Method {
    fn btcpp(self) -> &'static str {
        match self {
            Method::ExactlyOnce => "exactly_once",
            Method::Once => "once",
        }
    }

    /// Whether own tree `name` is listed as differing under this method.
    fn known(self, name: &str) -> bool {
        let once: &[(&str, &str)] = match self {
            Method::ExactlyOnce => &[],
            Method::Once => KNOWN_DIFFERENCES_TICK_ONCE,
        };
        KNOWN_DIFFERENCES
            .iter()
            .chain(once)
            .any(|(k, _)| *k == name)
    }

    /// Fewer development-corpus trees agreeing than this is a regression (`CORPUS_FLOOR`).
    fn corpus_floor(self) -> usize {
        match self {
            Method::ExactlyOnce => CORPUS_FLOOR,
            Method::Once => CORPUS_FLOOR_TICK_ONCE,
        }
    }

    fn arbor(self) -> TickMode {
        match self {
            Method::ExactlyOnce => TickMode::Once,
            Method::Once => TickMode::RetickAfterYield,
        }
    }
}

fn uses_timers(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    ["<Sleep", "<Timeout", "<Delay"]
        .iter()
        .any(|t| text.contains(t))
}

/// Own trees that are expected to differ, with the reason (docs/interop.md lists them).
/// Empty since ParallelAll, the Loops, the update watchers and UnsetBlackboard got Arbor
/// kinds (rules 64 to 69): every built-in BT.CPP 4.8 node of an own tree runs as there.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Own trees that differ only with BT.CPP's `tickOnce` (rule 85): BT.CPP's Sleep and Delay
/// emit the wake-up signal from their timer thread when the timer fires, between two
/// calls, so the next `tickOnce` ticks the root twice; Arbor's timers run on the agent's
/// clock and ask for no re-tick (docs/interop.md).
const KNOWN_DIFFERENCES_TICK_ONCE: &[(&str, &str)] = &[
    ("delay.xml", "Delay's timer wakes the tree up in BT.CPP"),
    ("sleep.xml", "Sleep's timer wakes the tree up in BT.CPP"),
];

/// Scripting enums the program registers, by tree (BT.CPP's `registerScriptingEnum`),
/// given to both engines: to Arbor's import (`ImportOptions::script_enums`, so they reach
/// the manifest) and to BT.CPP as root blackboard entries of the same names and values
/// (`behaviortreepy` 0.1.4 does not bind `registerScriptingEnum`; BT.CPP's script reads a
/// name from its enums first and then from the blackboard, so a script in the main tree
/// reads the same number either way). `t09_scripting`'s values are those its program
/// (`examples/t09_scripting.cpp`) registers.
const SCRIPT_ENUMS: &[(&str, &[(&str, i64)])] = &[
    (
        "examples/t09_scripting.xml",
        &[("RED", 1), ("BLUE", 2), ("GREEN", 3), ("THE_ANSWER", 42)],
    ),
    (
        "script_enums.xml",
        &[("IDLE_MODE", 0), ("PATROL", 1), ("CHASE", 2), ("LIMIT", 40)],
    ),
];

fn script_enums(case: &str) -> BTreeMap<String, i64> {
    SCRIPT_ENUMS
        .iter()
        .filter(|(name, _)| *name == case)
        .flat_map(|(_, enums)| enums.iter().map(|(n, v)| ((*n).to_owned(), *v)))
        .collect()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the runtime crate sits in the workspace")
        .to_path_buf()
}

/// The venv's python with `behaviortreepy` importable (venv.rs), or `None` when the test
/// skips (no peer here, and `ARBOR_REQUIRE_PEERS` is not set).
fn python(what: &str) -> Option<PathBuf> {
    super::venv::btcpp_python_or_skip(&workspace(), what)
}

/// One tree to compare: its XML file and the custom leaves' scripts of each variant.
struct Case {
    name: String,
    path: PathBuf,
    imported: Result<Imported, String>,
}

/// BT.CPP IDs of the host types of an import that run as scripted leaves, with their
/// category (controls and decorators with a stand-in are in `stand_ins`).
fn host_ids(imported: &Imported) -> BTreeMap<String, Category> {
    let stand_ins = stand_ins(imported);
    imported
        .types
        .iter()
        .map(|t| {
            let id = t.name.strip_prefix("BTCPP_").unwrap_or(&t.name).to_owned();
            (id, t.category)
        })
        .filter(|(id, _)| !stand_ins.contains_key(id))
        .collect()
}

/// The custom controls and decorators that run their children (rule 61), by BT.CPP ID:
/// those the import gave a stand-in, and every other custom decorator as a pass-through,
/// which is what a BT.CPP `SimpleDecorator` returning its child's status does.
fn stand_ins(imported: &Imported) -> BTreeMap<String, StandIn> {
    imported
        .types
        .iter()
        .filter(|t| !t.name.starts_with("BTCPP_"))
        .filter_map(|t| {
            // A BT.CPP built-in Arbor imports opaquely (`LoopDouble`) is found out when
            // differential.py cannot register it, and then left out (`run_arbor`).
            let s = t
                .stand_in
                .or_else(|| (t.category == Category::Decorator).then_some(StandIn::PassThrough))?;
            Some((t.name.clone(), s))
        })
        .collect()
}

/// What differential.py registers or writes for a stand-in: a pass-through decorator, or
/// the BT.CPP built-in that behaves as the stand-in.
fn btcpp_stand_in(s: StandIn) -> &'static str {
    match s {
        StandIn::PassThrough => "decorator",
        StandIn::Sequence => "Sequence",
        StandIn::ReactiveSequence => "ReactiveSequence",
        StandIn::SequenceWithMemory => "SequenceWithMemory",
        StandIn::Fallback => "Fallback",
        StandIn::ReactiveFallback => "ReactiveFallback",
        StandIn::Parallel => "Parallel",
        StandIn::Inverter => "Inverter",
        StandIn::ForceSuccess => "ForceSuccess",
        StandIn::ForceFailure => "ForceFailure",
    }
}

/// A small deterministic hash, so that scripts do not depend on the Rust version.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The scripts of variant `v`: 0 lets everything succeed; the others pick per node ID.
fn scripts(ids: &BTreeMap<String, Category>, v: u64) -> BTreeMap<String, Vec<&'static str>> {
    const ACTIONS: &[&[&str]] = &[
        &["success"],
        &["failure"],
        &["running", "success"],
        &["failure", "success"],
        &["running", "running", "failure", "success"],
        &["success", "failure"],
    ];
    const CONDITIONS: &[&[&str]] = &[
        &["success"],
        &["failure"],
        &["failure", "success"],
        &["success", "failure", "success"],
    ];
    let mut out = BTreeMap::new();
    if v == 0 {
        return out;
    }
    for (id, cat) in ids {
        let h = fnv(&format!("{v}:{id}")) as usize;
        let script = match cat {
            Category::Condition => CONDITIONS[h % CONDITIONS.len()],
            _ => ACTIONS[h % ACTIONS.len()],
        };
        out.insert(id.clone(), script.to_vec());
    }
    out
}

const VARIANTS: u64 = 3;

/// Arbor's run of one variant, in the shape differential.py prints.
fn run_arbor(
    imported: &Imported,
    dir: &Path,
    ids: &BTreeMap<String, Category>,
    builtin: &[&str],
    v: u64,
    method: Method,
) -> Result<Vec<Value>, String> {
    imported
        .write_to(dir)
        .map_err(|e| format!("writing: {e}"))?;
    let mut stand_ins = stand_ins(imported);
    stand_ins.retain(|id, _| !builtin.contains(&id.as_str()));
    let mut types = imported.node_types();
    for (name, s) in &stand_ins {
        if let Some(ty) = types.node(name).cloned() {
            types.insert(ty.stand_in(*s));
        }
    }
    let registry = stand_in_registry(&types);
    let path = dir.join(&imported.files[0].file_name);
    let tree = Arc::new(
        registry
            .loader()
            .load_file(&path)
            .map_err(|e| format!("arbor refuses the import: {}", first_line(&e.to_string())))?,
    );
    let by_id = scripts(ids, v);
    let id_of = |kind: &str| kind.strip_prefix("BTCPP_").unwrap_or(kind).to_owned();
    let mut data = StandIns::scripted(&tree, |info| {
        by_id.get(&id_of(&info.kind)).map(|s| {
            s.iter()
                .map(|x| Status::parse(x).expect("a status"))
                .collect()
        })
    });
    let keys: Vec<String> = imported
        .main()
        .blackboard
        .iter()
        .map(|k| k.key.clone())
        .collect();
    let mut agent = Agent::new(tree.clone(), 1);
    agent.set_tick_mode(method.arbor());
    let mut ticks = Vec::new();
    let mut rec = Recorder::default();
    for _ in 0..TICKS {
        rec.clear();
        let status = agent.tick_traced(&mut data, DT_MS as f64 / 1000.0, &mut rec);
        let calls: Vec<String> = rec
            .events
            .iter()
            .filter_map(|e| match e {
                Recorded::Tick(n, _) => {
                    let info = tree.info(*n);
                    ids.contains_key(&id_of(&info.kind))
                        .then(|| info.name.clone())
                }
                _ => None,
            })
            .collect();
        let stops: Vec<&str> = rec
            .events
            .iter()
            .filter_map(|e| match e {
                Recorded::Log(_, m) if m.starts_with("script stopped") => Some(m.as_str()),
                _ => None,
            })
            .collect();
        let board = agent.blackboard();
        let bb: serde_json::Map<String, Value> = keys
            .iter()
            .filter_map(|k| {
                let key = board.key(k)?;
                Some((
                    k.clone(),
                    board.get(key).map_or(Value::Null, |v| v.to_json()),
                ))
            })
            .collect();
        ticks.push(json!({"status": status.as_str(), "calls": calls, "bb": bb, "stops": stops}));
    }
    Ok(ticks)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_owned()
}

/// Values as BT.CPP's blackboard shows them: numbers compare by value, booleans as such.
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap_or(f64::NAN) - y.as_f64().unwrap_or(f64::NAN)).abs() < 1e-9
        }
        (Value::Bool(x), Value::Number(y)) | (Value::Number(y), Value::Bool(x)) => {
            y.as_f64() == Some(f64::from(u8::from(*x)))
        }
        (Value::String(x), Value::Number(y)) | (Value::Number(y), Value::String(x)) => {
            x.parse::<f64>().ok() == y.as_f64()
        }
        _ => a == b,
    }
}

/// What of BT.CPP's script exception Arbor's stop message must name (rule 86).
fn thrown_class(message: &str) -> &'static str {
    if message.contains("doesn't exist, yet") {
        "doesn't exist, yet"
    } else if message.contains("Variable not found") {
        "Variable not found"
    } else {
        "script stopped"
    }
}

/// Whether Arbor's tick `a` reports the script stop BT.CPP threw (`thrown`).
fn same_stop(a: &Value, thrown: &Value) -> Result<(), String> {
    let message = thrown["message"].as_str().unwrap_or("");
    let class = thrown_class(message);
    let stops = a["stops"].as_array().cloned().unwrap_or_default();
    if stops
        .iter()
        .any(|s| s.as_str().is_some_and(|s| s.contains(class)))
    {
        return Ok(());
    }
    Err(format!(
        "BT.CPP threw {:?}, Arbor reports {}",
        message.replace('\n', " "),
        if stops.is_empty() {
            "no script stop".to_owned()
        } else {
            Value::Array(stops).to_string()
        }
    ))
}

/// The first difference between the two runs, if any. A run that BT.CPP's script
/// exception ended (`thrown`) is compared up to the tick before, and Arbor must report
/// the same stop at that tick.
fn compare(arbor: &[Value], btcpp: &[Value], thrown: Option<&Value>) -> Option<String> {
    if let Some(thrown) = thrown {
        let at = thrown["tick"].as_u64().unwrap_or(1).max(1) as usize;
        if let Some(d) = compare(&arbor[..(at - 1).min(arbor.len())], btcpp, None) {
            return Some(d);
        }
        return match arbor.get(at - 1) {
            None => Some(format!("BT.CPP threw at tick {at}, after Arbor's run")),
            Some(a) => same_stop(a, thrown)
                .err()
                .map(|e| format!("tick {at}: {e}")),
        };
    }
    for (t, (a, b)) in arbor.iter().zip(btcpp).enumerate() {
        let t = t + 1;
        if let Some(stops) = a["stops"].as_array().filter(|s| !s.is_empty()) {
            return Some(format!(
                "tick {t}: Arbor reports {}, BT.CPP throws nothing",
                Value::Array(stops.clone())
            ));
        }
        if a["status"] != b["status"] {
            return Some(format!(
                "tick {t}: root {} in Arbor, {} in BT.CPP",
                a["status"], b["status"]
            ));
        }
        if a["calls"] != b["calls"] {
            return Some(format!(
                "tick {t}: leaves {} in Arbor, {} in BT.CPP",
                a["calls"], b["calls"]
            ));
        }
        let (Some(ab), Some(bb)) = (a["bb"].as_object(), b["bb"].as_object()) else {
            continue;
        };
        for (k, av) in ab {
            let Some(bv) = bb.get(k) else { continue };
            if !same_value(av, bv) {
                return Some(format!(
                    "tick {t}: key `{k}` = {av} in Arbor, {bv} in BT.CPP"
                ));
            }
        }
    }
    (arbor.len() != btcpp.len())
        .then(|| format!("{} ticks in Arbor, {} in BT.CPP", arbor.len(), btcpp.len()))
}

/// Runs every case in both engines; returns (name, None = agree / Some(why)).
fn differential(
    python: &Path,
    cases: &[Case],
    scratch: &str,
    method: Method,
) -> Vec<(String, Option<String>)> {
    let mut requests = Vec::new();
    for case in cases {
        let Ok(imported) = &case.imported else {
            continue;
        };
        let ids = host_ids(imported);
        let custom: BTreeMap<&String, &str> = ids
            .iter()
            .map(|(id, c)| {
                let kind = match c {
                    Category::Condition => "condition",
                    Category::Action => "action",
                    _ => "control",
                };
                (id, kind)
            })
            .collect();
        let main = imported.files[0].tree_id.clone();
        for v in 0..VARIANTS {
            requests.push(json!({
                "name": format!("{}#{v}", case.name),
                "path": case.path,
                "main": main,
                "custom": custom,
                "stand_ins": stand_ins(imported)
                    .into_iter()
                    .map(|(id, s)| (id, btcpp_stand_in(s)))
                    .collect::<BTreeMap<_, _>>(),
                "scripts": scripts(&ids, v),
                "enums": script_enums(&case.name),
                "ticks": TICKS,
                "method": method.btcpp(),
                "dt_ms": if uses_timers(&case.path) { DT_MS } else { 0 },
            }));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/btcpp/differential.py");
    let mut child = Command::new(python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(Value::Array(requests).to_string().as_bytes())
        .expect("requests written");
    let out = child.wait_with_output().expect("python runs");
    assert!(
        out.status.success(),
        "differential.py failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: BTreeMap<String, Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| (v["name"].as_str().unwrap_or("").to_owned(), v))
        .collect();

    let mut verdicts = Vec::new();
    for case in cases {
        let verdict = match &case.imported {
            Err(e) => Some(format!("Arbor cannot import it: {e}")),
            Ok(imported) => {
                let ids = host_ids(imported);
                let mut why = None;
                for v in 0..VARIANTS {
                    let b = &results[&format!("{}#{v}", case.name)];
                    if let Some(e) = b.get("error") {
                        why = Some(format!("BT.CPP refuses it: {}", e.as_str().unwrap_or("")));
                        break;
                    }
                    let mut ids = ids.clone();
                    let builtin: Vec<&str> = b["builtin"]
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    ids.retain(|id, _| !builtin.contains(&id.as_str()));
                    let dir = super::support::tempdir(&format!(
                        "{scratch}-{}-{}-{v}",
                        method.btcpp(),
                        case.name.replace('/', "_")
                    ));
                    let arbor = match run_arbor(imported, &dir, &ids, &builtin, v, method) {
                        Ok(a) => a,
                        Err(e) => {
                            why = Some(e);
                            break;
                        }
                    };
                    let btcpp = b["ticks"].as_array().cloned().unwrap_or_default();
                    if let Some(d) = compare(&arbor, &btcpp, b.get("thrown")) {
                        let opaque = if builtin.is_empty() {
                            String::new()
                        } else {
                            format!(" (stand-ins for BT.CPP's {})", builtin.join(", "))
                        };
                        why = Some(format!("variant {v}: {d}{opaque}"));
                        break;
                    }
                }
                why
            }
        };
        match &verdict {
            None => println!("same    {}", case.name),
            Some(why) => println!("DIFFERS {}: {why}", case.name),
        }
        verdicts.push((case.name.clone(), verdict));
    }
    verdicts
}

fn xml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            xml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "xml") {
            out.push(p);
        }
    }
}

fn cases(root: &Path) -> Vec<Case> {
    let mut files = Vec::new();
    xml_files(root, &mut files);
    files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned();
            let options = ImportOptions {
                script_enums: script_enums(&name),
                ..ImportOptions::new("tree")
            };
            let imported = import_file_with(&path, options).map_err(|e| first_line(&e.to_string()));
            Case {
                name,
                path,
                imported,
            }
        })
        .collect()
}

fn total(label: &str, verdicts: &[(String, Option<String>)]) -> usize {
    let same = verdicts.iter().filter(|(_, v)| v.is_none()).count();
    println!(
        "{label}: {same} of {} trees run the same in Arbor and BT.CPP",
        verdicts.len()
    );
    same
}

fn own_trees(method: Method) {
    let Some(python) = python("the differential run of the own trees") else {
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/btcpp/diff");
    let cases = cases(&dir);
    assert!(!cases.is_empty(), "no .xml tree in {}", dir.display());
    let verdicts = differential(&python, &cases, "diff-own", method);
    total(&format!("own trees, {}", method.btcpp()), &verdicts);
    let unexpected: Vec<String> = verdicts
        .iter()
        .filter(|(name, v)| v.is_some() && !method.known(name))
        .map(|(name, v)| format!("{name}: {}", v.as_deref().unwrap_or("")))
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}

#[test]
fn own_trees_run_as_in_btcpp_tick_exactly_once() {
    own_trees(Method::ExactlyOnce);
}

#[test]
fn own_trees_run_as_in_btcpp_tick_once() {
    own_trees(Method::Once);
}

/// The real BT.CPP trees; fewer agreeing than `CORPUS_FLOOR` is a regression. 40 of 42
/// agree: the two left are listed in docs/interop.md (`subtree_test`, which BT.CPP itself
/// refuses, and `child_include_parent`, whose include leaves the document's folder). The
/// five trees whose scripts throw in BT.CPP (rule 86) agree because the runner matches
/// BT.CPP's exception with Arbor's reported stop. One tree fewer was seen with the machine
/// loaded by other builds, as BT.CPP's timers run on the wall clock: the floor keeps that
/// margin.
const CORPUS_FLOOR: usize = 39;

/// As `CORPUS_FLOOR`, for BT.CPP's `tickOnce` against `TickMode::RetickAfterYield`: 38 seen
/// (37 once, under load: `log_test`'s timers). Two trees fewer than with
/// `tickExactlyOnce` (docs/interop.md): `reactive_issue587`, whose `tickOnce` does not
/// return in BT.CPP when TestA keeps failing (the runner stops it), and
/// `parallel_pause_with_retry`, whose Retry BT.CPP re-ticks until a Sleep's wall-clock
/// timer fires, where Arbor's clock does not move between re-ticks.
const CORPUS_FLOOR_TICK_ONCE: usize = 36;

fn development_corpus(method: Method) {
    let dir = workspace().join("../shared/interop/btcpp");
    if !dir.is_dir() {
        println!(
            "skipped: the development corpus {} is absent (it is not part of the project)",
            dir.display()
        );
        return;
    }
    let Some(python) = python("the differential run of the development corpus") else {
        return;
    };
    let verdicts = differential(&python, &cases(&dir), "diff-corpus", method);
    let same = total(
        &format!("development corpus, {}", method.btcpp()),
        &verdicts,
    );
    let floor = method.corpus_floor();
    assert!(
        same >= floor,
        "{same} trees agree, fewer than the {floor} recorded in differential.rs"
    );
}

#[test]
fn development_corpus_runs_as_in_btcpp_tick_exactly_once() {
    development_corpus(Method::ExactlyOnce);
}

#[test]
fn development_corpus_runs_as_in_btcpp_tick_once() {
    development_corpus(Method::Once);
}
