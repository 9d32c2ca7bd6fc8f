//! Subtree files are asset dependencies, loaded by the asset server from the tree's own asset
//! source (the compiler reads no file): a tree waits for them, a changed subtree asset
//! recompiles the trees that use it and switches their agents, and a subtree that does not
//! load is reported at its Subtree node.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_bevy::{ArborAgent, ArborPlugin, ArborTree, CompiledTrees, TreeProblems};
use arbor_runtime::{NodeType, Registry, Status};
use bevy_app::App;
use bevy_asset::io::embedded::EmbeddedAssetRegistry;
use bevy_asset::{AssetPlugin, Assets, Handle};
use bevy_ecs::component::Component;

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

/// A tree file named `name` whose root is a Subtree node running `path`.
fn calling(name: &str, path: &str) -> String {
    serde_json::json!({
        "format": "arbor-tree", "version": 2,
        "guid": format!("5ab70000-0000-4000-8000-{:012}", 100 + name.len()), "name": name,
        "root": "5ab70000-0000-4000-8000-0000000000b1",
        "nodes": [{"guid": "5ab70000-0000-4000-8000-0000000000b1", "name": "use sub",
                   "type": "Subtree", "params": {"path": path}}]
    })
    .to_string()
}

/// `main.json`: a Subtree node running `parts/sub.json`.
fn main_tree() -> String {
    calling("main", "parts/sub.json")
}

/// A fresh folder for `test` (tests run in parallel in one process) holding `main.json` and
/// `parts/sub.json`.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-bevy-{test}-{}", std::process::id()));
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
        common::minimal_plugins(),
        AssetPlugin {
            file_path: root.display().to_string(),
            ..AssetPlugin::default()
        },
        ArborPlugin::new(registry).fixed_dt(0.1),
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

/// Asserts that `tree` compiled without problems and that its one Subtree's file is the
/// asset dependency at `path`; returns that dependency.
fn compiled_with_subtree(app: &App, tree: &Handle<ArborTree>, path: &str) -> Handle<ArborTree> {
    let problems = app.world().resource::<TreeProblems>();
    assert!(problems.by_tree.is_empty(), "{:?}", problems.by_tree);
    assert!(compiled(app, tree).is_some(), "compiled");
    let sub = app
        .world()
        .resource::<Assets<ArborTree>>()
        .get(tree)
        .and_then(|t| t.subtrees.first().cloned())
        .expect("the Subtree node's file is a dependency");
    assert_eq!(sub.path().map(|p| p.to_string()).as_deref(), Some(path));
    sub
}

#[test]
fn a_changed_subtree_file_recompiles_the_tree_that_uses_it() {
    let root = scratch("changed");
    let mut app = app(&root);
    let tree = common::load::<Counter>(&mut app, "main.json");
    // The subtree is a dependency of the tree asset, loaded by the asset server.
    let sub = compiled_with_subtree(&app, &tree, "parts/sub.json");

    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    let first = compiled(&app, &tree).expect("compiled");
    assert_eq!(
        app.world().entity(e).get::<Counter>().map(|c| c.steps),
        Some(1)
    );

    // The subtree asset changes (as the asset server's file watcher would reload it): the
    // tree above it recompiles and its agent switches.
    let mut reloaded = app
        .world()
        .resource::<Assets<ArborTree>>()
        .get(&sub)
        .cloned()
        .expect("sub loaded");
    reloaded.file.nodes[0].kind = "Stop".into();
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

#[test]
fn subtrees_come_from_the_tree_asset_source_not_from_the_disk() {
    // The files exist only in Bevy's in-memory `embedded://` source; the file source's
    // folder is empty and nothing of these names is on disk.
    let root = std::env::temp_dir().join(format!("arbor-bevy-empty-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("scratch folder");
    let mut app = app(&root);
    let files = [
        // From its own folder up to the source's root, then a subtree of a subtree.
        ("npcs/guard.json", calling("guard", "../shared/patrol.json")),
        ("shared/patrol.json", calling("patrol", "leaf.json")),
        ("shared/leaf.json", leaf_tree("leaf", "Step")),
    ];
    for (path, text) in files {
        assert!(!Path::new(path).exists() && !root.join(path).exists());
        app.world()
            .resource::<EmbeddedAssetRegistry>()
            .insert_asset(PathBuf::from(path), Path::new(path), text.into_bytes());
    }
    let tree = common::load::<Counter>(&mut app, "embedded://npcs/guard.json");
    compiled_with_subtree(&app, &tree, "embedded://shared/patrol.json");
    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    app.update();
    let mut entity = app.world_mut().entity_mut(e);
    assert_eq!(
        entity
            .get_mut::<ArborAgent<Counter>>()
            .and_then(|a| a.last_status()),
        Some(Status::Success)
    );
    assert_eq!(
        entity.get::<Counter>().map(|c| c.steps),
        Some(2),
        "the leaf ran twice"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_subtree_that_does_not_load_is_reported_at_its_subtree_node() {
    let root = scratch("missing");
    std::fs::write(
        root.join("missing.json"),
        calling("missing", "parts/nothing.json"),
    )
    .expect("writes missing.json");
    std::fs::write(root.join("parts/bad.json"), "{ not json").expect("writes bad.json");
    std::fs::write(
        root.join("uses_bad.json"),
        calling("uses_bad", "parts/bad.json"),
    )
    .expect("writes uses_bad.json");
    let mut app = app(&root);

    let tree = common::load::<Counter>(&mut app, "missing.json");
    let lines = app.world().resource::<TreeProblems>().by_tree[&tree.id()].join("\n");
    assert!(lines.contains("$.nodes[0].params.path"), "{lines}");
    assert!(
        lines.contains("subtree `parts/nothing.json` (parts/nothing.json) is not among the tree files supplied"),
        "{lines}"
    );
    assert!(
        lines.contains("parts/nothing.json: did not load"),
        "{lines}"
    );

    // A subtree that is not a tree file: its own problems (located by line), and the tree
    // above it says which file did not load.
    let tree = common::load::<Counter>(&mut app, "uses_bad.json");
    let lines = app.world().resource::<TreeProblems>().by_tree[&tree.id()].join("\n");
    assert!(lines.contains("parts/bad.json: did not load"), "{lines}");
    assert!(lines.contains("parts/bad.json:1:"), "{lines}");
    let e = common::spawn::<Counter>(&mut app, &tree, 1);
    app.update();
    let mut entity = app.world_mut().entity_mut(e);
    let mut agent = entity.get_mut::<ArborAgent<Counter>>().expect("agent");
    assert!(agent.agent_mut().is_none(), "no tree, no agent");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_tree_file_that_is_not_a_tree_is_reported() {
    let root = scratch("not-a-tree");
    std::fs::write(root.join("bad.json"), "{ not json").expect("writes bad.json");
    let mut app = app(&root);
    let tree = common::load::<Counter>(&mut app, "bad.json");
    let lines = app.world().resource::<TreeProblems>().by_tree[&tree.id()].join("\n");
    assert!(lines.contains("bad.json:1:"), "{lines}");
    let _ = std::fs::remove_dir_all(&root);
}
