//! ArborPlugin in a headless app: trees load as assets, agents start and tick in
//! parallel, host actions reach the entity's component, a changed asset reloads the
//! agents, and a broken tree's problems are reported.

use crate::common;

use std::sync::Arc;

use arbor_bevy::{ArborAgent, ArborPlugin, ArborTree, CompiledTrees, TreeProblems};
use arbor_runtime::{NodeType, Registry, Status};
use bevy_app::App;
use bevy_asset::Assets;
use bevy_ecs::component::Component;

#[derive(Component, Default)]
struct Counter {
    steps: u32,
}

fn app() -> App {
    let mut registry = Registry::<Counter>::new();
    // Reaches the entity's own component; runs until 3 steps.
    registry.action(NodeType::action("Step", "Counts a step."), |cx| {
        cx.agent.steps += 1;
        if cx.agent.steps % 3 == 0 {
            Status::Success
        } else {
            Status::Running
        }
    });
    // Reaches the component too, and fails: for the reload test.
    registry.action(NodeType::action("Stop", "Fails."), |_| Status::Failure);
    common::app(ArborPlugin::new(registry).fixed_dt(0.1))
}

#[test]
fn agents_tick_in_parallel_and_reach_their_entity() {
    let mut app = app();
    let tree = common::load::<Counter>(&mut app, "steps.json");
    let entities: Vec<_> = (0..200)
        .map(|i| common::spawn::<Counter>(&mut app, &tree, i))
        .collect();
    for _ in 0..6 {
        app.update();
    }
    for e in entities {
        let steps = app
            .world()
            .entity(e)
            .get::<Counter>()
            .expect("counter")
            .steps;
        // Six ticks; on ticks 3 and 5 a Step succeeded and Repeat ran it again in the same
        // tick (rule 17): 8 steps.
        assert_eq!(steps, 8);
        let mut entity = app.world_mut().entity_mut(e);
        let mut agent = entity.get_mut::<ArborAgent<Counter>>().expect("agent");
        // Repeat forever over a Step that succeeds every third tick: running.
        assert_eq!(agent.last_status(), Some(Status::Running));
        assert!(agent.agent_mut().is_some());
    }
}

#[test]
fn a_changed_tree_asset_reloads_its_agents() {
    let mut app = app();
    let tree = common::load::<Counter>(&mut app, "steps.json");
    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    let first = app
        .world()
        .resource::<CompiledTrees<Counter>>()
        .get(&tree)
        .cloned()
        .unwrap();
    // Hot reload as the file watcher would: the root becomes `Stop`.
    let mut changed = app
        .world()
        .resource::<Assets<ArborTree>>()
        .get(&tree)
        .unwrap()
        .clone();
    let root = changed.file.root.clone().unwrap();
    let node = changed
        .file
        .nodes
        .iter_mut()
        .find(|n| n.guid == root)
        .unwrap();
    node.kind = "Stop".into();
    node.params.clear();
    node.children.clear();
    changed.file.nodes.retain(|n| n.guid == root);
    let _ = app
        .world_mut()
        .resource_mut::<Assets<ArborTree>>()
        .insert(&tree, changed);
    app.update();
    app.update();
    let second = app
        .world()
        .resource::<CompiledTrees<Counter>>()
        .get(&tree)
        .cloned()
        .unwrap();
    assert!(!Arc::ptr_eq(&first, &second), "recompiled");
    let mut entity = app.world_mut().entity_mut(e);
    let mut agent = entity.get_mut::<ArborAgent<Counter>>().unwrap();
    assert_eq!(agent.last_status(), Some(Status::Failure));
    assert!(
        Arc::ptr_eq(agent.agent_mut().unwrap().tree(), &second),
        "the agent switched"
    );
}

#[test]
fn a_broken_tree_reports_every_problem_located() {
    let mut app = app();
    let tree = common::load::<Counter>(&mut app, "broken.json");
    let problems = app.world().resource::<TreeProblems>();
    let lines = problems
        .by_tree
        .get(&tree.id())
        .expect("problems")
        .join("\n");
    assert!(lines.contains("$.nodes[1]"), "{lines}");
    assert!(lines.contains("did you mean `Step`?"), "{lines}");
    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    let mut entity = app.world_mut().entity_mut(e);
    let mut agent = entity.get_mut::<ArborAgent<Counter>>().unwrap();
    assert!(agent.agent_mut().is_none(), "no tree, no agent");
}
