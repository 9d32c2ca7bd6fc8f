//! Rules 51 to 53: the Script and ScriptCondition leaves. Expected results are what
//! BehaviorTree.CPP printed for the same trees, observed with `behaviortreepy` 0.1.4
//! (ticking once and printing the root blackboard; BT.CPP prints doubles as `%f`).

use crate::common;

use arbor_runtime::Status;
use common::{agent, bb, seq, step, try_compile};
use serde_json::{json, Value};

fn script(name: &str, code: &str) -> Value {
    json!({"type": "Script", "name": name, "params": {"code": code}})
}

fn condition(name: &str, code: &str) -> Value {
    json!({"type": "ScriptCondition", "name": name, "params": {"code": code}})
}

#[test]
fn rule52_script_runs_its_statements_and_succeeds() {
    // BT.CPP: `<Script code="a:=1; a+=2"/>` -> SUCCESS, a "3".
    let mut a = agent(
        script("S", "a := 1; a += 2; s := 'n=' .. a"),
        json!([{"key": "a", "type": "int"}, {"key": "s", "type": "string"}]),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert_eq!(events, ["enter S", "tick S success", "exit S success"]);
    assert_eq!(bb(&a, "a"), json!(3));
    assert_eq!(bb(&a, "s"), json!("n=3"));
}

#[test]
fn rule52_a_key_without_value_fails_the_script() {
    // BT.CPP: `a:=b` with no `b` throws "Error in script"; Arbor fails the node.
    let mut a = agent(
        script("S", "a := b"),
        json!([{"key": "a", "type": "int"}, {"key": "b", "type": "int"}]),
    );
    assert_eq!(step(&mut a).0, Status::Failure);
    assert_eq!(bb(&a, "a"), Value::Null);
}

#[test]
fn rule53_script_condition_tests_the_value() {
    // BT.CPP: Sequence [Script x:=3, ScriptCondition x>2, ScriptCondition x>5] -> FAILURE
    // (the second condition); `x - 3` as a condition -> FAILURE (zero is false).
    let keys = json!([{"key": "x", "type": "int"}]);
    let mut a = agent(
        seq(
            "Q",
            vec![
                script("S", "x := 3"),
                condition("C1", "x > 2"),
                condition("C2", "x > 5"),
            ],
        ),
        keys.clone(),
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"tick C1 success".to_owned()), "{events:?}");
    assert!(events.contains(&"tick C2 failure".to_owned()), "{events:?}");
    let mut a = agent(
        seq("Q", vec![script("S", "x := 3"), condition("C", "x - 3")]),
        keys,
    );
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule51_problems_name_the_parameter_and_the_column() {
    let Err(err) = try_compile(
        seq(
            "Q",
            vec![script("S", "a := 1"), script("T", "a := 'x' + 1")],
        ),
        json!([{"key": "a", "type": "int"}]),
    ) else {
        panic!("refused")
    };
    let text = err.to_string();
    assert!(text.contains("$.nodes[2].params.code"), "{text}");
    assert!(text.contains("column 6"), "{text}");
    assert!(text.contains("does not work on strings"), "{text}");
    let Err(err) = try_compile(condition("C", "'yes'"), json!([])) else {
        panic!("refused")
    };
    assert!(err.to_string().contains("true or false"), "{err}");
}

#[test]
fn rule51_scripting_enums_come_from_the_registry() {
    // BT.CPP: `registerScriptingEnum("BLUE", 2)`, then `color := BLUE` stores 2.
    use arbor_runtime::Registry;
    let mut registry = Registry::<()>::new();
    registry.script_enum("RED", 0).script_enum("BLUE", 2);
    let file = common::tree_json(
        seq(
            "Q",
            vec![script("S", "color := BLUE"), condition("C", "color != RED")],
        ),
        json!([{"key": "color", "type": "int"}]),
    );
    let tree = registry
        .loader()
        .load_str(&file.to_string(), None)
        .expect("loads with the enums");
    let mut a = arbor_runtime::Agent::new(std::sync::Arc::new(tree), 1);
    assert_eq!(a.tick(&mut (), 1.0), Status::Success);
    assert_eq!(
        a.blackboard().get_i64(a.blackboard().key("color").unwrap()),
        Some(2)
    );
    // Without them the names are unknown keys, refused at load.
    assert!(try_compile(
        script("S", "color := BLUE"),
        json!([{"key": "color", "type": "int"}])
    )
    .is_err());
}
