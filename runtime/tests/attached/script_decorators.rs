//! Rules 54 to 60: the script decorators, BT.CPP's pre- and post-condition attributes.
//! Each test cites what BehaviorTree.CPP did with the same tree, observed with
//! `behaviortreepy` 0.1.4: custom leaves registered from Python returning fixed statuses,
//! the tree ticked with `tick_exactly_once`, the leaf calls and root blackboard printed.

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, scripted, scripted_with, sel, seq, step, try_compile};
use serde_json::{json, Value};

fn script(code: &str) -> Value {
    json!({"type": "Script", "params": {"code": code}})
}

fn deco(kind: &str, code: &str) -> Value {
    json!({"type": kind, "params": {"code": code}})
}

fn ints(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"key": n, "type": "int"}))
            .collect(),
    )
}

fn ticked(events: &[String], name: &str) -> bool {
    events
        .iter()
        .any(|e| e.starts_with(&format!("tick {name} ")))
}

#[test]
fn rule55_failure_if_fails_without_running_then_post_scripts_run() {
    // BT.CPP: Sequence [Script x:=1, A _failureIf="x==1" _onFailure="f:=1" _post="p:=1"
    // _onSuccess="s:=1"] -> FAILURE, A not called, f=1 p=1, no s.
    let a_node = scripted_with(
        "A",
        &["success"],
        json!([
            deco("FailureIf", "x == 1"),
            deco("Post", "p := 1"),
            deco("OnSuccess", "s := 1"),
            deco("OnFailure", "f := 1"),
        ]),
    );
    let mut a = agent(
        seq("Q", vec![script("x := 1"), a_node]),
        ints(&["x", "f", "p", "s"]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events, "A"), "{events:?}");
    assert_eq!(
        (bb(&a, "f"), bb(&a, "p"), bb(&a, "s")),
        (json!(1), json!(1), Value::Null)
    );
}

#[test]
fn rule55_success_if_succeeds_without_running() {
    // BT.CPP: A (returns FAILURE) _successIf="x==1" _onSuccess="s:=1" _post="p:=1" ->
    // SUCCESS, A not called, s=1 p=1.
    let a_node = scripted_with(
        "A",
        &["failure"],
        json!([
            deco("SuccessIf", "x == 1"),
            deco("OnSuccess", "s := 1"),
            deco("Post", "p := 1")
        ]),
    );
    let mut a = agent(
        seq("Q", vec![script("x := 1"), a_node]),
        ints(&["x", "s", "p"]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(!ticked(&events, "A"), "{events:?}");
    assert_eq!((bb(&a, "s"), bb(&a, "p")), (json!(1), json!(1)));
}

#[test]
fn rule55_pre_scripts_are_checked_only_when_idle() {
    // BT.CPP: Sequence [Script x:=0, A (RUNNING) _failureIf="x==1"]: A runs; a later
    // change of x does not stop it (only _while is checked while running).
    let a_node = scripted_with("A", &["running"], json!([deco("FailureIf", "x == 1")]));
    let mut a = agent(seq("Q", vec![script("x := 0"), a_node]), ints(&["x"]));
    assert_eq!(step(&mut a).0, Status::Running);
    a.blackboard_mut()
        .set_json("x", &json!(1), None)
        .expect("int");
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Running);
    assert!(ticked(&events, "A"), "{events:?}");
}

#[test]
fn rule56_skip_if_in_a_sequence_goes_on() {
    // BT.CPP: Sequence [Script x:=1, A _skipIf="x==1" _post="p:=1", B] -> SUCCESS, calls
    // [B]: A skipped, and a skipped node runs no post-script (p unset).
    let a_node = scripted_with(
        "A",
        &["failure"],
        json!([deco("SkipIf", "x == 1"), deco("Post", "p := 1")]),
    );
    let mut a = agent(
        seq(
            "Q",
            vec![script("x := 1"), a_node, scripted("B", &["success"])],
        ),
        ints(&["x", "p"]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(!ticked(&events, "A") && ticked(&events, "B"), "{events:?}");
    assert_eq!(bb(&a, "p"), Value::Null);
}

#[test]
fn rule56_skip_if_in_a_selector_reports_failure_when_told() {
    // BT.CPP: Sequence [Script x:=1, Fallback [A (SUCCESS) _skipIf="x==1", B (FAILURE)]]
    // -> FAILURE, calls [B]. Arbor has no SKIPPED: the import sets `skipped: failure`
    // under a Fallback so that the Selector goes on as BT.CPP's does.
    let a_node = scripted_with(
        "A",
        &["success"],
        json!([{"type": "SkipIf", "params": {"code": "x == 1", "skipped": "failure"}}]),
    );
    let mut a = agent(
        seq(
            "Q",
            vec![
                script("x := 1"),
                sel("F", vec![a_node, scripted("B", &["failure"])]),
            ],
        ),
        ints(&["x"]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events, "A") && ticked(&events, "B"), "{events:?}");
}

#[test]
fn rule57_while_aborts_a_running_node_when_false() {
    // BT.CPP: Sequence [Script x:=0, ReactiveSequence [Script x+=1, A (RUNNING)
    // _while="x<3" _onHalted="h:=x"]] -> RUNNING [A], RUNNING [A], SUCCESS [] with h=3.
    let a_node = scripted_with(
        "A",
        &["running"],
        json!([deco("While", "x < 3"), deco("OnHalted", "h := x")]),
    );
    let root = seq(
        "Q",
        vec![
            script("x := 0"),
            json!({"type": "Sequence", "name": "R", "params": {"dynamic": true},
                   "children": [script("x += 1"), a_node]}),
        ],
    );
    let mut a = agent(root, ints(&["x", "h"]));
    assert_eq!(step(&mut a).0, Status::Running);
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(!ticked(&events, "A"), "{events:?}");
    assert!(events.contains(&"abort A".to_owned()), "{events:?}");
    assert_eq!((bb(&a, "x"), bb(&a, "h")), (json!(3), json!(3)));
}

#[test]
fn rule57_while_false_at_the_start_skips() {
    // BT.CPP: Fallback [A (RUNNING) _while="false", B (FAILURE)] -> FAILURE, calls [B].
    let a_node = scripted_with(
        "A",
        &["running"],
        json!([{"type": "While", "params": {"code": "false", "skipped": "failure"}}]),
    );
    let mut a = agent(
        sel("F", vec![a_node, scripted("B", &["failure"])]),
        json!([]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(!ticked(&events, "A") && ticked(&events, "B"), "{events:?}");
}

#[test]
fn rule58_post_scripts_follow_the_status() {
    // BT.CPP: A (FAILURE) _onFailure="f:=1" _post="p:=2" _onSuccess="s:=1" -> FAILURE,
    // f=1 p=2, no s. A (SUCCESS) _onSuccess="s:=1; o:='s'" _post="o:=o..'p'" -> o "sp":
    // the status's script runs before `_post`.
    let a_node = scripted_with(
        "A",
        &["failure"],
        json!([
            deco("Post", "p := 2"),
            deco("OnSuccess", "s := 1"),
            deco("OnFailure", "f := 1")
        ]),
    );
    let mut a = agent(a_node, ints(&["f", "p", "s"]));
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(
        (bb(&a, "f"), bb(&a, "p"), bb(&a, "s")),
        (json!(1), json!(2), Value::Null)
    );
    let a_node = scripted_with(
        "A",
        &["success"],
        json!([deco("Post", "o := o .. 'p'"), deco("OnSuccess", "o := 's'")]),
    );
    let mut a = agent(a_node, json!([{"key": "o", "type": "string"}]));
    assert_eq!(step(&mut a).0, Status::Success);
    assert_eq!(bb(&a, "o"), json!("sp"));
}

#[test]
fn rule54_scripts_are_checked_at_load() {
    let node = scripted_with("A", &["success"], json!([deco("SkipIf", "x + ")]));
    let Err(err) = try_compile(node, ints(&["x"])) else {
        panic!("refused")
    };
    let text = err.to_string();
    assert!(text.contains("decorators[0].params.code"), "{text}");
    assert!(text.contains("column 5"), "{text}");
    let node = scripted_with("A", &["success"], json!([deco("While", "'text'")]));
    assert!(try_compile(node, json!([])).is_err());
}

#[test]
fn rule59_on_halted_scripts_run_bottom_to_top_on_an_abort_and_post_scripts_do_not() {
    let a_node = scripted_with(
        "A",
        &["running"],
        json!([
            deco("OnHalted", "h := h * 10 + 1"),
            deco("OnHalted", "h := h * 10 + 2"),
            deco("Post", "p := 1"),
            deco("OnFailure", "f := 1"),
        ]),
    );
    let root = json!({"type": "Timeout", "name": "TO", "params": {"seconds": 1},
        "children": [a_node]});
    let mut a = agent(
        root,
        json!([
            {"key": "h", "type": "int", "default": 0},
            {"key": "p", "type": "int"},
            {"key": "f", "type": "int"}
        ]),
    );
    assert_eq!(step(&mut a).0, Status::Running);
    assert_eq!(bb(&a, "h"), json!(0), "nothing aborted yet");
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()), "{events:?}");
    assert_eq!(
        (bb(&a, "h"), bb(&a, "p"), bb(&a, "f")),
        (json!(21), Value::Null, Value::Null)
    );
}
