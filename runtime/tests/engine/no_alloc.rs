//! Ticking does not allocate: after the first tick, a tree of built-in nodes (every kind,
//! attached decorators, aborts, events, triggers, timers) ticks with zero heap allocations,
//! untraced and with an observer. The test binary's counting global allocator proves it (as
//! bonsai-bt does; engine/counting_alloc.rs). Counts are per thread, so other tests running in
//! parallel cannot disturb them.

use crate::common;

use arbor_runtime::TraceEvent;
use serde_json::json;

use super::counting_alloc::allocations;

/// A tree that exercises every built-in node kind and attached decorator.
fn busy_tree() -> serde_json::Value {
    json!({"type": "Parallel", "name": "root", "params": {"need": 2}, "children": [
        {"type": "Selector", "name": "guard", "params": {"dynamic": false}, "children": [
            {"type": "Sequence", "name": "alarm", "decorators": [
                {"type": "CheckEvent", "params": {"event": "alarm", "abort": "LowerPriority"}},
                {"type": "Condition", "params": {"key": "mood", "equals": "calm", "invert": true}}
            ], "children": [
                {"type": "Log", "name": "shout", "params": {"message": "alarm!"}},
                {"type": "Wait", "name": "hide", "params": {"seconds": 2.5}}
            ]},
            {"type": "Sequence", "name": "patrol", "params": {"dynamic": true}, "children": [
                {"type": "Random", "name": "coin", "params": {"probability": 0.7}},
                {"type": "Timeout", "name": "walk limit", "params": {"seconds": 3}, "children": [
                    {"type": "Scripted", "name": "walk", "params": {"returns": ["running", "running", "success"]}}
                ]},
                {"type": "SetBlackboard", "name": "mood", "params": {"key": "mood", "value": "calm", "ttl": 4}},
                {"type": "SendEvent", "name": "raise", "params": {"event": "alarm"}}
            ]}
        ]},
        {"type": "Repeat", "name": "count", "params": {"count": 0}, "children": [
            {"type": "Sequence", "name": "step", "children": [
                {"type": "Increment", "name": "inc", "params": {"key": "n", "by": 1}},
                {"type": "Retry", "name": "retry", "params": {"attempts": 2}, "children": [
                    {"type": "Scripted", "name": "flaky", "params": {"returns": ["failure", "success", "running"]}}
                ]}
            ]}
        ]},
        {"type": "Sequence", "name": "triggers", "decorators": [
            {"type": "Precondition", "params": {"key": "n", "equals": 1000000, "invert": true}}
        ], "children": [
            {"type": "SetTrigger", "name": "set", "params": {"trigger": "go"}},
            {"type": "Succeeder", "name": "ok", "decorators": [
                {"type": "CheckTrigger", "params": {"trigger": "go", "reset": "LeaveNode", "abort": "Self"}}
            ], "children": [
                {"type": "Limiter", "name": "lim", "params": {"max": 5}, "children": [
                    {"type": "ForceFailure", "name": "ff", "decorators": [{"type": "Inverter"}], "children": [
                        {"type": "Inverter", "name": "inv", "children": [
                            {"type": "Condition", "name": "cond", "params": {"key": "n", "equals_key": "n"}}
                        ]}
                    ]}
                ]}
            ]}
        ]},
        {"type": "Cooldown", "name": "cooldown", "params": {"seconds": 0.3}, "children": [
            {"type": "UtilitySelector", "name": "utility", "params": {"scores": {"$key": "scores"}, "dynamic": true}, "children": [
                {"type": "RandomSelector", "name": "pick", "params": {"weights": [1, 3]}, "children": [
                    {"type": "Scripted", "name": "a", "params": {"returns": ["failure", "running", "success"]}},
                    {"type": "Scripted", "name": "b", "params": {"returns": ["running", "failure"]}}
                ]},
                {"type": "Scripted", "name": "c", "params": {"returns": ["running", "success"]}}
            ]}
        ]}
    ]})
}

fn blackboard() -> serde_json::Value {
    json!([
        {"key": "mood", "type": "string", "default": "calm"},
        {"key": "n", "type": "int", "default": 0},
        {"key": "scores", "type": "list<float>", "default": [2, 1]}
    ])
}

#[test]
fn ticking_builtin_nodes_does_not_allocate() {
    let mut agent = common::agent_v2(busy_tree(), blackboard(), 1);
    agent.tick(&mut (), 0.1);
    let mut seen = [0usize; 3];
    let before = allocations();
    for i in 0..2_000 {
        if i % 7 == 0 {
            agent.raise_event("alarm");
            agent.set_trigger("go");
        }
        let status = agent.tick(&mut (), 0.1);
        seen[status as usize] += 1;
    }
    let after = allocations();
    assert_eq!(after - before, 0, "allocations during 2,000 ticks");
    // The tree did real work: it ran, and statuses varied.
    assert!(seen.iter().filter(|n| **n > 0).count() >= 2, "{seen:?}");
    let n = agent.blackboard().key("n").unwrap();
    assert!(agent.blackboard().get_i64(n).unwrap() > 1_000);
}

#[test]
fn ticking_with_an_observer_does_not_allocate() {
    let mut agent = common::agent_v2(busy_tree(), blackboard(), 1);
    let (mut events, mut aborts) = (0usize, 0usize);
    let mut observer = |e: TraceEvent<'_>| {
        events += 1;
        if matches!(e, TraceEvent::Abort(_)) {
            aborts += 1;
        }
    };
    agent.tick_traced(&mut (), 0.1, &mut observer);
    let before = allocations();
    for i in 0..2_000 {
        if i % 5 == 0 {
            agent.raise_event("alarm");
        }
        agent.tick_traced(&mut (), 0.1, &mut observer);
    }
    assert_eq!(
        allocations() - before,
        0,
        "allocations during 2,000 traced ticks"
    );
    assert!(events > 10_000, "{events} events");
    assert!(aborts > 0, "the tree exercised aborts");
}

#[test]
fn the_counter_counts() {
    // Guards against a vacuous pass: the allocator really is installed and counting.
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(16);
    assert!(allocations() > before);
    drop(v);
}

/// Bound parameters of built-in nodes, host actions reading bound inputs and writing
/// outputs, per-node host state and host condition decorators: still no allocation.
#[test]
fn bound_ports_host_state_and_host_conditions_do_not_allocate() {
    use arbor_runtime::{
        ActionCtx, Agent, InPort, NodeType, OutPort, ParamKind, ParamSpec, Registry,
        StatefulAction, Status,
    };
    use std::sync::Arc;

    struct Step {
        by: InPort<f64>,
        out: OutPort<f64>,
    }
    impl StatefulAction<f64> for Step {
        type State = (u32, f64);
        fn tick(&self, cx: &mut ActionCtx<'_, f64>, state: &mut (u32, f64)) -> Status {
            state.0 += 1;
            state.1 += cx.get(&self.by).unwrap_or(0.0);
            *cx.agent += state.1;
            let total = *cx.agent;
            cx.set(&self.out, total);
            if state.0.is_multiple_of(3) {
                Status::Success
            } else {
                Status::Running
            }
        }
    }
    let mut registry = Registry::<f64>::new();
    registry
        .register_stateful(
            NodeType::action("Step", "")
                .param(ParamSpec::new("by", ParamKind::Float, ""))
                .param(ParamSpec::new("out", ParamKind::Float, "").output()),
            |args| {
                Ok(Step {
                    by: args.port("by")?,
                    out: args.output("out")?,
                })
            },
        )
        .condition(NodeType::condition("Small", ""), |cx| *cx.agent < 1e12);
    let mut file = common::tree_json(
        json!({"type": "Parallel", "params": {"need": 2}, "children": [
            {"type": "Step", "name": "a", "params": {"by": {"$key": "by"}, "out": {"$key": "total"}},
             "decorators": [{"type": "Small", "params": {"abort": "Self"}}]},
            {"type": "Step", "name": "b", "params": {"by": 0.5, "out": {"$key": "total"}}},
            {"type": "Wait", "params": {"seconds": {"$key": "pause"}}},
            {"type": "SetBlackboard", "params": {"key": "copy", "value": {"$key": "total"}}}
        ]}),
        json!([
            {"key": "by", "type": "float", "default": 0.25},
            {"key": "total", "type": "float", "default": 0},
            {"key": "copy", "type": "float"},
            {"key": "pause", "type": "float", "default": 0.3}
        ]),
    );
    file["version"] = json!(2);
    let tree = registry
        .loader()
        .load_str(&file.to_string(), None)
        .expect("loads");
    let mut agent = Agent::new(Arc::new(tree), 1);
    let mut data = 0.0;
    agent.tick(&mut data, 0.1);
    let before = allocations();
    for _ in 0..2_000 {
        agent.tick(&mut data, 0.1);
    }
    assert_eq!(allocations() - before, 0, "allocations during 2,000 ticks");
    let copy = agent.blackboard().key("copy").expect("declared");
    assert!(agent.blackboard().get_f64(copy).is_some_and(|c| c > 100.0));
}

/// Rule 60: a Script node's loads, literals, arithmetic, comparisons, logic, `?:` and
/// building a string with `..` allocate nothing once the scratch has grown; storing a built
/// string that equals the key's text keeps the old value. A built string whose text changes
/// is the one allocation: its `Arc<str>`.
#[test]
fn scripts_allocate_nothing_but_a_changed_string() {
    let blackboard = json!([
        {"key": "n", "type": "int", "default": 1},
        {"key": "s", "type": "string", "default": ""},
        {"key": "f", "type": "float", "default": 0.0},
        {"key": "ok", "type": "bool", "default": false}
    ]);
    let same_each_tick = json!({"type": "Script", "name": "same", "params": {"code":
        "n := n * 2 + 1 - n - 1; f := n / 3; s := 'n=' .. n .. ' f=' .. f; \
         ok := n > 10 && s != '' || !(f < 0); ok ? n & 7 : ~n"}});
    let mut agent = common::agent(same_each_tick, blackboard.clone());
    agent.tick(&mut (), 0.1);
    let before = allocations();
    for _ in 0..100 {
        agent.tick(&mut (), 0.1);
    }
    assert_eq!(allocations() - before, 0, "ticks after the first allocated");
    let s = agent.blackboard().key("s").unwrap();
    assert_eq!(agent.blackboard().get_str(s), Some("n=1 f=0.333333"));

    let changes_each_tick =
        json!({"type": "Script", "name": "count", "params": {"code": "n += 1; s := 'n=' .. n"}});
    let mut agent = common::agent(changes_each_tick, blackboard);
    agent.tick(&mut (), 0.1);
    let before = allocations();
    for _ in 0..10 {
        agent.tick(&mut (), 0.1);
    }
    assert_eq!(allocations() - before, 10, "one string per tick");
}

/// Rule 60: a Script node that builds no string (loads, literals, arithmetic, comparisons,
/// logic, `?:`, stores of numbers and booleans) allocates nothing after the first tick.
#[test]
fn rule60_a_script_that_builds_no_string_allocates_nothing() {
    let blackboard = json!([
        {"key": "n", "type": "int", "default": 1},
        {"key": "f", "type": "float", "default": 0.0},
        {"key": "ok", "type": "bool", "default": false}
    ]);
    let numbers = json!({"type": "Script", "name": "numbers", "params": {"code":
        "n := n + 1; f := n / 4; ok := n > 10 && f >= 0 || !(f < 0); ok ? n & 7 : ~n"}});
    let mut agent = common::agent(numbers, blackboard);
    agent.tick(&mut (), 0.1);
    let before = allocations();
    for _ in 0..1_000 {
        agent.tick(&mut (), 0.1);
    }
    assert_eq!(allocations() - before, 0, "ticks after the first allocated");
    let n = agent.blackboard().key("n").expect("declared");
    assert_eq!(
        agent.blackboard().get_i64(n),
        Some(1_002),
        "the script ran every tick"
    );
}
