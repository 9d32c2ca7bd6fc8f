//! Rule 61: a host control or decorator whose type declares a `stand_in` runs, where the
//! program registered no implementation for it, as that built-in kind: it ticks its
//! children. A registered implementation wins; checking alone needs neither.

use crate::common;

use arbor_runtime::{
    check_str, Category, LoadOptions, NodeType, NodeTypes, Recorder, Registry, StandIn, Status,
};
use common::{render, scripted, ticked, tree_json};
use serde_json::{json, Value};

fn manifest() -> NodeTypes {
    let mut types = NodeTypes::builtin();
    let text = r#"{"format": "arbor-node-types", "version": 1, "nodes": [
        {"name": "Pipeline", "category": "Composite", "stand_in": "reactive_sequence"},
        {"name": "Recovery", "category": "Composite", "stand_in": "fallback"},
        {"name": "Throttle", "category": "Decorator", "stand_in": "pass_through",
         "params": [{"name": "hz", "type": "float", "default": 1.0}]},
        {"name": "Negate", "category": "Decorator", "stand_in": "inverter"},
        {"name": "Mystery", "category": "Decorator"}]}"#;
    types.merge_manifest(text).expect("the manifest reads");
    types
}

/// A registry that provides no program for the manifest's types.
fn declared() -> Registry<()> {
    let mut registry = Registry::new();
    for ty in manifest().nodes().filter(|t| t.host) {
        registry.declare(ty.clone());
    }
    registry
}

fn nav(leaf_follow: &[&str]) -> Value {
    json!({"type": "Recovery", "name": "recover", "children": [
        {"type": "Pipeline", "name": "pipeline", "children": [
            {"type": "Throttle", "name": "rate", "params": {"hz": 2.0},
             "children": [scripted("plan", &["success"])]},
            scripted("follow", leaf_follow)]},
        scripted("clear", &["success"])]})
}

fn run(registry: &Registry<()>, root: Value, ticks: usize) -> Vec<(Status, Vec<String>)> {
    let text = tree_json(root, json!([])).to_string();
    let tree = match registry.loader().load_str(&text, None) {
        Ok(t) => std::sync::Arc::new(t),
        Err(e) => panic!("loads: {e}"),
    };
    let mut agent = arbor_runtime::Agent::new(tree, 1);
    (0..ticks)
        .map(|_| {
            let mut rec = Recorder::default();
            let status = agent.tick_traced(&mut (), 1.0, &mut rec);
            (status, ticked(&render(agent.tree(), &rec)))
        })
        .collect()
}

#[test]
fn rule61_host_controls_and_decorators_run_as_their_stand_in() {
    let ticks = run(&declared(), nav(&["running", "failure"]), 2);
    // The reactive pipeline re-ticks `plan` under the pass-through `rate` while `follow`
    // runs; `follow` fails, so the Fallback `recover` runs `clear`.
    assert_eq!(ticks[0].0, Status::Running);
    assert_eq!(
        ticks[0].1,
        ["plan", "rate", "follow", "pipeline", "recover"]
    );
    assert_eq!(ticks[1].0, Status::Success);
    assert_eq!(
        ticks[1].1,
        ["plan", "rate", "follow", "pipeline", "clear", "recover"]
    );
}

#[test]
fn rule61_decorator_stand_ins_change_the_status_as_the_built_in_does() {
    let root = json!({"type": "Negate", "name": "not",
                      "children": [scripted("a", &["success", "running", "failure"])]});
    let statuses: Vec<Status> = run(&declared(), root, 3).into_iter().map(|t| t.0).collect();
    assert_eq!(
        statuses,
        [Status::Failure, Status::Running, Status::Success]
    );
}

#[test]
fn rule61_a_registered_program_wins_over_the_stand_in() {
    /// The program's own Throttle: ticks its child and fails whatever it returns.
    struct Closed;
    impl arbor_runtime::Control<()> for Closed {
        type State = ();
        fn tick(&self, cx: &mut arbor_runtime::ControlCtx<'_, ()>, _: &mut ()) -> Status {
            cx.tick_child(0);
            Status::Failure
        }
    }
    let mut registry = declared();
    let ty = manifest().node("Throttle").cloned().expect("declared");
    registry.decorator(ty, |_| Ok(Closed));
    let root = json!({"type": "Throttle", "name": "rate",
                      "children": [scripted("plan", &["success"])]});
    let ticks = run(&registry, root, 1);
    // The program's decorator runs instead of the pass-through (rule 73).
    assert_eq!(
        ticks[0],
        (Status::Failure, vec!["plan".to_owned(), "rate".to_owned()])
    );
}

#[test]
fn rule61_without_a_stand_in_or_program_the_node_has_no_implementation() {
    let text = tree_json(
        json!({"type": "Mystery", "children": [scripted("a", &["success"])]}),
        json!([]),
    )
    .to_string();
    let err = declared()
        .loader()
        .load_str(&text, None)
        .map(|_| ())
        .expect_err("no implementation");
    assert!(err.to_string().contains("Mystery"), "{err}");
    // Checking alone needs no program, stand-in or not.
    let report = check_str(&text, None, &manifest(), &LoadOptions::default());
    assert!(report.is_ok(), "{report:?}");
}

#[test]
fn rule61_stand_ins_are_declared_by_code_too() {
    let ty = NodeType::new("Gate", Category::Decorator, "").stand_in(StandIn::ForceFailure);
    let mut registry = Registry::<()>::new();
    registry.declare(ty);
    let root = json!({"type": "Gate", "children": [scripted("a", &["success"])]});
    assert_eq!(run(&registry, root, 1)[0].0, Status::Failure);
}
