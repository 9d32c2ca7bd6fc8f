//! Arbor samples: small simulations whose agents run behavior trees through the public
//! `arbor-runtime` API, for the headless binaries, the tests and the editor's live preview.
//!
//! # Brief overview
//! - [`Simulation`] is the dyn-safe interface the samples are driven through: load (and
//!   hot-reload) a tree, tick it against the world with an [`arbor_runtime::Observer`],
//!   reset, read the blackboard, map trace node ids to GUIDs ([`TreeView`]), read the
//!   [`Log`]. [`all`] and [`by_name`] find the samples.
//! - [`Sample<W>`] implements it once for every sample's [`World`]; [`SAMPLES`] is the one
//!   list of samples, and [`SampleMut`] names a running sample's type (sample.rs says how
//!   to add one).
//! - [`villager`]: a needs-driven agent after the villager example of the HuskyT
//!   behavior-tree framework, `trees/villager.json`.
//! - [`card_duel`]: the AI of HomeRock, the card game of a Unity game-AI book, played
//!   against the user or a script.
//! - [`counting`]: the same book's MathTree, from built-in nodes.
//! - [`guard`]: a patrol interrupted by a LowerPriority abort, a chase ended by a Self abort.
//!
//! Each sample has its tree in `trees/`, its host node types' manifest in `manifests/`
//! (kept equal to `registry().manifest()` by a test) and a binary in `src/bin/`. Given a
//! seed and a fixed `dt`, every sample is deterministic.

pub mod card_duel;
pub mod counting;
pub mod guard;
pub mod villager;

#[doc(hidden)]
pub mod cli;
mod log;
mod rng;
mod runner;
mod sample;
pub mod save_game;
mod simulation;
mod tree_view;

pub use arbor_runtime::Vec2;
pub use log::{Log, LogLine};
pub use rng::Rng;
pub use sample::{Entry, Sample, SampleMut, World, SAMPLES};
pub use simulation::{
    all, by_name, manifests_dir, trees_dir, Checkpoint, LoadOutcome, RewindError, Simulation,
};
pub use tree_view::TreeView;
