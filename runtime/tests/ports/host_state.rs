//! Per-node host state (`StatefulAction`): one state per agent per node, fresh as each
//! execution enters, reachable in every hook, created with the agent (no allocation while
//! ticking) and counted in `state_size`. Two nodes of the same type never share it, not
//! even when they run side by side under a Parallel.

use crate::common;

use std::sync::Arc;

use arbor_runtime::{
    ActionCtx, Agent, CompiledTree, InPort, NodeType, ParamKind, ParamSpec, Registry,
    StatefulAction, Status,
};
use common::tree_json;
use serde_json::{json, Value};

/// Counts its own ticks and succeeds after `ticks` of them; logs what it saw.
struct CountTo {
    ticks: InPort<i64>,
    label: String,
}

#[derive(Clone, Default)]
struct Count {
    ticks: i64,
    entered: bool,
}

impl StatefulAction<Vec<String>> for CountTo {
    type State = Count;
    fn enter(&self, _: &mut ActionCtx<'_, Vec<String>>, state: &mut Count) {
        assert_eq!(state.ticks, 0, "a fresh state on every enter");
        state.entered = true;
    }
    fn tick(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Count) -> Status {
        assert!(state.entered, "the state enter set is the one tick sees");
        state.ticks += 1;
        cx.agent.push(format!("{} {}", self.label, state.ticks));
        let goal = cx.get(&self.ticks).unwrap_or(1);
        if state.ticks >= goal {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn exit(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Count, status: Status) {
        cx.agent.push(format!(
            "{} exit {status} after {}",
            self.label, state.ticks
        ));
    }
    fn abort(&self, cx: &mut ActionCtx<'_, Vec<String>>, state: &mut Count) {
        cx.agent
            .push(format!("{} abort after {}", self.label, state.ticks));
    }
}

fn registry() -> Registry<Vec<String>> {
    let mut registry = Registry::new();
    registry.register_stateful(
        NodeType::action("CountTo", "Succeeds after its own n-th tick.")
            .param(ParamSpec::new("ticks", ParamKind::Int, "How many."))
            .param(ParamSpec::new("label", ParamKind::String, "For the log.")),
        |args| {
            Ok(CountTo {
                ticks: args.port("ticks")?,
                label: args.str("label")?.to_owned(),
            })
        },
    );
    registry
}

fn count_to(label: &str, ticks: i64) -> Value {
    json!({"type": "CountTo", "name": label, "params": {"ticks": ticks, "label": label}})
}

fn load(root: Value) -> Arc<CompiledTree<Vec<String>>> {
    let text = tree_json(root, json!([])).to_string();
    Arc::new(registry().loader().load_str(&text, None).expect("loads"))
}

#[test]
fn rule46_two_instances_under_a_parallel_keep_separate_state() {
    let root = json!({"type": "Parallel", "params": {"need": 2},
        "children": [count_to("A", 2), count_to("B", 3)]});
    let mut agent = Agent::new(load(root), 1);
    let mut log = Vec::new();
    assert_eq!(agent.tick(&mut log, 1.0), Status::Running);
    assert_eq!(agent.tick(&mut log, 1.0), Status::Running);
    assert_eq!(agent.tick(&mut log, 1.0), Status::Success);
    assert_eq!(
        log,
        [
            "A 1",
            "B 1",
            "A 2",
            "A exit success after 2",
            "B 2",
            "B 3",
            "B exit success after 3"
        ]
    );
}

#[test]
fn rule46_each_agent_has_its_own_state_and_a_clone_copies_it() {
    let tree = load(count_to("A", 3));
    let (mut one, mut two) = (Agent::new(tree.clone(), 1), Agent::new(tree, 2));
    let (mut log1, mut log2) = (Vec::new(), Vec::new());
    one.tick(&mut log1, 1.0);
    one.tick(&mut log1, 1.0);
    two.tick(&mut log2, 1.0);
    assert_eq!(log1, ["A 1", "A 2"]);
    assert_eq!(log2, ["A 1"]);
    let mut copy = one.clone();
    let mut log3 = Vec::new();
    assert_eq!(copy.tick(&mut log3, 1.0), Status::Success);
    assert_eq!(log3, ["A 3", "A exit success after 3"]);
}

#[test]
fn rule46_state_starts_afresh_on_every_execution_and_reaches_abort() {
    let root = json!({"type": "Timeout", "params": {"seconds": 2},
        "children": [count_to("A", 5)]});
    let mut agent = Agent::new(load(root), 1);
    let mut log = Vec::new();
    for _ in 0..4 {
        agent.tick(&mut log, 1.0);
    }
    // Aborted by the Timeout on its third tick, then entered afresh.
    assert_eq!(
        log,
        [
            "A 1",
            "A 2",
            "A abort after 2",
            "A exit failure after 2",
            "A 1"
        ]
    );
}

#[test]
fn state_size_counts_host_state() {
    let stateless = {
        let mut registry = Registry::<Vec<String>>::new();
        registry.action(NodeType::action("CountTo", ""), |_| Status::Success);
        let text = tree_json(json!({"type": "CountTo"}), json!([])).to_string();
        registry
            .loader()
            .load_str(&text, None)
            .expect("loads")
            .state_size()
    };
    let stateful = load(count_to("A", 1)).state_size();
    assert!(
        stateful >= stateless + std::mem::size_of::<Count>(),
        "{stateful} vs {stateless}"
    );
}

#[test]
fn reload_aborts_running_actions_through_their_hooks_first() {
    let mut agent = Agent::new(load(count_to("A", 10)), 1);
    let mut log = Vec::new();
    agent.tick(&mut log, 1.0);
    agent.reload(&mut log, load(count_to("B", 10)));
    assert_eq!(log, ["A 1", "A abort after 1", "A exit failure after 1"]);
    agent.tick(&mut log, 1.0);
    assert_eq!(
        log.last().map(String::as_str),
        Some("B 1"),
        "the new tree starts afresh"
    );
}

#[test]
fn rule46_a_host_condition_never_runs_and_host_nodes_see_the_clock_and_the_seeded_generator() {
    let mut registry = Registry::<Vec<String>>::new();
    registry.condition(NodeType::condition("Late", "True from t = 2 on."), |cx| {
        cx.now() >= 2.0
    });
    registry.action(
        NodeType::action("Roll", "Logs a draw of the agent's generator."),
        |cx| {
            let draw = cx.rng().i64(0..1_000_000);
            cx.agent.push(draw.to_string());
            Status::Success
        },
    );
    let root = json!({"type": "Sequence", "children": [{"type": "Roll"}, {"type": "Late"}]});
    let text = tree_json(root, json!([])).to_string();
    let tree = Arc::new(registry.loader().load_str(&text, None).expect("loads"));
    let run = |seed| {
        let mut agent = Agent::new(tree.clone(), seed);
        let mut log = Vec::new();
        let statuses: Vec<Status> = (0..3).map(|_| agent.tick(&mut log, 1.0)).collect();
        (statuses, log)
    };
    let (statuses, log) = run(7);
    // `false` at t=1 is failure, `true` from t=2 on success; never running.
    assert_eq!(
        statuses,
        [Status::Failure, Status::Success, Status::Success]
    );
    assert_eq!(log.len(), 3);
    assert_eq!(
        run(7),
        (statuses, log.clone()),
        "the same seed, the same run"
    );
    assert_ne!(run(8).1, log, "the draws come from the agent's seed");
}
