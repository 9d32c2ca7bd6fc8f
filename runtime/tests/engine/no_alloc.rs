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
        ]}
    ]})
}

fn blackboard() -> serde_json::Value {
    json!([
        {"key": "mood", "type": "string", "default": "calm"},
        {"key": "n", "type": "int", "default": 0}
    ])
}

#[test]
fn ticking_builtin_nodes_does_not_allocate() {
    let mut agent = common::agent(busy_tree(), blackboard());
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
    let mut agent = common::agent(busy_tree(), blackboard());
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
