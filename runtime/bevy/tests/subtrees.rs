//! Subtree files are asset dependencies: a tree waits for them, and a changed subtree file
//! recompiles the trees that use it and switches their agents.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_bevy::{ArborAgent, ArborPlugin, ArborTree, CompiledTrees, TreeProblems};
use arbor_runtime::{NodeType, Registry, Status};
use bevy::app::{App, PluginGroup as _, ScheduleRunnerPlugin};
use bevy::asset::{AssetPlugin, Assets, Handle};
use bevy::ecs::component::Component;
use bevy::MinimalPlugins;

#[derive(Component, Default)]
struct Counter {
    steps: u32,
}

/// A tree file whose root is one node of type `root_type`.
fn leaf_tree(name: &str, root_type: &str) -> String {
    serde_json::json!({
        "format": "arbor-tree", "version": 2,
        "guid": format!("5ab70000-0000-4000-8000-{:012}", name.len()), "name": name,
        "root": "5ab70000-0000-4000-8000-0000000000a1",
        "nodes": [{"guid": "5ab70000-0000-4000-8000-0000000000a1", "name": "leaf", "type": root_type}]
    })
    .to_string()
}

/// `main.json`: a Subtree node running `parts/sub.json`.
fn main_tree() -> String {
    serde_json::json!({
        "format": "arbor-tree", "version": 2,
        "guid": "5ab70000-0000-4000-8000-000000000001", "name": "main",
        "root": "5ab70000-0000-4000-8000-0000000000b1",
        "nodes": [{"guid": "5ab70000-0000-4000-8000-0000000000b1", "name": "use sub",
                   "type": "Subtree", "params": {"path": "parts/sub.json"}}]
    })
    .to_string()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-bevy-subtrees-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("parts")).expect("scratch folder");
    std::fs::write(dir.join("main.json"), main_tree()).expect("writes main.json");
    std::fs::write(dir.join("parts/sub.json"), leaf_tree("sub", "Step")).expect("writes sub");
    dir
}

fn app(root: &Path) -> App {
    let mut registry = Registry::<Counter>::new();
    registry.action(NodeType::action("Step", "Counts a step."), |cx| {
        cx.agent.steps += 1;
        Status::Success
    });
    registry.action(NodeType::action("Stop", "Fails."), |_| Status::Failure);
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(ScheduleRunnerPlugin::run_once()),
        AssetPlugin {
            file_path: root.display().to_string(),
            ..AssetPlugin::default()
        },
        ArborPlugin::new(registry).fixed_dt(0.1).project_root(root),
    ));
    app
}

fn compiled(
    app: &App,
    tree: &Handle<ArborTree>,
) -> Option<Arc<arbor_runtime::CompiledTree<Counter>>> {
    app.world()
        .resource::<CompiledTrees<Counter>>()
        .get(tree)
        .cloned()
}

#[test]
fn a_changed_subtree_file_recompiles_the_tree_that_uses_it() {
    let root = scratch();
    let mut app = app(&root);
    let tree = common::load::<Counter>(&mut app, "main.json");
    let problems = app.world().resource::<TreeProblems>();
    assert!(problems.by_tree.is_empty(), "{:?}", problems.by_tree);
    assert!(compiled(&app, &tree).is_some(), "main.json compiled");
    // The subtree is a dependency of the tree asset, loaded by the asset server.
    let sub = app
        .world()
        .resource::<Assets<ArborTree>>()
        .get(&tree)
        .expect("loaded")
        .subtrees
        .first()
        .cloned()
        .expect("the Subtree node's file is a dependency");
    assert_eq!(
        sub.path().map(|p| p.to_string()).as_deref(),
        Some("parts/sub.json")
    );

    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    let first = compiled(&app, &tree).expect("compiled");
    assert_eq!(
        app.world().entity(e).get::<Counter>().map(|c| c.steps),
        Some(1)
    );

    // The subtree file changes on disk and the asset server reloads it (as its file
    // watcher would): the tree above it recompiles and its agent switches.
    std::fs::write(root.join("parts/sub.json"), leaf_tree("sub", "Stop")).expect("rewrites sub");
    let reloaded = app
        .world()
        .resource::<Assets<ArborTree>>()
        .get(&sub)
        .cloned()
        .expect("sub loaded");
    let _ = app
        .world_mut()
        .resource_mut::<Assets<ArborTree>>()
        .insert(&sub, reloaded);
    app.update();
    app.update();
    let second = compiled(&app, &tree).expect("still compiled");
    assert!(
        !Arc::ptr_eq(&first, &second),
        "the tree using the subtree recompiled"
    );
    let mut entity = app.world_mut().entity_mut(e);
    let agent = entity.get_mut::<ArborAgent<Counter>>().expect("agent");
    assert_eq!(
        agent.last_status(),
        Some(Status::Failure),
        "runs the new subtree"
    );
    let _ = std::fs::remove_dir_all(&root);
}
