//! Property-based fuzzing of scripts (docs/semantics.md rule 51): random operator chains,
//! deep nesting, and string concatenations run many times in one tick under a Repeat.
//! Whatever the script, loading gives a tree or a located error, never a panic; ticking
//! never panics, no string key ever holds more than `script::MAX_STRING_LEN` bytes, and
//! the text a tick builds is bounded by the work counter `ScriptTextBytes` (not by a
//! clock): at most two limits' worth per string operation run.
//!
//! proptest runs inside `cargo test` on the stable toolchain, as the loader's fuzzing does
//! (`runtime/tests/loading/fuzz_loader.rs`); the case count keeps it to a few seconds.

use std::sync::Arc;

use arbor_runtime::script::MAX_STRING_LEN;
use arbor_runtime::work::{measure, Counter};
use arbor_runtime::{check_str, Agent, LoadOptions, NodeTypes};
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::common::{tree_json, try_compile};

const OPERANDS: &[&str] = &[
    "s",
    "t",
    "n",
    "x",
    "b",
    "@s",
    "1",
    "0",
    "-3",
    "2.5",
    "1e308",
    "0x7fffffffffffffff",
    "'ab'",
    "''",
    "true",
    "RED",
];
const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "..", "&&", "||", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=",
];
const PREFIXES: &[&str] = &["-", "!", "~", ""];

fn pick(items: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
    (0..items.len()).prop_map(move |i| items[i])
}

/// An expression: a chain of operands and operators, any of which may be a parenthesised
/// or prefixed expression itself, or a ternary.
fn expr() -> impl Strategy<Value = String> {
    let leaf = (pick(PREFIXES), pick(OPERANDS)).prop_map(|(p, o)| format!("{p}{o}"));
    leaf.prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::collection::vec((pick(OPERATORS), inner.clone()), 1..6)
            )
                .prop_map(|(first, rest)| {
                    rest.iter()
                        .fold(first, |acc, (op, e)| format!("{acc} {op} {e}"))
                }),
            (pick(PREFIXES), inner.clone()).prop_map(|(p, e)| format!("{p}({e})")),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
        ]
    })
}

/// A long chain of one operator (the parser refuses it past its depth limit, located).
fn chain() -> impl Strategy<Value = String> {
    (pick(OPERATORS), pick(OPERANDS), 1usize..3_000).prop_map(|(op, operand, n)| {
        format!("n := {operand}{}", format!(" {op} {operand}").repeat(n))
    })
}

/// Deep nesting of parentheses and prefixes.
fn nesting() -> impl Strategy<Value = String> {
    (1usize..1_000, pick(PREFIXES), pick(OPERANDS))
        .prop_map(|(d, p, o)| format!("x := {}{o}{}", format!("{p}(").repeat(d), ")".repeat(d)))
}

/// Statements that grow strings, which a Repeat runs many times in one tick.
fn growth() -> impl Strategy<Value = String> {
    let statement = prop_oneof![
        Just("s := s .. s".to_owned()),
        Just("s += s".to_owned()),
        Just("s += t".to_owned()),
        Just("t := s .. t .. s".to_owned()),
        Just("s := (s .. 'x') .. (t .. s)".to_owned()),
        Just("b := s .. s == t .. t".to_owned()),
        Just("s := n .. s .. x".to_owned()),
        expr().prop_map(|e| format!("s := s .. ({e})")),
        expr().prop_map(|e| format!("x := {e}")),
        expr().prop_map(|e| format!("n += {e}")),
    ];
    prop::collection::vec(statement, 1..5).prop_map(|s| s.join("; "))
}

fn keys() -> Value {
    json!([
        {"key": "s", "type": "string", "default": "ab"},
        {"key": "t", "type": "string", "default": "0123456789"},
        {"key": "n", "type": "int", "default": 3},
        {"key": "x", "type": "float", "default": 1.5},
        {"key": "b", "type": "bool", "default": true},
    ])
}

/// Loads `code` as a Script under a Repeat of `runs` (or as a ScriptCondition, or a Post
/// decorator), ticks it twice and checks the invariants.
fn exercise(code: &str, runs: i64, place: u8) {
    let script = match place {
        0 => json!({"type": "Script", "params": {"code": code}}),
        1 => json!({"type": "ScriptCondition", "params": {"code": code}}),
        _ => json!({
            "type": "Scripted",
            "decorators": [{"type": "Post", "params": {"code": code}}],
        }),
    };
    let root = json!({"type": "Repeat", "params": {"count": runs}, "children": [script]});
    let text = tree_json(root.clone(), keys()).to_string();
    let report = check_str(&text, None, &NodeTypes::builtin(), &LoadOptions::default());
    for problem in &report.problems {
        assert!(!problem.to_string().is_empty());
    }
    let Ok(tree) = try_compile(root, keys()) else {
        assert!(!report.is_ok(), "check and load agree on {code:?}");
        return;
    };
    let mut agent = Agent::new(Arc::new(tree), 7);
    // Each run of the script performs at most `ops` string operations (its length bounds
    // them), each writing or moving at most two limits' worth of bytes plus a number.
    let ops = code.len() as u64 + 1;
    let bound = runs as u64 * ops * 2 * (MAX_STRING_LEN as u64 + 400);
    for _ in 0..2 {
        let (_, work) = measure(Counter::ScriptTextBytes, || {
            agent.tick_traced(&mut (), 0.1, &mut ())
        });
        assert!(work <= bound, "{work} bytes for {code:?}");
        for key in ["s", "t"] {
            let k = agent.blackboard().key(key).expect("declared");
            if let Some(arbor_runtime::Value::Str(v)) = agent.blackboard().get(k) {
                assert!(v.len() <= MAX_STRING_LEN, "{key}: {} bytes", v.len());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_expressions_load_or_are_refused_and_tick(code in expr(), place in 0u8..3) {
        exercise(&format!("n := {code}"), 3, place);
        exercise(&code, 3, place);
    }

    #[test]
    fn long_chains_and_deep_nesting_never_overflow(code in prop_oneof![chain(), nesting()]) {
        exercise(&code, 2, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn strings_grown_under_a_repeat_stay_within_the_limit(
        code in growth(),
        runs in 1i64..40,
        place in 0u8..3,
    ) {
        exercise(&code, runs, place);
    }
}
