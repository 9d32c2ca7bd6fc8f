//! Arbor samples: small simulations whose agents run behavior trees through the public
//! `arbor-runtime` API, for the headless binaries, the tests and the editor's live preview.
//!
//! # Brief overview
//! - [`Simulation`] is the dyn-safe interface every sample implements: load (and
//!   hot-reload) a tree, tick it against the world with an [`arbor_runtime::Observer`],
//!   reset, read the blackboard, map trace node ids to GUIDs ([`TreeView`]), read the
//!   [`Log`]. [`all`] and [`by_name`] list the samples.
//! - [`villager`]: a needs-driven agent ([000]'s example), `trees/villager.json`.
//! - [`card_duel`]: [001]'s HomeRock duel AI, played against the user or a script.
//! - [`counting`]: [001]'s MathTree from built-in nodes.
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
mod simulation;
mod tree_view;
mod vec2;

pub use log::{Log, LogLine};
pub use rng::Rng;
pub use simulation::{all, by_name, manifests_dir, trees_dir, LoadOutcome, Simulation};
pub use tree_view::TreeView;
pub use vec2::Vec2;
