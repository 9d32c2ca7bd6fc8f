//! ArborPlugin: registers the tree asset, compiles trees with the program's registry, and
//! ticks every [`ArborAgent`] that is due and awake once per `Update`, in parallel.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use bevy_app::{App, Plugin, Update};
use bevy_asset::{
    AssetApp as _, AssetEvent, AssetId, AssetLoadFailedEvent, AssetServer, Assets, Handle,
    LoadState,
};
use bevy_ecs::change_detection::DetectChanges as _;
use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::entity::Entity;
use bevy_ecs::message::MessageReader;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs as _, SystemSet};
use bevy_ecs::system::{Query, Res, ResMut};
use bevy_platform::cell::SyncCell;
use bevy_time::Time;

use arbor_runtime::{Agent, CompiledTree, Embedded, LoadOptions, Registry};

use crate::agent::ArborAgent;
use crate::asset::{ArborTree, ArborTreeLoader};

/// Runs the trees of entities whose host data is the component `C`, with the node types
/// of `registry`. Add it after `AssetPlugin` (and `MinimalPlugins` or `DefaultPlugins`).
pub struct ArborPlugin<C> {
    registry: Mutex<Option<Registry<C>>>,
    dt: Option<f64>,
    #[cfg(feature = "debug")]
    debug: Option<arbor_runtime::debug::DebugConfig>,
}

impl<C: 'static> ArborPlugin<C> {
    /// The plugin, with the program's node types.
    pub fn new(registry: Registry<C>) -> Self {
        ArborPlugin {
            registry: Mutex::new(Some(registry)),
            dt: None,
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

/// The program's node types, as the plugin was given them.
#[derive(Resource)]
pub(crate) struct ArborRegistry<C>(pub(crate) Registry<C>);

#[derive(Resource)]
struct ArborConfig<C> {
    dt: Option<f64>,
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
/// subtree. The compiler reads no file: a tree's subtree files are its asset dependencies,
/// handed over from `Assets` (so they come from whatever asset source the tree did), and a
/// tree waits until they have loaded or failed. A modified tree that no longer compiles
/// keeps its agents on the previous version (and its problems are reported).
#[allow(clippy::too_many_arguments)] // a system's parameters are what it reads
fn compile_trees<C: Send + Sync + 'static>(
    mut events: MessageReader<AssetEvent<ArborTree>>,
    mut failures: MessageReader<AssetLoadFailedEvent<ArborTree>>,
    assets: Res<Assets<ArborTree>>,
    server: Res<AssetServer>,
    registry: Res<ArborRegistry<C>>,
    mut compiled: ResMut<CompiledTrees<C>>,
    mut problems: ResMut<TreeProblems>,
) {
    let mut changed = Vec::new();
    for event in events.read() {
        match *event {
            // Not `LoadedWithDependencies`: a subtree's own `Added` already brought the
            // trees above it back (`with_dependents`), and compiling again would reload
            // agents that just started.
            AssetEvent::Added { id } | AssetEvent::Modified { id } => changed.push(id),
            AssetEvent::Removed { id } => {
                compiled.trees.remove(&id);
                compiled.generation += 1;
                problems.by_tree.remove(&id);
            }
            _ => {}
        }
    }
    for failure in failures.read() {
        // A tree file that cannot be read as one: its own problem, and a reason for the
        // trees that wait on it to compile now (and report it).
        problems.by_tree.insert(
            failure.id,
            vec![format!("{}: {}", failure.path, failure.error)],
        );
        changed.push(failure.id);
    }
    if changed.is_empty() {
        return;
    }
    for id in with_dependents(changed, &assets) {
        let Some(asset) = assets.get(id) else {
            continue;
        };
        let Some(subtrees) = subtree_files(asset, &assets, &server) else {
            // A subtree is still loading; its arrival brings this tree back.
            continue;
        };
        let options = LoadOptions {
            embedded: subtrees.embedded,
            ..LoadOptions::default()
        };
        let loader = registry.0.loader().with_options(options);
        match loader.load_tree(&asset.file, Some(asset.path.path())) {
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
                let mut lines: Vec<String> = e.problems.iter().map(ToString::to_string).collect();
                lines.extend(subtrees.failed);
                eprintln!("arbor: tree `{}` did not compile:", asset.file.name);
                for line in &lines {
                    eprintln!("  {line}");
                }
                problems.by_tree.insert(id, lines);
            }
        }
    }
}

/// A tree's subtree files, as the compiler takes them.
struct SubtreeFiles {
    /// Every loaded file the tree reaches through Subtree nodes, however deep, named by
    /// its path in the tree's asset source; the tree itself named by its own.
    embedded: Embedded,
    /// Why each file that failed to load did (the compiler reports its Subtree node).
    failed: Vec<String>,
}

/// The subtree files `tree` reaches, or `None` while one of them is still loading. Files in
/// another asset source than the tree's are left out: the compiler names them missing at
/// their Subtree node. Linear in the files reached.
fn subtree_files(
    tree: &ArborTree,
    assets: &Assets<ArborTree>,
    server: &AssetServer,
) -> Option<SubtreeFiles> {
    let mut embedded = Embedded::new().with_top_file(tree.path.path());
    let mut failed = Vec::new();
    let mut seen: HashSet<AssetId<ArborTree>> = HashSet::new();
    let mut queue: Vec<&Handle<ArborTree>> = tree.subtrees.iter().collect();
    while let Some(handle) = queue.pop() {
        if !seen.insert(handle.id()) {
            continue;
        }
        let Some(path) = handle.path() else {
            continue;
        };
        match assets.get(handle) {
            Some(sub) => {
                if path.source() == tree.path.source() {
                    embedded = embedded.with_tree(path.path(), sub.file.clone());
                }
                queue.extend(sub.subtrees.iter());
            }
            None => match server.load_state(handle) {
                LoadState::Failed(e) => failed.push(format!("{path}: did not load: {e}")),
                // Loading (or not started): come back when it has.
                _ => return None,
            },
        }
    }
    Some(SubtreeFiles { embedded, failed })
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
            // Changed by another system since this one last ran (this system's own writes
            // do not count): an input that ends the agent's sleep (rule 84). Read before
            // the writes below.
            let woken = data.is_changed() || arbor.is_changed();
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
                    // A new or reloaded agent's running nodes are new: whatever it slept on is gone.
                    arbor.wake();
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
            arbor.frame(data, dt, woken);
        });
    #[cfg(not(feature = "debug"))]
    let _ = (debug, assets);
}
