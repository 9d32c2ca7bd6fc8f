//! `Population`: sleeping agents (rules 82 to 84) and tick intervals (rule 87), against
//! agents ticked at every frame or at every due frame. Trees with a host action of their
//! own, so they build their own registry and run on the interpreter; the differential test
//! of runtime/codegen-check compares sleeping on random trees and both engines.

use std::sync::Arc;

use arbor_runtime::{
    Agent, CompiledTree, MemberId, NodeDecl, NodeType, Population, Registry, Status,
};
use serde_json::{json, Value};

use crate::common::tree_json;

/// The program's data: when the running `Work` ends, and what it did.
#[derive(Clone, Debug, Default, PartialEq)]
struct Worker {
    until: Option<f64>,
    log: Vec<String>,
}

/// `Work` runs for `seconds` and says it sleeps until then (rule 83); `Note` logs the
/// time and `dt` it is ticked at.
fn compile(root: Value, blackboard: Value) -> Arc<CompiledTree<Worker>> {
    let mut registry = Registry::<Worker>::new();
    registry.action(
        NodeType::action("Work", "Runs for 2 s, asleep.").may_run(),
        |cx| {
            let now = cx.now();
            let until = *cx.agent.until.get_or_insert(now + 2.0);
            if now >= until {
                cx.agent.until = None;
                cx.agent.log.push(format!("work done at {now}"));
                Status::Success
            } else {
                cx.sleep_until(until);
                Status::Running
            }
        },
    );
    registry.action(NodeType::action("Note", "Logs the time."), |cx| {
        let (now, dt) = (cx.now(), cx.dt());
        cx.agent.log.push(format!("note at {now} dt {dt}"));
        Status::Success
    });
    let text = tree_json(root, blackboard).to_string();
    match registry.loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// `Repeat(Sequence(Wait 1 s, Work, Note))`.
fn worker_tree() -> Arc<CompiledTree<Worker>> {
    compile(
        json!({"type": "Repeat", "params": {"count": 0}, "children": [
            {"type": "Sequence", "children": [
                {"type": "Wait", "params": {"seconds": 1.0}},
                {"type": "Work"},
                {"type": "Note"}
            ]}
        ]}),
        json!([]),
    )
}

#[test]
fn rule83_a_sleeping_host_action_is_ticked_only_when_its_time_comes() {
    let tree = worker_tree();
    let mut population = Population::new();
    let id = population.insert(Agent::new(tree.clone(), 1), Worker::default());
    let mut twin = Agent::new(tree, 1);
    let mut data = Worker::default();
    let dt = 1.0 / 60.0;
    for frame in 0..600 {
        population.frame(dt);
        let status = twin.tick(&mut data, dt);
        assert_eq!(population.status(id), Some(status), "frame {frame}");
        assert_eq!(population.data(id), &data, "frame {frame}");
    }
    assert_eq!(data.log.len(), 6, "{:?}", data.log);
    // Each 3 s cycle wakes for the Wait's end and for the Work's: a few ticks, not 180.
    assert!(population.ticks() <= 20, "{} ticks", population.ticks());
}

/// A node declared with `NodeDecl` sleeps as a registered action does: the same tree
/// with `Work` declared gives the same ticks and the same log.
#[test]
fn rule83_a_declared_node_sleeps_as_a_registered_action() {
    let mut registry = Registry::<Worker>::new();
    let work = NodeDecl::<Worker>::action("Work", "Runs for 2 s, asleep.").may_run();
    registry.add(work.tick(|cx| {
        let now = cx.now();
        let until = *cx.agent.until.get_or_insert(now + 2.0);
        if now >= until {
            cx.agent.until = None;
            cx.agent.log.push(format!("work done at {now}"));
            Status::Success
        } else {
            cx.sleep_until(until);
            Status::Running
        }
    }));
    registry.action(NodeType::action("Note", "Logs the time."), |cx| {
        let (now, dt) = (cx.now(), cx.dt());
        cx.agent.log.push(format!("note at {now} dt {dt}"));
        Status::Success
    });
    let text = tree_json(
        json!({"type": "Repeat", "params": {"count": 0}, "children": [
            {"type": "Sequence", "children": [
                {"type": "Wait", "params": {"seconds": 1.0}},
                {"type": "Work"},
                {"type": "Note"}
            ]}
        ]}),
        json!([]),
    )
    .to_string();
    let declared = match registry.loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    };
    let run = |tree: Arc<CompiledTree<Worker>>| {
        let mut population = Population::new();
        let id = population.insert(Agent::new(tree, 1), Worker::default());
        for _ in 0..600 {
            population.frame(1.0 / 60.0);
        }
        (population.ticks(), population.data(id).log.clone())
    };
    let (declared_ticks, declared_log) = run(declared);
    let (registered_ticks, registered_log) = run(worker_tree());
    assert_eq!(declared_log, registered_log);
    assert_eq!(declared_ticks, registered_ticks);
    assert!(declared_ticks <= 20, "{declared_ticks} ticks");
}

#[test]
fn rule84_a_blackboard_write_wakes_a_sleeping_agent() {
    let tree = compile(
        json!({"type": "Wait", "params": {"seconds": 100.0}, "decorators": [
            {"type": "Condition", "params": {"key": "stop", "equals": false, "abort": "Self"}}
        ]}),
        json!([{"key": "stop", "type": "bool", "default": false}]),
    );
    let mut population = Population::new();
    let id = population.insert(Agent::new(tree, 1), Worker::default());
    for _ in 0..10 {
        population.frame(0.1);
    }
    assert_eq!(population.ticks(), 1, "asleep after its first tick");
    assert_eq!(population.status(id), Some(Status::Running));
    let stop = population.agent(id).blackboard().key("stop");
    let Some(stop) = stop else {
        panic!("the tree declares `stop`")
    };
    population
        .blackboard_mut(id)
        .set(stop, true)
        .expect("a bool key");
    population.frame(0.1);
    assert_eq!(population.ticks(), 2);
    assert_eq!(population.status(id), Some(Status::Failure));
}

#[test]
fn rule84_an_event_or_trigger_wakes_a_sleeping_agent() {
    let tree = compile(
        json!({"type": "Wait", "params": {"seconds": 100.0}, "decorators": [
            {"type": "CheckEvent", "params": {"event": "alarm", "invert": true, "abort": "Self"}}
        ]}),
        json!([]),
    );
    let mut population = Population::new();
    let id = population.insert(Agent::new(tree, 1), Worker::default());
    population.frame(0.1);
    population.frame(0.1);
    assert_eq!(population.ticks(), 1);
    assert!(population.raise_event(id, "alarm"));
    population.frame(0.1);
    assert_eq!(population.status(id), Some(Status::Failure));
}

#[test]
fn rule87_an_interval_ticks_at_due_frames_with_the_time_accumulated() {
    let tree = compile(json!({"type": "Note"}), json!([]));
    let mut population = Population::new();
    let id = population.insert(Agent::new(tree, 1), Worker::default());
    population.set_interval(id, 0.25);
    let dt = 1.0 / 60.0;
    for _ in 0..60 {
        population.frame(dt);
    }
    // Frames 1, 16, 31 and 46 (1-based): 15 frames of 1/60 s apart.
    let log = &population.data(id).log;
    assert_eq!(population.ticks(), 4, "{log:?}");
    for line in &log[1..] {
        let dt: f64 = line
            .rsplit(' ')
            .next()
            .and_then(|d| d.parse().ok())
            .unwrap_or(f64::NAN);
        assert!((dt - 0.25).abs() < 1e-9, "{line}");
    }
}

#[test]
fn rule87_a_sleeping_agent_with_an_interval_wakes_at_a_due_frame() {
    let tree = worker_tree();
    let (mut sleeping, mut awake) = (Population::new(), Population::new());
    let a = sleeping.insert(Agent::new(tree.clone(), 1), Worker::default());
    let b = awake.insert(Agent::new(tree, 1), Worker::default());
    sleeping.set_interval(a, 0.2);
    awake.set_interval(b, 0.2);
    awake.set_sleeps(b, false);
    for frame in 0..900 {
        sleeping.frame(1.0 / 60.0);
        awake.frame(1.0 / 60.0);
        assert_eq!(sleeping.data(a), awake.data(b), "frame {frame}");
        assert_eq!(sleeping.status(a), awake.status(b), "frame {frame}");
    }
    // Cycles of Wait 1 s and Work 2 s, each ending at a due frame: 4 in 15 s.
    assert_eq!(awake.data(b).log.len(), 8, "{:?}", awake.data(b).log);
    assert!(sleeping.ticks() * 4 < awake.ticks());
}

#[test]
fn population_ids_are_insertion_order() {
    let tree = worker_tree();
    let mut population = Population::new();
    let ids: Vec<MemberId> = (0..3)
        .map(|i| population.insert(Agent::new(tree.clone(), i), Worker::default()))
        .collect();
    assert_eq!(ids, [MemberId(0), MemberId(1), MemberId(2)]);
    assert_eq!(population.len(), 3);
}
