//! Rules 73 to 75: composites and decorators written with the public `Control` API. A
//! type runs as what it is registered as; a control's hooks run in rule 3's and rule 28's
//! order; it ticks and aborts children through the engine; children it leaves running
//! are aborted when it completes; its state is per agent, persistent, and fresh after a
//! reload; ticking allocates nothing.

use std::sync::Arc;

use arbor_runtime::{
    Agent, Control, ControlCtx, NodeType, Recorder, Registry, StatefulAction, Status,
};
use serde_json::{json, Value};

use super::counting_alloc::allocations;
use crate::common::{render, strs, tree_json};

/// What the hooks of the test controls saw, in order.
type Log = Vec<String>;

/// Ticks every child each tick, in order; succeeds when child 0 succeeds (leaving the
/// others as they are), fails when child 0 fails. Logs its hooks and counts its ticks in
/// its state.
struct Both;

impl Control<Log> for Both {
    type State = u32;
    fn enter(&self, cx: &mut ControlCtx<'_, Log>, _: &mut u32) {
        // Rule 74: outside `tick` a child cannot be ticked.
        let status = cx.tick_child(0);
        cx.agent()
            .push(format!("enter (tick_child gives {status})"));
    }
    fn tick(&self, cx: &mut ControlCtx<'_, Log>, ticks: &mut u32) -> Status {
        *ticks += 1;
        let ticks = *ticks;
        cx.agent().push(format!("tick {ticks}"));
        let first = cx.tick_child(0);
        for k in 1..cx.child_count() {
            cx.tick_child(k);
        }
        first
    }
    fn exit(&self, cx: &mut ControlCtx<'_, Log>, _: &mut u32, status: Status) {
        cx.agent().push(format!("exit {status}"));
    }
    fn abort(&self, cx: &mut ControlCtx<'_, Log>, _: &mut u32) {
        cx.agent().push("abort".to_owned());
    }
}

/// Returns what its only child returns, or `failure` for child 5, which does not exist.
struct Missing;

impl<C> Control<C> for Missing {
    type State = ();
    fn tick(&self, cx: &mut ControlCtx<'_, C>, _: &mut ()) -> Status {
        cx.tick_child(5)
    }
}

/// Returns what its first child returns; keeps nothing, logs nothing.
struct Pass;

impl<C> Control<C> for Pass {
    type State = ();
    fn tick(&self, cx: &mut ControlCtx<'_, C>, _: &mut ()) -> Status {
        cx.tick_child(0)
    }
}

/// Scripted-like host leaf: returns its `returns` in turn, from a per-node state.
struct Script(Vec<Status>);

impl<C> StatefulAction<C> for Script {
    type State = usize;
    fn tick(&self, _: &mut arbor_runtime::ActionCtx<'_, C>, k: &mut usize) -> Status {
        // Persists only within an execution: a StatefulAction's state resets on enter.
        let status = self.0[(*k).min(self.0.len() - 1)];
        *k += 1;
        status
    }
}

fn registry() -> Registry<Log> {
    let mut r = Registry::<Log>::new();
    r.composite(NodeType::composite("Both", "Ticks all children."), |_| {
        Ok(Both)
    })
    .decorator(NodeType::decorator("Missing", "Ticks child 5."), |_| {
        Ok(Missing)
    });
    r
}

fn load(registry: &Registry<Log>, root: Value) -> Arc<arbor_runtime::CompiledTree<Log>> {
    let text = tree_json(root, json!([])).to_string();
    match registry.loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("loads: {e}"),
    }
}

fn scripted(name: &str, returns: &[&str]) -> Value {
    json!({"type": "Scripted", "name": name, "params": {"returns": returns}})
}

fn step(agent: &mut Agent<Log>, log: &mut Log) -> (Status, Vec<String>) {
    let mut rec = Recorder::default();
    let status = agent.tick_traced(log, 1.0, &mut rec);
    (status, render(agent.tree(), &rec))
}

#[test]
#[should_panic(expected = "`Fork` is declared as a Composite but registered as a leaf")]
fn rule73_a_composite_registered_as_a_leaf_is_refused() {
    let mut r = Registry::<()>::new();
    r.action(
        NodeType::new("Fork", arbor_runtime::Category::Composite, "Forks."),
        |_| Status::Success,
    );
}

#[test]
#[should_panic(expected = "`Jump` is declared as a Action but registered as a composite")]
fn rule73_a_leaf_registered_as_a_composite_is_refused() {
    let mut r = Registry::<()>::new();
    r.composite(NodeType::action("Jump", "Jumps."), |_| Ok(Missing));
}

#[test]
#[should_panic(expected = "registered as a decorator")]
fn rule73_a_composite_registered_as_a_decorator_is_refused() {
    let mut r = Registry::<()>::new();
    r.decorator(NodeType::composite("Fork", "Forks."), |_| Ok(Missing));
}

#[test]
fn rule73_children_are_checked_against_the_registered_kind() {
    let r = registry();
    let two = json!({"type": "Missing", "children": [scripted("A", &["success"]), scripted("B", &["success"])]});
    let text = tree_json(two, json!([])).to_string();
    let err = r.loader().load_str(&text, None).expect_err("two children");
    assert!(err.to_string().contains("exactly one child"), "{err}");
    let empty = json!({"type": "Both", "name": "empty"});
    let tree = load(&r, empty);
    assert!(
        tree.warnings()
            .iter()
            .any(|w| w.to_string().contains("no children")),
        "{:?}",
        tree.warnings()
    );
}

#[test]
fn rule74_hooks_run_in_lifecycle_order_and_children_left_running_are_aborted() {
    let r = registry();
    let tree = load(
        &r,
        json!({"type": "Both", "name": "both", "children": [
            scripted("A", &["running", "success"]),
            scripted("B", &["running"]),
        ]}),
    );
    let mut agent = Agent::new(tree, 1);
    let mut log = Log::new();
    let (status, _) = step(&mut agent, &mut log);
    assert_eq!(status, Status::Running);
    let (status, events) = step(&mut agent, &mut log);
    assert_eq!(status, Status::Success);
    assert_eq!(
        events,
        strs(&[
            "tick A success",
            "exit A success",
            "tick B running",
            "abort B",
            "exit B aborted",
            "tick both success",
            "exit both success",
        ])
    );
    assert_eq!(
        log,
        strs(&[
            "enter (tick_child gives failure)",
            "tick 1",
            "tick 2",
            "exit success"
        ])
    );
}

#[test]
fn rule74_an_aborted_control_aborts_its_children_then_runs_abort_and_exit() {
    let r = registry();
    let tree = load(
        &r,
        json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
            {"type": "Both", "name": "both", "children": [scripted("A", &["running"])]}
        ]}),
    );
    let mut agent = Agent::new(tree, 1);
    let mut log = Log::new();
    step(&mut agent, &mut log);
    let (status, events) = step(&mut agent, &mut log);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&[
            "enter T",
            "abort both",
            "abort A",
            "exit A aborted",
            "exit both aborted",
            "tick T failure",
            "exit T failure",
        ])
        .into_iter()
        .filter(|e| e != "enter T")
        .collect::<Vec<_>>()
    );
    assert_eq!(&log[2..], strs(&["abort", "exit failure"]));
}

#[test]
fn rule74_a_child_that_does_not_exist_gives_failure() {
    let r = registry();
    let tree = load(
        &r,
        json!({"type": "Missing", "name": "m", "children": [scripted("A", &["success"])]}),
    );
    let mut agent = Agent::new(tree, 1);
    let (status, events) = step(&mut agent, &mut Log::new());
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["enter m", "tick m failure", "exit m failure"])
    );
}

#[test]
fn rule75_state_persists_per_agent_and_starts_afresh_on_reload() {
    let r = registry();
    let root = json!({"type": "Both", "name": "both", "children": [scripted("A", &["success"])]});
    let tree = load(&r, root.clone());
    let (mut a, mut b) = (Agent::new(tree.clone(), 1), Agent::new(tree, 2));
    let (mut la, mut lb) = (Log::new(), Log::new());
    for _ in 0..3 {
        step(&mut a, &mut la);
    }
    step(&mut b, &mut lb);
    // One execution per tick, and the count went on across them: persistent state.
    assert!(la.contains(&"tick 3".to_owned()), "{la:?}");
    assert!(lb.contains(&"tick 1".to_owned()) && !lb.contains(&"tick 2".to_owned()));
    a.reload(&mut la, load(&r, root));
    la.clear();
    step(&mut a, &mut la);
    assert!(
        la.contains(&"tick 1".to_owned()),
        "fresh after reload: {la:?}"
    );
}

#[test]
fn rule75_reload_aborts_a_running_control() {
    let r = registry();
    let root = json!({"type": "Both", "name": "both", "children": [scripted("A", &["running"])]});
    let tree = load(&r, root.clone());
    let mut agent = Agent::new(tree, 1);
    let mut log = Log::new();
    step(&mut agent, &mut log);
    agent.reload(&mut log, load(&r, root));
    assert_eq!(&log[log.len() - 2..], strs(&["abort", "exit failure"]));
}

#[test]
fn rule75_ticking_controls_does_not_allocate() {
    let mut quiet = Registry::<()>::new();
    quiet.register_stateful(NodeType::action("Step", "Runs, then succeeds."), |_| {
        Ok(Script(vec![Status::Running, Status::Success]))
    });
    quiet.decorator(NodeType::decorator("Quiet", "Passes through."), |_| {
        Ok(Pass)
    });
    let text = tree_json(
        json!({"type": "Sequence", "children": [
            {"type": "Quiet", "children": [{"type": "Step"}]},
            {"type": "RandomSelector", "params": {"weights": [1, 2]}, "children": [{"type": "Step"}, scripted("F", &["failure"])]},
            {"type": "Cooldown", "params": {"seconds": 0.5}, "children": [{"type": "Step"}]},
            {"type": "UtilitySelector", "params": {"scores": [1, 2], "dynamic": true}, "children": [{"type": "Step"}, {"type": "Step"}]}
        ]}),
        json!([]),
    )
    .to_string();
    let tree = Arc::new(quiet.loader().load_str(&text, None).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    agent.tick(&mut (), 0.1);
    let before = allocations();
    let mut seen = [0usize; 3];
    for _ in 0..1_000 {
        seen[agent.tick(&mut (), 0.1) as usize] += 1;
    }
    assert_eq!(allocations() - before, 0, "allocations during 1,000 ticks");
    assert!(
        seen[Status::Running as usize] > 0,
        "the tree did work: {seen:?}"
    );
}
