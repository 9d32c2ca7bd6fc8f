//! Sample: the one implementation of [`Simulation`] that every sample shares, generic over
//! the sample's [`World`], and the one list of samples ([`SAMPLES`], [`SampleMut`]).
//!
//! A sample is a world type (what its host nodes act on, and what the preview draws) that
//! implements [`World`]: its name and tree, how one tick moves the world and ticks the
//! agent, and what it says about itself. [`Sample<W>`] pairs the world with the registry,
//! the tree and the agent (loading, hot reload, reset, the blackboard), and is the
//! [`Simulation`]. The sample's own controls (the duel's moves, the counting target) are
//! inherent methods of its `Sample<W>`, which each sample names with a type alias
//! (`pub type Villager = Sample<VillagerWorld>`).
//!
//! # Adding a sample
//! Write its world, implement [`World`] for it, and add one line to the list below. The
//! compiler checks both ways: a world that is not on the list is not a `World` (the list
//! implements the `Registered` supertrait), and the list adds a [`SampleMut`] variant, which
//! the editor matches on to draw each sample's world, so the editor does not build until it
//! can draw the new one.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_runtime::format::TreeFile;
use arbor_runtime::{
    Agent, Blackboard, CompiledTree, LoadError, NodeId, NodeTypes, Observer, Registry, Snapshot,
    Status,
};

use crate::card_duel::DuelWorld;
use crate::counting::CounterWorld;
use crate::guard::GuardWorld;
use crate::log::Log;
use crate::runner::Runner;
use crate::save_game::{self, SaveGameError, SavedSample};
use crate::simulation::{trees_dir, Checkpoint, LoadOutcome, RewindError, Simulation};
use crate::tree_view::TreeView;
use crate::villager::VillagerWorld;

/// The list: every sample, in menu order, as `Variant(WorldType)`. It defines
/// [`SampleMut`] (one variant per sample), [`SAMPLES`] and each world's `Registered`.
macro_rules! samples {
    ($($(#[$doc:meta])* $variant:ident($world:ty),)*) => {
        /// A running sample by its type, for what only that sample has (the editor draws
        /// each sample's world from it). See [`Simulation::sample_mut`].
        pub enum SampleMut<'a> {
            $($(#[$doc])* $variant(&'a mut Sample<$world>),)*
        }

        /// Every sample, in menu order.
        pub const SAMPLES: &[Entry] = &[$(Entry::of::<$world>(),)*];

        $(impl registered::Registered for $world {
            fn sample_mut(sample: &mut Sample<Self>) -> SampleMut<'_> {
                SampleMut::$variant(sample)
            }
        })*
    };
}

samples! {
    /// A needs-driven villager on a map of coloured zones.
    Villager(VillagerWorld),
    /// A turn-based card duel against the tree's AI.
    CardDuel(DuelWorld),
    /// The counting tree, from built-in nodes only.
    Counting(CounterWorld),
    /// A guard who patrols, and chases an intruder.
    Guard(GuardWorld),
}

mod registered {
    /// Implemented by the list of samples, and only there: what makes a world a [`World`].
    ///
    /// [`World`]: super::World
    pub trait Registered: Sized {
        fn sample_mut(sample: &mut super::Sample<Self>) -> super::SampleMut<'_>;
    }
}

/// What a sample is besides the agent: see the module documentation.
/// `Clone`: the preview's timeline keeps a copy of the world per tick to go back to (a
/// world's log shares its lines between copies).
pub trait World: registered::Registered + Clone + Send + 'static {
    /// Short identifier: `villager`, `card_duel`, `counting`, `guard`.
    const NAME: &'static str;
    /// A human title for menus.
    const TITLE: &'static str;
    /// The sample's tree file, in the samples' `trees/` folder.
    const TREE: &'static str;
    /// The time step the sample is tuned for, in seconds.
    const DT: f64;
    /// The blackboard keys the world writes before each tick (its senses): a value put
    /// there by hand is overwritten by the next tick.
    const SENSED: &'static [&'static str] = &[];

    /// Every node type the sample can run: built-ins plus its host actions and conditions.
    fn registry() -> Registry<Self>;

    /// A fresh world seeded with `seed`.
    fn new(seed: u64) -> Self;

    /// The sample's tree compiled to Rust (`arbor_runtime::codegen`, from `build.rs`),
    /// loaded with `registry`; `None` for samples without generated code.
    #[allow(clippy::type_complexity)]
    fn generated(registry: &Registry<Self>) -> Option<Result<Arc<CompiledTree<Self>>, LoadError>> {
        let _ = registry;
        None
    }

    /// Advances the world by `dt` and ticks `agent` once (rule 2 of docs/semantics.md: the clock, the
    /// world and its sensor readings, then the root), reporting every event to `observer`.
    /// `None` when the agent was not ticked (the sample is over, or waits for input).
    fn tick(
        &mut self,
        agent: &mut Agent<Self>,
        dt: f64,
        observer: &mut dyn Observer,
    ) -> Option<Status>;

    /// Starts again from `seed`, after the agent did (`agent` is the fresh one, if a tree
    /// is loaded). By default a new world; samples keep their settings here.
    fn reset(&mut self, seed: u64, agent: Option<&mut Agent<Self>>) {
        let _ = agent;
        *self = Self::new(seed);
    }

    /// After a tree loaded (`outcome` says whether it was a hot reload).
    fn loaded(&mut self, agent: &mut Agent<Self>, outcome: &LoadOutcome) {
        let _ = (agent, outcome);
    }

    /// True once the sample has ended (the villager died, the duel has a winner).
    fn finished(&self) -> bool {
        false
    }

    /// What happened, in words.
    fn log(&self) -> &Log;

    /// One line describing the world now, e.g. for a status bar.
    fn summary(&self) -> String;

    /// The world's own state for a save game (save_game.rs); `None`: the sample cannot
    /// save. With the agent's snapshot it must give the same future once loaded.
    fn save(&self) -> Option<serde_json::Value> {
        None
    }

    /// The world of a save game, as [`World::save`] wrote it; a message for the user when
    /// it cannot be read.
    fn from_save(saved: &serde_json::Value) -> Result<Self, String> {
        let _ = saved;
        Err(format!("the {} sample cannot load a save game", Self::NAME))
    }
}

/// A sample's world with the agent that runs its tree: the [`Simulation`] of every sample.
pub struct Sample<W> {
    /// What the sample's host nodes act on, and what the preview draws.
    pub world: W,
    runner: Runner<W>,
}

impl<W: World> Sample<W> {
    /// The sample with a world and agent seeded with `seed`; no tree loaded yet.
    pub fn new(seed: u64) -> Sample<W> {
        Sample {
            world: W::new(seed),
            runner: Runner::new(W::registry(), seed),
        }
    }

    /// The world and the agent, when a tree is loaded: for a sample's own controls.
    pub(crate) fn parts(&mut self) -> (&mut W, Option<&mut Agent<W>>) {
        (&mut self.world, self.runner.agent_mut())
    }
}

impl<W: World> Simulation for Sample<W> {
    fn name(&self) -> &'static str {
        W::NAME
    }

    fn title(&self) -> &'static str {
        W::TITLE
    }

    fn tree_path(&self) -> PathBuf {
        trees_dir().join(W::TREE)
    }

    fn node_types(&self) -> NodeTypes {
        self.runner.node_types()
    }

    fn default_dt(&self) -> f64 {
        W::DT
    }

    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError> {
        let outcome = self.runner.load(&mut self.world, tree, path)?;
        if let Some(agent) = self.runner.agent_mut() {
            self.world.loaded(agent, &outcome);
        }
        Ok(outcome)
    }

    fn load_generated(&mut self) -> Option<Result<LoadOutcome, LoadError>> {
        let tree = match W::generated(self.runner.registry())? {
            Ok(tree) => tree,
            Err(e) => return Some(Err(e)),
        };
        let outcome = self.runner.install(&mut self.world, tree);
        if let Some(agent) = self.runner.agent_mut() {
            self.world.loaded(agent, &outcome);
        }
        Some(Ok(outcome))
    }

    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status> {
        let agent = self.runner.agent_mut()?;
        self.world.tick(agent, dt, observer)
    }

    fn reset(&mut self) {
        self.runner.reset();
        let seed = self.runner.seed();
        self.world.reset(seed, self.runner.agent_mut());
    }

    fn seed(&self) -> u64 {
        self.runner.seed()
    }

    fn set_seed(&mut self, seed: u64) {
        self.runner.set_seed(seed);
        self.reset();
    }

    fn finished(&self) -> bool {
        self.world.finished()
    }

    fn now(&self) -> f64 {
        self.runner.now()
    }

    fn blackboard(&self) -> Option<&Blackboard> {
        self.runner.blackboard()
    }

    fn blackboard_mut(&mut self) -> Option<&mut Blackboard> {
        self.runner.blackboard_mut()
    }

    fn sensed_keys(&self) -> &'static [&'static str] {
        W::SENSED
    }

    fn checkpoint(&self) -> Option<Checkpoint> {
        Some(Checkpoint {
            agent: self.runner.snapshot()?,
            world: Box::new(self.world.clone()),
        })
    }

    fn rewind(&mut self, checkpoint: &Checkpoint) -> Result<(), RewindError> {
        let world = checkpoint
            .world
            .downcast_ref::<W>()
            .ok_or(RewindError::OtherWorld)?;
        // The world first: a host node the restore restarts aborts against it.
        let mut world = world.clone();
        self.runner.restore(&mut world, &checkpoint.agent)?;
        self.world = world;
        Ok(())
    }

    fn save_game(&self) -> Result<Snapshot, SaveGameError> {
        let agent = self.runner.snapshot().ok_or(SaveGameError::NoTree)?;
        let world = self
            .world
            .save()
            .ok_or(SaveGameError::Unsupported(W::NAME))?;
        let sample = SavedSample {
            sample: W::NAME.to_owned(),
            seed: self.runner.seed(),
            world,
        };
        Ok(save_game::with_sample(agent, sample))
    }

    fn load_game(&mut self, save: &Snapshot) -> Result<(), SaveGameError> {
        let saved = save_game::saved_sample(save, W::NAME)?;
        // The world first: a host node the restore restarts aborts against it.
        let mut world = W::from_save(&saved.world).map_err(SaveGameError::World)?;
        self.runner.restore(&mut world, save)?;
        self.world = world;
        self.runner.set_seed(saved.seed);
        Ok(())
    }

    fn tree(&self) -> Option<&dyn TreeView> {
        self.runner.tree()
    }

    fn is_running(&self, node: NodeId) -> bool {
        self.runner.is_running(node)
    }

    fn log(&self) -> &Log {
        self.world.log()
    }

    fn summary(&self) -> String {
        self.world.summary()
    }

    fn sample_mut(&mut self) -> Option<SampleMut<'_>> {
        Some(W::sample_mut(self))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One sample of [`SAMPLES`]: its name and title, and how to make one.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    pub title: &'static str,
    create: fn(u64) -> Box<dyn Simulation>,
}

impl Entry {
    const fn of<W: World>() -> Entry {
        Entry {
            name: W::NAME,
            title: W::TITLE,
            create: create::<W>,
        }
    }

    /// The sample seeded with `seed`, no tree loaded yet.
    pub fn create(&self, seed: u64) -> Box<dyn Simulation> {
        (self.create)(seed)
    }
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("title", &self.title)
            .finish_non_exhaustive()
    }
}

fn create<W: World>(seed: u64) -> Box<dyn Simulation> {
    Box::new(Sample::<W>::new(seed))
}
