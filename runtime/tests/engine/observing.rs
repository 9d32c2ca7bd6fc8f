//! Sleeping agents whose running path re-checks host conditions that say what they observe
//! (rule 98), host actions that wait for a key (rule 99), and a population's frame on every
//! core, each against agents ticked at every frame.

use std::sync::Arc;

use arbor_runtime::{
    Agent, CompiledTree, MemberId, NodeDecl, NodeType, Observes, Population, Registry, Status,
};
use serde_json::{json, Value};

use crate::common::tree_json;

/// The program's data: what the actions did.
#[derive(Clone, Debug, Default, PartialEq)]
struct Guard {
    log: Vec<String>,
}

/// `Alert` (observes the key bound to `flag`), `Blind` (the same test, declaring nothing),
/// `Watch` (runs until key `go` is true, asleep until it is written) and `Act`.
fn compile(root: Value) -> Arc<CompiledTree<Guard>> {
    let mut registry = Registry::<Guard>::new();
    let mut decl = NodeDecl::<Guard>::condition("Alert", "Whether the flag is up.");
    let flag = decl.input::<bool>("flag").required();
    registry.add(
        decl.observes(Observes::ports())
            .tick(move |cx| Status::from_bool(cx.get(&flag).unwrap_or(false))),
    );
    let mut decl = NodeDecl::<Guard>::condition("Blind", "Whether the flag is up.");
    let flag = decl.input::<bool>("flag").required();
    registry.add(decl.tick(move |cx| Status::from_bool(cx.get(&flag).unwrap_or(false))));
    registry.action(
        NodeType::action("Watch", "Runs until `go` is true.").may_run(),
        |cx| {
            let Some(go) = cx.blackboard.key("go") else {
                return Status::Failure;
            };
            if cx.blackboard.get_bool(go) == Some(true) {
                cx.agent.log.push(format!("go at {}", cx.now()));
                return Status::Success;
            }
            cx.sleep_until_written(go);
            Status::Running
        },
    );
    registry.action(NodeType::action("Act", "Logs the time."), |cx| {
        let now = cx.now();
        cx.agent.log.push(format!("act at {now}"));
        Status::Success
    });
    let blackboard = json!([
        {"key": "alarm", "type": "bool", "default": true},
        {"key": "go", "type": "bool", "default": false},
        {"key": "other", "type": "int", "default": 0}
    ]);
    let mut text = tree_json(root, blackboard);
    // Bindings (`{"$key": …}`) are version 2.
    text["version"] = json!(2);
    let text = text.to_string();
    match registry.loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// In a loop: `Wait 100 s` under a host condition with abort Self, else `Act` and
/// `Wait 1 s`.
fn guarded(condition: &str) -> Arc<CompiledTree<Guard>> {
    compile(
        json!({"type": "Repeat", "params": {"count": 0}, "children": [
            {"type": "Selector", "children": [
                {"type": "Wait", "params": {"seconds": 100.0}, "decorators": [
                    {"type": condition, "params": {"flag": {"$key": "alarm"}, "abort": "Self"}}
                ]},
                {"type": "Sequence", "children": [
                    {"type": "Act"},
                    {"type": "Wait", "params": {"seconds": 1.0}}
                ]}
            ]}
        ]}),
    )
}

/// Runs a population agent and a twin ticked at every frame side by side for `frames`
/// frames, applying `input` to both before frame `at`; returns the population's ticks.
fn side_by_side(
    tree: &Arc<CompiledTree<Guard>>,
    frames: u32,
    at: u32,
    input: impl Fn(&mut Population<Guard>, MemberId, &mut Agent<Guard>),
) -> u64 {
    let mut population = Population::new();
    let id = population.insert(Agent::new(tree.clone(), 1), Guard::default());
    let mut twin = Agent::new(tree.clone(), 1);
    let mut data = Guard::default();
    let dt = 1.0 / 60.0;
    for frame in 0..frames {
        if frame == at {
            input(&mut population, id, &mut twin);
        }
        population.frame(dt);
        let status = twin.tick(&mut data, dt);
        assert_eq!(population.status(id), Some(status), "frame {frame}");
        assert_eq!(population.data(id).log, data.log, "frame {frame}");
    }
    population.ticks()
}

fn write(population: &mut Population<Guard>, id: MemberId, twin: &mut Agent<Guard>, key: &str) {
    let value = json!(key != "alarm");
    let value = if key == "other" { json!(7) } else { value };
    let (a, b) = (
        population.set_json(id, key, &value, None),
        twin.blackboard_mut().set_json(key, &value, None),
    );
    assert_eq!(a.is_ok(), b.is_ok(), "writing {key}");
}

#[test]
fn rule98_an_observing_host_condition_lets_its_agent_sleep_until_its_key_is_written() {
    let tree = guarded("Alert");
    // Nothing written: the agent sleeps through the Wait, after its first tick.
    assert_eq!(side_by_side(&tree, 300, u32::MAX, |_, _, _| {}), 1);
    // Another key written: still asleep, and the same as ticking every frame.
    let other = side_by_side(&tree, 300, 100, |p, id, twin| write(p, id, twin, "other"));
    assert_eq!(other, 1, "a write of a key it does not observe woke it");
    // The observed key written: it wakes, the condition fails, the Wait is aborted and
    // `Act` runs at once, as in the twin (compared frame by frame).
    let alarm = side_by_side(&tree, 300, 100, |p, id, twin| write(p, id, twin, "alarm"));
    assert!(alarm > 1, "the observed key's write did not wake it");
}

#[test]
fn rule98_a_host_condition_that_declares_nothing_keeps_its_agent_awake() {
    let tree = guarded("Blind");
    assert_eq!(side_by_side(&tree, 300, u32::MAX, |_, _, _| {}), 300);
}

#[test]
fn rule99_an_action_waiting_for_a_key_sleeps_until_that_key_is_written() {
    let tree = compile(json!({"type": "Sequence", "children": [
        {"type": "Watch"}, {"type": "Act"}
    ]}));
    assert_eq!(side_by_side(&tree, 200, u32::MAX, |_, _, _| {}), 1);
    let other = side_by_side(&tree, 200, 50, |p, id, twin| write(p, id, twin, "other"));
    assert_eq!(other, 1, "a write of another key woke it");
    // `go` written: woken, ticked once (still false), asleep again.
    let go = side_by_side(&tree, 200, 50, |p, id, twin| {
        let (a, b) = (
            p.set_json(id, "go", &json!(false), None),
            twin.blackboard_mut().set_json("go", &json!(false), None),
        );
        assert!(a.is_ok() && b.is_ok());
    });
    assert_eq!(go, 2);
    // Written true: it ends, and the Sequence restarts at every frame, as its twin's.
    let done = side_by_side(&tree, 200, 50, |p, id, twin| {
        let (a, b) = (
            p.set_json(id, "go", &json!(true), None),
            twin.blackboard_mut().set_json("go", &json!(true), None),
        );
        assert!(a.is_ok() && b.is_ok());
    });
    assert_eq!(done, 151);
}

#[test]
fn rule99_a_write_of_the_key_ends_the_promise() {
    let tree = compile(json!({"type": "Sequence", "children": [
        {"type": "Watch"},
        {"type": "Act"}
    ]}));
    let mut agent = Agent::new(tree, 1);
    let mut data = Guard::default();
    assert_eq!(agent.tick(&mut data, 0.1), Status::Running);
    assert!(agent.next_wake().is_some_and(|w| !w.any_input));
    let go = agent.blackboard().key("go").expect("declared");
    assert!(agent.blackboard_mut().set(go, false).is_ok());
    assert_eq!(agent.next_wake(), None);
}

#[test]
fn a_parallel_frame_ticks_what_a_frame_on_one_core_ticks() {
    let tree = guarded("Alert");
    let (mut one, mut all) = (Population::new(), Population::new());
    for i in 0..3000u64 {
        let start = (i % 97) as f64 * 0.01;
        one.insert_at(Agent::new(tree.clone(), i), Guard::default(), start);
        all.insert_at(Agent::new(tree.clone(), i), Guard::default(), start);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a pool of 4 threads");
    for frame in 0..240u32 {
        if frame % 40 == 7 {
            for i in (frame..3000).step_by(13) {
                let id = MemberId(i);
                let up = json!(frame % 80 == 7);
                assert!(one.set_json(id, "alarm", &up, None).is_ok());
                assert!(all.set_json(id, "alarm", &up, None).is_ok());
            }
        }
        one.frame(0.05);
        pool.install(|| all.frame_parallel(0.05));
        assert_eq!(one.ticks(), all.ticks(), "frame {frame}");
        for i in 0..3000 {
            let id = MemberId(i);
            assert_eq!(one.status(id), all.status(id), "agent {i}, frame {frame}");
            assert_eq!(one.data(id), all.data(id), "agent {i}, frame {frame}");
            assert_eq!(one.pacing(id), all.pacing(id), "agent {i}, frame {frame}");
        }
    }
    assert!(one.ticks() < 3000 * 240 / 2, "{} ticks", one.ticks());
}
