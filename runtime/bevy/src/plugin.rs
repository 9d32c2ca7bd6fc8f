//! ArborPlugin: registers the tree asset, compiles trees with the program's registry, and
//! ticks every [`ArborAgent`] once per `Update`, in parallel.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::app::{App, Plugin, Update};
use bevy::asset::{AssetApp as _, AssetEvent, AssetId, Assets};
use bevy::ecs::component::{Component, Mutable};
use bevy::ecs::entity::Entity;
use bevy::ecs::message::MessageReader;
use bevy::ecs::resource::Resource;
use bevy::ecs::schedule::{IntoScheduleConfigs as _, SystemSet};
use bevy::ecs::system::{Query, Res, ResMut};
use bevy::platform::cell::SyncCell;
use bevy::time::Time;

use arbor_runtime::{Agent, CompiledTree, LoadOptions, Registry};

use crate::agent::ArborAgent;
use crate::asset::{ArborTree, ArborTreeLoader};

/// Runs the trees of entities whose host data is the component `C`, with the node types
/// of `registry`. Add it after `AssetPlugin` (and `MinimalPlugins` or `DefaultPlugins`).
pub struct ArborPlugin<C> {
    registry: Mutex<Option<Registry<C>>>,
    dt: Option<f64>,
    project_root: PathBuf,
    #[cfg(feature = "debug")]
    debug: Option<arbor_runtime::debug::DebugConfig>,
}

impl<C: 'static> ArborPlugin<C> {
    /// The plugin, with the program's node types.
    pub fn new(registry: Registry<C>) -> Self {
        ArborPlugin {
            registry: Mutex::new(Some(registry)),
            dt: None,
            project_root: PathBuf::from("assets"),
            #[cfg(feature = "debug")]
            debug: None,
        }
    }

    /// Advance every agent's clock by `dt` seconds per update, instead of the frame's real
    /// duration (`Time::delta`): a deterministic run, as in tests and CI.
    pub fn fixed_dt(mut self, dt: f64) -> Self {
        self.dt = Some(dt);
        self
    }

    /// The folder the asset server reads tree files from (default `assets`, as
    /// `AssetPlugin::file_path`): the compiler reads Subtree files there, relative to the
    /// file that refers to them, and refuses paths that leave it.
    pub fn project_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.project_root = root.into();
        self
    }

    /// Serve Arbor's debug protocol (docs/debug-protocol.md) so the editor can attach
    /// (Preview ▸ Attach to Program…): every agent is listed as "`tree` #entity", with its
    /// statuses, blackboard, pause, step and breakpoints. A server that cannot start is
    /// reported on stderr and the app runs without it.
    #[cfg(feature = "debug")]
    pub fn debug_server(mut self, config: arbor_runtime::debug::DebugConfig) -> Self {
        self.debug = Some(config);
        self
    }
}

/// The plugin's systems, in order, in `Update`: order your own input systems before
/// `Tick`, and read results after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum ArborSystems {
    /// Compiles tree assets that were added or changed.
    Compile,
    /// Starts, reloads and ticks the agents.
    Tick,
}

/// The compiled trees, by asset.
#[derive(Resource)]
pub struct CompiledTrees<C> {
    trees: HashMap<AssetId<ArborTree>, Arc<CompiledTree<C>>>,
    /// Counts changes to `trees`: an agent that saw this generation needs no lookup.
    generation: u64,
}

impl<C> CompiledTrees<C> {
    /// The compiled form of a tree asset, once it loaded and compiled.
    pub fn get(&self, id: impl Into<AssetId<ArborTree>>) -> Option<&Arc<CompiledTree<C>>> {
        self.trees.get(&id.into())
    }
}

/// Every problem of the tree assets that did not compile (each line as `arbor check`
/// prints it), and the warnings of those that did.
#[derive(Resource, Default, Debug)]
pub struct TreeProblems {
    /// Problems by tree asset; a tree that compiled without warnings has no entry.
    pub by_tree: HashMap<AssetId<ArborTree>, Vec<String>>,
}

#[derive(Resource)]
struct ArborRegistry<C>(Registry<C>);

#[derive(Resource)]
struct ArborConfig<C> {
    dt: Option<f64>,
    options: LoadOptions,
    project_root: PathBuf,
    _data: std::marker::PhantomData<fn() -> C>,
}

impl<C> Plugin for ArborPlugin<C>
where
    C: Component<Mutability = Mutable> + Send + Sync + 'static,
{
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<Assets<ArborTree>>() {
            app.init_asset::<ArborTree>()
                .register_asset_loader(ArborTreeLoader)
                .init_resource::<TreeProblems>();
        }
        let registry = self
            .registry
            .lock()
            .ok()
            .and_then(|mut r| r.take())
            .expect("an ArborPlugin is built once");
        app.insert_resource(ArborRegistry(registry))
            .insert_resource(CompiledTrees::<C> {
                trees: HashMap::new(),
                generation: 0,
            })
            .insert_resource(ArborConfig::<C> {
                dt: self.dt,
                options: LoadOptions {
                    project_root: Some(self.project_root.clone()),
                    ..LoadOptions::default()
                },
                project_root: self.project_root.clone(),
                _data: std::marker::PhantomData,
            })
            .configure_sets(Update, (ArborSystems::Compile, ArborSystems::Tick).chain())
            .add_systems(Update, compile_trees::<C>.in_set(ArborSystems::Compile))
            .add_systems(Update, tick_agents::<C>.in_set(ArborSystems::Tick));
        #[cfg(feature = "debug")]
        if let Some(config) = &self.debug {
            crate::debug::start(app, config.clone());
        }
    }
}

/// Compiles added and modified tree assets, and every tree that uses a changed one as a
/// subtree (the compiler reads subtree files itself, so their new text is picked up). A
/// modified tree that no longer compiles keeps its agents on the previous version (and its
/// problems are reported).
fn compile_trees<C: Send + Sync + 'static>(
    mut events: MessageReader<AssetEvent<ArborTree>>,
    assets: Res<Assets<ArborTree>>,
    registry: Res<ArborRegistry<C>>,
    config: Res<ArborConfig<C>>,
    mut compiled: ResMut<CompiledTrees<C>>,
    mut problems: ResMut<TreeProblems>,
) {
    let mut changed = Vec::new();
    for event in events.read() {
        match *event {
            AssetEvent::Added { id } | AssetEvent::Modified { id } => changed.push(id),
            AssetEvent::Removed { id } => {
                compiled.trees.remove(&id);
                compiled.generation += 1;
                problems.by_tree.remove(&id);
            }
            _ => {}
        }
    }
    if changed.is_empty() {
        return;
    }
    for id in with_dependents(changed, &assets) {
        let Some(asset) = assets.get(id) else {
            continue;
        };
        let loader = registry.0.loader().with_options(config.options.clone());
        let path = config.project_root.join(asset.path.path());
        match loader.load_tree(&asset.file, Some(&path)) {
            Ok(tree) => {
                let lines: Vec<String> = tree.warnings().iter().map(ToString::to_string).collect();
                if lines.is_empty() {
                    problems.by_tree.remove(&id);
                } else {
                    problems.by_tree.insert(id, lines);
                }
                compiled.trees.insert(id, Arc::new(tree));
                compiled.generation += 1;
            }
            Err(e) => {
                let lines: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
                eprintln!("arbor: tree `{}` did not compile:", asset.file.name);
                for line in &lines {
                    eprintln!("  {line}");
                }
                problems.by_tree.insert(id, lines);
            }
        }
    }
}

/// `changed` and every loaded tree that reaches one of them through its subtrees, each
/// once. Linear in the subtree references of the loaded trees per round.
fn with_dependents(
    changed: Vec<AssetId<ArborTree>>,
    assets: &Assets<ArborTree>,
) -> Vec<AssetId<ArborTree>> {
    let mut seen: HashSet<AssetId<ArborTree>> = changed.iter().copied().collect();
    let mut out = changed;
    let mut next = 0;
    // A changed subtree file changes every tree above it: walk up, one level per round.
    while next < out.len() {
        let level = out.len();
        for (id, tree) in assets.iter() {
            if seen.contains(&id) {
                continue;
            }
            if tree
                .subtrees
                .iter()
                .any(|s| out[next..level].contains(&s.id()))
            {
                seen.insert(id);
                out.push(id);
            }
        }
        next = level;
    }
    out
}

/// The debug server, when the plugin runs one (`()` without the `debug` feature).
#[cfg(feature = "debug")]
type DebugServerParam<'w> = Option<Res<'w, crate::debug::ArborDebugServer>>;
#[cfg(not(feature = "debug"))]
type DebugServerParam<'w> = ();

/// Starts each agent once its tree is compiled, switches it to a recompiled tree, and
/// ticks it: one entity per task, in parallel.
fn tick_agents<C>(
    mut agents: Query<(Entity, &mut ArborAgent<C>, &mut C)>,
    compiled: Res<CompiledTrees<C>>,
    config: Res<ArborConfig<C>>,
    time: Option<Res<Time>>,
    assets: Res<Assets<ArborTree>>,
    debug: DebugServerParam,
) where
    C: Component<Mutability = Mutable> + Send + Sync + 'static,
{
    let dt = config
        .dt
        .or_else(|| time.map(|t| t.delta_secs_f64()))
        .unwrap_or(0.0);
    let generation = compiled.generation;
    agents
        .par_iter_mut()
        .for_each(|(entity, mut arbor, mut data)| {
            #[cfg(not(feature = "debug"))]
            let _ = entity;
            let arbor = &mut *arbor;
            let data = &mut *data;
            // Look the tree up only when some tree was (re)compiled since this agent last
            // looked: once per reload, not once per entity per frame.
            if arbor.seen != Some(generation) {
                let Some(tree) = compiled.trees.get(&arbor.tree_id()) else {
                    return;
                };
                let current = arbor.running.as_ref().is_some_and(|r| Arc::ptr_eq(r, tree));
                if !current {
                    match arbor.agent.as_mut() {
                        Some(agent) => {
                            agent.get().reload(data, tree.clone());
                        }
                        None => {
                            let agent = Agent::new(tree.clone(), arbor.seed());
                            arbor.agent = Some(SyncCell::new(agent));
                        }
                    }
                    arbor.running = Some(tree.clone());
                    #[cfg(feature = "debug")]
                    if let (Some(server), Some(asset), Some(agent)) = (
                        debug.as_deref(),
                        assets.get(arbor.tree_id()),
                        arbor.agent.as_mut(),
                    ) {
                        let instance =
                            crate::debug::register(server, entity, agent.get(), &asset.file);
                        arbor.instance = Some(SyncCell::new(instance));
                    }
                }
                arbor.seen = Some(generation);
            }
            arbor.tick(data, dt);
        });
    #[cfg(not(feature = "debug"))]
    let _ = (debug, assets);
}
