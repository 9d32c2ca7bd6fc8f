//! What the plugin's test files share: loading a tree asset the way a game does.

use std::time::{Duration, Instant};

use arbor_bevy::{ArborAgent, ArborTree, CompiledTrees, TreeProblems};
use bevy_app::{App, Plugins, ScheduleRunnerPlugin, TaskPoolPlugin};
use bevy_asset::{AssetPlugin, AssetServer, Handle};
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_time::TimePlugin;

/// Loads `path` and updates the app until the tree compiled or reported problems (host
/// data `C`); fails the test after 20 s.
pub fn load<C: Send + Sync + 'static>(app: &mut App, path: &str) -> Handle<ArborTree> {
    let tree: Handle<ArborTree> = app.world().resource::<AssetServer>().load(path.to_owned());
    let start = Instant::now();
    loop {
        app.update();
        let compiled = app
            .world()
            .resource::<CompiledTrees<C>>()
            .get(&tree)
            .is_some();
        let failed = app
            .world()
            .resource::<TreeProblems>()
            .by_tree
            .contains_key(&tree.id());
        if compiled || failed {
            return tree;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{path} did not load"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Spawns an entity with an agent of `tree` (seed `seed`) and fresh host data `C`.
pub fn spawn<C: Component + Default + Send + Sync + 'static>(
    app: &mut App,
    tree: &Handle<ArborTree>,
    seed: u64,
) -> Entity {
    app.world_mut()
        .spawn((ArborAgent::<C>::new(tree.clone(), seed), C::default()))
        .id()
}

/// Bevy's minimal plugins (the `bevy` crate's `MinimalPlugins` less the frame counter),
/// updated by hand: `app.update()` runs one frame.
pub fn minimal_plugins() -> (TaskPoolPlugin, TimePlugin, ScheduleRunnerPlugin) {
    (
        TaskPoolPlugin::default(),
        TimePlugin,
        ScheduleRunnerPlugin::run_once(),
    )
}

/// An app with the minimal plugins and the asset server reading `tests/assets`, plus
/// `arbor` (the plugin as the test configures it).
pub fn app<M>(arbor: impl Plugins<M>) -> App {
    let mut app = App::new();
    app.add_plugins((
        minimal_plugins(),
        AssetPlugin {
            file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/tests/assets").to_owned(),
            ..AssetPlugin::default()
        },
    ));
    app.add_plugins(arbor);
    app
}
