//! Rule 79: a disabled node (`"enabled": false`) and its branch run as if absent: left out
//! of a composite's children; a node whose children have roles (a decorator node,
//! IfThenElse, …) with a disabled child is absent itself; a file's disabled root runs as an
//! empty Sequence; a disabled node's conditions never abort anything.

use crate::common;

use arbor_runtime::Status;
use common::{agent, agent_v3, bb_set, composite, scripted, scripted_with, sel, seq, step, ticked};
use serde_json::{json, Value};

fn off(mut node: Value) -> Value {
    node["enabled"] = json!(false);
    node
}

fn entered(events: &[String]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.strip_prefix("enter ").map(str::to_owned))
        .collect()
}

#[test]
fn rule79_a_composite_runs_as_if_a_disabled_child_were_absent() {
    let tree = seq(
        "S",
        vec![
            scripted("A", &["success"]),
            off(scripted("B", &["failure"])),
            scripted("C", &["success"]),
        ],
    );
    let mut a = agent_v3(tree, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success, "B would have failed the Sequence");
    assert_eq!(ticked(&events), ["A", "C", "S"]);
    // The same tree without B gives the same trace.
    let without = seq(
        "S",
        vec![scripted("A", &["success"]), scripted("C", &["success"])],
    );
    assert_eq!(step(&mut agent(without, json!([]))).1, events);
}

#[test]
fn rule79_a_selector_passes_over_a_disabled_child_and_a_parallel_does_not_count_it() {
    let tree = sel(
        "F",
        vec![
            off(scripted("A", &["success"])),
            scripted("B", &["success"]),
        ],
    );
    let (status, events) = step(&mut agent_v3(tree, json!([])));
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), ["B", "F"]);
    // Two of three needed, one of them off: both remaining must succeed.
    let mut parallel = composite(
        "Parallel",
        "P",
        vec![
            scripted("A", &["success"]),
            off(scripted("B", &["success"])),
            scripted("C", &["running", "success"]),
        ],
    );
    parallel["params"] = json!({"need": 2});
    let mut a = agent_v3(parallel, json!([]));
    assert_eq!(step(&mut a).0, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(!entered(&events).contains(&"B".to_owned()));
}

#[test]
fn rule79_a_composite_whose_children_are_all_disabled_succeeds_as_an_empty_one() {
    let tree = json!({"type": "Selector", "name": "F", "children": [
        off(scripted("A", &["success"])), off(scripted("B", &["success"])),
    ]});
    let (status, events) = step(&mut agent_v3(tree, json!([])));
    assert_eq!(status, Status::Success, "rule 12");
    assert_eq!(ticked(&events), ["F"]);
}

#[test]
fn rule79_a_decorator_node_whose_child_is_disabled_is_absent_too() {
    // Inverter [A off]: the Inverter cannot run without its child, so it is left out of
    // the Sequence as well; B runs.
    let inverter =
        json!({"type": "Inverter", "name": "I", "children": [off(scripted("A", &["failure"]))]});
    let tree = seq("S", vec![inverter, scripted("B", &["success"])]);
    let (status, events) = step(&mut agent_v3(tree, json!([])));
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), ["B", "S"]);
    // A positional composite loses no child: IfThenElse with its `then` off is absent.
    let ite = json!({"type": "IfThenElse", "name": "If", "children": [
        scripted("Cond", &["success"]), off(scripted("Then", &["failure"])), scripted("Else", &["failure"]),
    ]});
    let tree = seq("S", vec![ite, scripted("B", &["success"])]);
    let (status, events) = step(&mut agent_v3(tree, json!([])));
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), ["B", "S"]);
}

#[test]
fn rule79_a_disabled_root_runs_as_an_empty_sequence() {
    let tree = off(
        json!({"type": "Repeat", "name": "Root", "params": {"count": 3},
        "decorators": [{"type": "Inverter"}],
        "children": [scripted("A", &["success"])]}),
    );
    let mut a = agent_v3(tree, json!([]));
    for _ in 0..2 {
        let (status, events) = step(&mut a);
        assert_eq!(
            status,
            Status::Success,
            "no Inverter, no Repeat: success at once"
        );
        assert_eq!(
            events,
            ["enter Root", "tick Root success", "exit Root success"]
        );
    }
    // Disabling the root's only child makes the root (a decorator node) absent the same way.
    let tree =
        json!({"type": "Inverter", "name": "Root", "children": [off(scripted("A", &["success"]))]});
    let (status, events) = step(&mut agent_v3(tree, json!([])));
    assert_eq!(status, Status::Success);
    assert_eq!(ticked(&events), ["Root"]);
}

#[test]
fn rule79_a_disabled_node_never_aborts_with_its_conditions() {
    // Selector [A guarded by a LowerPriority condition on `go`, B running]: with A
    // enabled, `go` turning true aborts B; with A disabled it never does.
    let flags = json!([{"key": "go", "type": "bool", "default": false}]);
    let guarded = |enabled: bool| {
        let mut a = scripted_with(
            "A",
            &["success"],
            json!([{"type": "Condition", "params": {"key": "go", "equals": true, "abort": "LowerPriority"}}]),
        );
        a["enabled"] = json!(enabled);
        sel("F", vec![a, scripted("B", &["running"])])
    };
    for enabled in [true, false] {
        let mut a = agent_v3(guarded(enabled), flags.clone());
        assert_eq!(step(&mut a).0, Status::Running);
        bb_set(&mut a, "go", json!(true));
        let (status, events) = step(&mut a);
        if enabled {
            assert_eq!(status, Status::Success);
            assert!(events.contains(&"abort B".to_owned()), "{events:?}");
        } else {
            assert_eq!(status, Status::Running);
            assert!(!events.iter().any(|e| e.starts_with("abort")), "{events:?}");
            assert!(
                !events.iter().any(|e| e.contains(" A")),
                "A is never looked at: {events:?}"
            );
        }
    }
}
