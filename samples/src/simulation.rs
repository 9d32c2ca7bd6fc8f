//! Simulation: the one dyn-safe interface the editor's live preview (and the headless
//! binaries) drive every sample through, and the samples found by name.
//!
//! A simulation owns a world (positions, needs, health, log…), the registry of its host
//! node types and, once a tree is loaded, one agent running that tree against the world.
//! `tick(dt)` follows rule 2 of docs/semantics.md: the agent's clock advances, the world moves and
//! writes its sensor readings to the blackboard (the host's inputs), then the root is
//! ticked once. With the same seed and the same `dt` sequence a simulation always does the
//! same thing. Every sample implements it once, through [`crate::Sample`]; its own controls
//! (the duel's move buttons, the counting target) are reached through
//! [`Simulation::sample_mut`], which names the sample's type.

use std::any::Any;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{
    parse_tree_or_variant, Blackboard, LoadError, NodeId, NodeTypes, Observer, Problem, Snapshot,
    SnapshotError, Status,
};

use crate::log::Log;
use crate::sample::{SampleMut, SAMPLES};
use crate::save_game::SaveGameError;
use crate::tree_view::TreeView;

/// What loading a tree did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadOutcome {
    /// An agent was already running: it switched to the new tree (hot reload) and kept the
    /// world, its clock and every blackboard value whose key kept its name and type.
    pub reloaded: bool,
    /// Keys whose values a hot reload dropped (gone or retyped in the new tree).
    pub dropped_keys: Vec<String>,
    /// Non-fatal problems found while loading (unconnected nodes, empty composites).
    pub warnings: Vec<Problem>,
}

/// A simulation's state between two ticks, to go back to ([`Simulation::rewind`]): the
/// agent's snapshot (its blackboard, node states, clock, RNG) and a copy of the world.
pub struct Checkpoint {
    /// The agent's whole state (`Agent::snapshot`).
    pub agent: Snapshot,
    /// The world, as the simulation that took the checkpoint knows it.
    pub(crate) world: Box<dyn Any + Send>,
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("ticks", &self.agent.ticks)
            .field("now", &self.agent.now)
            .finish_non_exhaustive()
    }
}

/// Why a checkpoint could not be gone back to; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum RewindError {
    #[error("this simulation cannot go back to an earlier tick")]
    Unsupported,
    #[error("the checkpoint is of another kind of world")]
    OtherWorld,
    #[error("no tree is loaded")]
    NoTree,
    #[error("the checkpoint does not fit the loaded tree: {0}")]
    Agent(#[from] SnapshotError),
}

/// A sample: a small world and the agent whose tree drives it.
pub trait Simulation: Send {
    /// Short identifier: `villager`, `card_duel`, `counting`, `guard`.
    fn name(&self) -> &'static str;
    /// A human title for menus.
    fn title(&self) -> &'static str;
    /// The sample's tree file, in the samples' `trees/` folder.
    fn tree_path(&self) -> PathBuf;
    /// Every node type this sample can run: built-ins plus its host actions and conditions.
    fn node_types(&self) -> NodeTypes;
    /// The time step the sample is tuned for, in seconds.
    fn default_dt(&self) -> f64;

    /// Compiles `tree` with the sample's registry. `path` is where the document lives (it
    /// anchors subtree paths; `None` resolves them against the samples' `trees/` folder).
    /// The first load creates the agent; later loads hot-reload it (`Agent::reload`), so
    /// the world and compatible blackboard values survive an edit. On error nothing
    /// changes: the previous tree keeps running.
    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError>;

    /// Reads (through the runtime's bounded reader: a FIFO or device is refused, the size
    /// capped), parses and loads a tree file, or a variant file on its base.
    fn load_file(&mut self, path: &Path) -> Result<LoadOutcome, LoadError> {
        let limit = arbor_runtime::LoadOptions::default().max_file_bytes;
        let text = arbor_runtime::files::read_text(path, limit)
            .map_err(|e| LoadError::unreadable(path, e))?;
        let (file, anchor) = parse_tree_or_variant(&text, Some(path))?;
        self.load(&file, anchor.as_deref().or(Some(path)))
    }

    /// Loads the sample's own tree ([`Simulation::tree_path`]).
    fn load_default(&mut self) -> Result<LoadOutcome, LoadError> {
        self.load_file(&self.tree_path())
    }

    /// Loads the sample's own tree as generated code (`arbor_runtime::codegen`, compiled
    /// by the samples' `build.rs`): the same tree, ticked by Rust generated from it
    /// instead of the interpreter. `None` if the sample has no generated code.
    fn load_generated(&mut self) -> Option<Result<LoadOutcome, LoadError>> {
        None
    }

    /// Advances the world by `dt` seconds and ticks the agent once, reporting every
    /// lifecycle event to `observer`. `None` when the agent was not ticked: no tree is
    /// loaded, the simulation is over ([`Simulation::finished`]), or it waits for input
    /// (the card duel waiting for the player's move).
    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status>;

    /// Starts again from the seed: a fresh world (its log starts again from line 0) and, if a
    /// tree is loaded, a fresh agent on it.
    fn reset(&mut self);
    fn seed(&self) -> u64;
    /// Changes the seed and resets.
    fn set_seed(&mut self, seed: u64);
    /// True once the simulation has ended (the villager died, the duel has a winner).
    fn finished(&self) -> bool {
        false
    }

    /// The agent's clock in seconds; 0 without an agent.
    fn now(&self) -> f64;
    fn blackboard(&self) -> Option<&Blackboard>;
    /// For the preview's blackboard editor: host writes between ticks.
    fn blackboard_mut(&mut self) -> Option<&mut Blackboard>;
    /// The blackboard keys the world writes before each tick: an edit to one lasts until
    /// the next tick.
    fn sensed_keys(&self) -> &'static [&'static str] {
        &[]
    }
    /// The state now (between ticks), for [`Simulation::rewind`]; `None` without an agent
    /// or for a simulation that cannot go back.
    fn checkpoint(&self) -> Option<Checkpoint> {
        None
    }
    /// Puts back the agent and world of a checkpoint this simulation took, so the next
    /// tick goes on from there. On error nothing changes.
    fn rewind(&mut self, checkpoint: &Checkpoint) -> Result<(), RewindError> {
        let _ = checkpoint;
        Err(RewindError::Unsupported)
    }
    /// The game now as a save game (save_game.rs): the agent's snapshot with the world's
    /// own state in its `program`.
    fn save_game(&self) -> Result<Snapshot, SaveGameError> {
        Err(SaveGameError::Unsupported(self.name()))
    }
    /// Goes on from a save game of this sample, on the loaded tree: the tree it was saved
    /// with, parameter values aside (rule 91). On error nothing changes.
    fn load_game(&mut self, save: &Snapshot) -> Result<(), SaveGameError> {
        let _ = save;
        Err(SaveGameError::Unsupported(self.name()))
    }
    /// The loaded tree's structure: GUID and name of each node of the trace.
    fn tree(&self) -> Option<&dyn TreeView>;
    /// Whether a node is in the middle of an execution (for highlighting).
    fn is_running(&self, node: NodeId) -> bool;
    /// What happened, in words.
    fn log(&self) -> &Log;
    /// One line describing the world now, e.g. for a status bar.
    fn summary(&self) -> String;

    /// The sample by its type, for what only it has; `None` for simulations that are not
    /// one of [`SAMPLES`] (the editor's stand-in runner).
    fn sample_mut(&mut self) -> Option<SampleMut<'_>> {
        None
    }

    /// For tests and tools that know the concrete type.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The samples' `trees/` folder.
pub fn trees_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("trees")
}

/// The samples' `manifests/` folder (one node-types manifest per sample).
pub fn manifests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("manifests")
}

/// Every sample of [`SAMPLES`], with seed 1 and no tree loaded yet, in menu order.
pub fn all() -> Vec<Box<dyn Simulation>> {
    SAMPLES.iter().map(|sample| sample.create(1)).collect()
}

/// The sample called `name` (see [`Simulation::name`]), seeded with `seed`.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Simulation>> {
    SAMPLES
        .iter()
        .find(|sample| sample.name == name)
        .map(|sample| sample.create(seed))
}
