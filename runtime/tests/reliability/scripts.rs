//! Scripts within their limits (docs/semantics.md rule 51): strings never longer than
//! `script::MAX_STRING_LEN`, expressions never deeper than `script::MAX_DEPTH` (so every
//! pass over a script recurses a bounded number of times, even on a small stack), no
//! infinity or NaN stored in a key; each stop is reported, located, as the node's log.

use arbor_runtime::script::{self, MAX_DEPTH, MAX_STRING_LEN};
use arbor_runtime::work::{measure, Counter};
use arbor_runtime::Status;
use serde_json::{json, Value};

use crate::common::{agent, bb, step};

fn script(code: &str) -> Value {
    json!({"type": "Script", "name": "Grow", "params": {"code": code}})
}

fn repeat(count: i64, child: Value) -> Value {
    json!({"type": "Repeat", "params": {"count": count}, "children": [child]})
}

fn string_key(name: &str, default: &str) -> Value {
    json!({"key": name, "type": "string", "default": default})
}

fn len_of(v: &Value) -> usize {
    v.as_str().map_or(0, str::len)
}

/// The script's log lines in a rendered trace (`log NAME message`).
fn logs(events: &[String]) -> Vec<&String> {
    events.iter().filter(|e| e.starts_with("log ")).collect()
}

#[test]
fn rule51_doubling_a_string_stops_at_the_limit_and_says_where() {
    // Twenty-one doublings of two bytes would be 4 MiB: the one that passes 1 MiB stops.
    let mut agent = agent(
        repeat(21, script("s := s .. s")),
        json!([string_key("s", "ab")]),
    );
    let (status, events) = step(&mut agent);
    assert_eq!(status, Status::Failure);
    let s = bb(&agent, "s");
    assert_eq!(
        len_of(&s),
        MAX_STRING_LEN,
        "the last doubling that fits is kept"
    );
    assert_ne!(s, json!(""));
    let logs = logs(&events);
    assert_eq!(logs.len(), 1, "{logs:?}");
    let expected = format!(
        "log Grow script stopped at column 6 (`s .. s`): the string would be {} bytes long; \
         a script makes strings of at most {MAX_STRING_LEN} bytes",
        2 * MAX_STRING_LEN
    );
    assert_eq!(logs[0], &expected);
}

#[test]
fn rule51_a_post_script_that_grows_a_string_stops_and_is_reported() {
    let wait = json!({
        "type": "Scripted",
        "name": "Step",
        "decorators": [{"type": "Post", "params": {"code": "s += s"}}],
    });
    let mut agent = agent(repeat(30, wait), json!([string_key("s", "abcd")]));
    let (status, events) = step(&mut agent);
    // Post-scripts do not change the status (rule 58): the Repeat completes.
    assert_eq!(status, Status::Success);
    assert_eq!(len_of(&bb(&agent, "s")), MAX_STRING_LEN);
    let logs = logs(&events);
    assert!(!logs.is_empty());
    assert!(
        logs[0].starts_with("log Step script stopped at column 1 (`s += s`)"),
        "{logs:?}"
    );
}

#[test]
fn rule51_building_text_costs_at_most_what_the_strings_hold() {
    // Each run of `s := s .. t` writes `s .. t` once into the script's scratch text and
    // copies it once into the key: work per run is at most twice the limit, however many
    // runs a tick makes.
    let t = "x".repeat(60_000);
    let runs = 40;
    let mut appending = agent(
        repeat(runs, script("s := s .. t")),
        json!([string_key("s", ""), string_key("t", &t)]),
    );
    let ((status, _), work) = measure(Counter::ScriptTextBytes, || step(&mut appending));
    assert_eq!(status, Status::Failure, "the 18th append passes 1 MiB");
    assert!(len_of(&bb(&appending, "s")) <= MAX_STRING_LEN);
    assert!(
        work <= runs as u64 * 2 * MAX_STRING_LEN as u64,
        "{work} bytes for {runs} runs"
    );
    // `a .. b .. c`: each piece is written once, the chain extends in place.
    let pieces = 50;
    let chain = vec!["t"; pieces].join(" .. ");
    let mut chained = agent(
        script(&format!("s := {chain}")),
        json!([string_key("s", ""), string_key("t", "0123456789")]),
    );
    let ((status, _), work) = measure(Counter::ScriptTextBytes, || step(&mut chained));
    assert_eq!(status, Status::Success);
    assert_eq!(work, 2 * 10 * pieces as u64, "written once, stored once");
}

#[test]
fn rule51_a_script_never_stores_infinity_or_nan() {
    for (code, shown) in [
        ("x := 1 / 0", "inf"),
        ("x := -1 / 0", "-inf"),
        ("x := 0 / 0", "NaN"),
        ("x += 1e308 * 10", "inf"),
    ] {
        let mut agent = agent(
            script(code),
            json!([{"key": "x", "type": "float", "default": 1.5}]),
        );
        let (status, events) = step(&mut agent);
        assert_eq!(status, Status::Failure, "{code}");
        assert_eq!(
            bb(&agent, "x"),
            json!(1.5),
            "{code}: the key keeps its value"
        );
        let logs = logs(&events);
        assert_eq!(logs.len(), 1, "{code}: {logs:?}");
        assert!(
            logs[0].ends_with(&format!(
                "the value is {shown}; keys hold finite numbers only"
            )),
            "{code}: {logs:?}"
        );
    }
    // Infinity in between is fine: only stores are refused.
    let mut agent = agent(
        script("ok := 1 / 0 > 1e308"),
        json!([{"key": "ok", "type": "bool", "default": false}]),
    );
    assert_eq!(step(&mut agent).0, Status::Success);
    assert_eq!(bb(&agent, "ok"), json!(true));
}

/// A quarter of the 2 MiB a host thread usually has. Debug builds (the test suite) use
/// several times the stack of release builds per level; refusing a long chain needs far
/// less, while recursing once per operator of a 20,000-operator chain would need far more.
const STACK: usize = 512 * 1024;

/// Runs `f` on a thread with a [`STACK`]-byte stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no overflow")
}

#[test]
fn rule51_a_long_operator_chain_is_refused_located_on_a_small_stack() {
    on_small_stack(|| {
        let keys = [("n".to_owned(), arbor_runtime::ValueType::Int)];
        for op in ["+", "*", "..", "&&", "<", "|"] {
            let src = format!("n := 1{}", format!(" {op} 1").repeat(20_000));
            let err = script::check_with_keys(&src, &keys).expect_err(&src[..20]);
            assert!(
                err.message.contains("nested too deeply or too long"),
                "{op}: {}",
                err.message
            );
            // Located where the chain passes the limit, not at its end.
            assert!(
                err.start < MAX_DEPTH * (op.len() + 3),
                "{op}: {}",
                err.start
            );
            assert!(["1", op].contains(&&src[err.start..err.end]), "{op}");
            assert_eq!(script::key_uses(&src, false), None);
            assert!(script::parse_error(&src).is_some());
        }
    });
}

/// A script of a given depth.
type Shape = fn(usize) -> String;

#[test]
fn rule51_the_deepest_scripts_allowed_compile_on_a_small_stack() {
    on_small_stack(|| {
        let keys = [
            ("n".to_owned(), arbor_runtime::ValueType::Int),
            ("s".to_owned(), arbor_runtime::ValueType::String),
        ];
        // Each shape of script as deep as the parser allows (found by growing it until
        // it is refused), which every pass must then handle on this stack.
        let shapes: [(&str, Shape); 5] = [
            ("chain", |d| format!("n := 1{}", " + 1".repeat(d))),
            ("parens", |d| {
                format!("n := {}1{}", "(".repeat(d), ")".repeat(d))
            }),
            ("prefixes", |d| format!("n := {}1", "- ".repeat(d))),
            ("concat", |d| format!("s := s{}", " .. s".repeat(d))),
            ("right", |d| {
                format!("n := {}1{}", "1 - (".repeat(d), ")".repeat(d))
            }),
        ];
        for (name, shape) in shapes {
            let deepest = (1..=2 * MAX_DEPTH)
                .take_while(|&d| script::check_with_keys(&shape(d), &keys).is_ok())
                .last()
                .unwrap_or(0);
            // A nesting level of `1 - (…)` counts three (operator, right side,
            // parenthesis); a chain's operator one.
            assert!(
                (MAX_DEPTH / 4..MAX_DEPTH).contains(&deepest),
                "{name}: {deepest} levels allowed"
            );
            let refused =
                script::check_with_keys(&shape(deepest + 1), &keys).expect_err("one more level");
            assert!(refused.message.contains("at most 64 levels"), "{name}");
            assert!(script::key_uses(&shape(deepest), false).is_some(), "{name}");
        }
    });
}

#[test]
fn rule60_appending_to_a_key_costs_linear_work() {
    // `n` appends of two bytes, over as many ticks as the loop caps need: the work is the
    // bytes appended plus the moves of a buffer that at least doubles, not a copy of the
    // whole key per append (which made it quadratic).
    let work = |code: &str, n: i64| {
        let mut a = agent(
            repeat(n, script(code)),
            json!([string_key("s", ""), string_key("t", "xy")]),
        );
        let (status, work) = measure(Counter::ScriptTextBytes, || {
            let mut status = Status::Running;
            for _ in 0..100 {
                status = a.tick(&mut (), 1.0);
                if status != Status::Running {
                    break;
                }
            }
            status
        });
        assert_eq!(status, Status::Success, "{code}");
        assert_eq!(len_of(&bb(&a, "s")), 2 * n as usize, "{code}");
        work
    };
    for code in ["s += t", "s := s .. t", "s := s .. 'xy'"] {
        let (small, large) = (work(code, 2_000), work(code, 8_000));
        assert!(
            small <= 4 * 4_000,
            "{code}: {small} bytes of work for 4,000 appended"
        );
        assert!(
            large <= 4 * 16_000,
            "{code}: {large} bytes of work for 16,000 appended"
        );
        assert!(
            crate::reliability::grows_linearly(small, large, 5),
            "{code}: {small} -> {large}"
        );
    }
}
