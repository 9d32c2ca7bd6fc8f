//! Arbor's behavior-tree runtime: load tree files written by the Arbor editor, register the
//! program's own actions and conditions, and tick many agents fast and deterministically.
//!
//! # Brief overview
//! - [`Registry`] holds the node types a program can run: the built-in kinds plus host
//!   actions and conditions ([`Action`]) and host composites and decorators
//!   ([`Control`]), each declared by a [`NodeType`] so the editor can offer them
//!   ([`Registry::manifest`]).
//! - [`Loader`] reads a tree file ([`format::TreeFile`]), reports *every* problem as a located
//!   [`Problem`] in a [`LoadError`], and compiles it into a [`CompiledTree`]: immutable, flat,
//!   shared through `Arc` by any number of agents.
//! - [`Agent`] is one running instance: a few dozen bytes of state per node, its
//!   [`Blackboard`], events, triggers, a host-driven clock and a seeded RNG. Ticking it does
//!   not allocate.
//! - [`Observer`] receives every lifecycle event of a tick ([`TraceEvent`]), for previews,
//!   debuggers and tests; [`Recorder`] keeps them, [`LastVisits`] keeps each node's latest
//!   visit of the tick (what a live view draws).
//! - `btcpp` (feature `btcpp`): import BehaviorTree.CPP / Groot2 XML trees as tree files
//!   and export them back (docs/interop.md).
//!
//! # Features
//! None is on by default: a game that links the runtime compiles no argument parser and no
//! XML reader. `btcpp` adds the `btcpp` module (and roxmltree); `debug-server` adds the
//! `debug` module (std only); `cli` builds the `arbor` command-line tool, the package's
//! binary (and clap), and changes nothing in the library.
//!
//! The execution semantics are specified rule by rule in `docs/semantics.md` and explained
//! with examples in `docs/nodes.md`. Code and tests cite the rules by number: "rule 28" in
//! a comment, or a test named `rule28_…`, means rule 28 of docs/semantics.md.
//!
//! ```
//! use std::sync::Arc;
//! use arbor_runtime::{Agent, NodeType, Registry, Status};
//!
//! struct Hero { steps: u32 }
//! let mut registry = Registry::<Hero>::new();
//! registry.action(NodeType::action("Step", "Takes a step."), |cx| {
//!     cx.agent.steps += 1;
//!     Status::Success
//! });
//! let text = r#"{
//!   "format": "arbor-tree", "version": 1,
//!   "guid": "6f1c1a52-0000-4000-8000-000000000000", "name": "walk",
//!   "root": "6f1c1a52-0000-4000-8000-000000000001",
//!   "nodes": [
//!     {"guid": "6f1c1a52-0000-4000-8000-000000000001", "type": "Repeat",
//!      "params": {"count": 3}, "children": ["6f1c1a52-0000-4000-8000-000000000002"]},
//!     {"guid": "6f1c1a52-0000-4000-8000-000000000002", "type": "Step"}
//!   ]
//! }"#;
//! let tree = Arc::new(registry.loader().load_str(text, None)?);
//! let mut agent = Agent::new(tree, 7);
//! let mut hero = Hero { steps: 0 };
//! assert_eq!(agent.tick(&mut hero, 0.1), Status::Success);
//! assert_eq!(hero.steps, 3);
//! # Ok::<(), arbor_runtime::LoadError>(())
//! ```

#![warn(missing_docs)]
// The only exception is `exec::unchecked`, with its invariant stated and tested there.
#![deny(unsafe_code)]

/// The Rust snippets of the guides, compiled and run as doctests: `cargo test --doc`
/// fails if one no longer compiles. tests/guides/mod.rs checks that every guide with a Rust
/// snippet is listed here. Only under `cfg(doctest)`, so the published crate, which has no
/// docs/ folder, never reads these files.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../README.md")]
    pub struct Readme;
    #[doc = include_str!("../../docs/embedding.md")]
    pub struct Embedding;
    #[cfg(feature = "btcpp")]
    #[doc = include_str!("../../docs/interop.md")]
    pub struct Interop;
}

mod agent;
mod args;
mod blackboard;
#[cfg(feature = "btcpp")]
pub mod btcpp;
pub mod builder;
pub mod codegen;
mod compile;
mod control;
#[cfg(feature = "debug-protocol")]
pub mod debug;
mod declare;
mod entity;
mod exec;
pub mod files;
pub mod format;
mod host;
mod last_visits;
pub mod merge;
mod nodes;
mod observes;
mod pacing;
#[cfg(feature = "parallel")]
pub mod parallel;
mod population;
mod port;
mod program;
pub mod refactor;
mod registry;
mod rng;
pub mod script;
pub mod snapshot;
mod spec;
mod status;
pub mod text;
mod tick_mode;
mod trace;
#[cfg(feature = "tracing")]
mod tracing_events;
mod tree;
pub mod user_type;
mod user_value;
mod value;
mod value_text;
mod vector;
mod wake;
#[doc(hidden)]
pub mod work;

pub use agent::Agent;
pub use args::{Arg, Args};
pub use blackboard::{Blackboard, BlackboardError, Key, KeyInfo};
pub use compile::{
    apply_variant_overrides, check_file, check_shape, check_str, check_tree, migrate, parse_str,
    parse_tree_or_variant, parse_variant_str, Embedded, LoadError, LoadOptions, Loader, Problem,
    ProblemKind, Rename, Renamed, Report, Severity,
};
pub use control::{Control, ControlCtx};
pub use declare::{
    node_stub, HostNode, InOut, Input, NodeCtx, NodeDecl, Output, PortDecl, Readable, StubError,
    Writable,
};
pub use entity::Entity;
pub use exec::{LOOP_BUDGET_PER_TICK, MAX_LOOPS_PER_TICK};
pub use host::{Action, ActionCtx, ActionFn, ConditionFn, StatefulAction};
pub use last_visits::{LastVisits, Visit};
pub use nodes::{Scorer, UtilitySelector};
pub use observes::Observes;
pub use pacing::Pacing;
pub use population::{MemberId, Population};
pub use port::{binding, binding_json, InPort, OutPort, PortType, ScalarPort, BINDING_FIELD};
pub use registry::Registry;
pub use rng::Rng;
pub use snapshot::{RestoreReport, Snapshot, SnapshotError};
pub use spec::{
    Category, ChildCount, Direction, NodeType, NodeTypes, ParamKind, ParamSpec, SourceLocation,
    StandIn, ValueTypeDecl, MANIFEST_FORMAT,
};
pub use status::Status;
pub use tick_mode::{TickMode, MAX_RETICKS};
pub use trace::{NodeId, Observer, Recorded, Recorder, TraceEvent};
#[cfg(feature = "tracing")]
pub use tracing_events::TracingObserver;
pub use tree::{CompiledTree, NodeInfo};
pub use user_type::{UserType, UserTypeError};
pub use user_value::{UserValue, USER_VALUE_BYTES};
pub use value::{Scalar, Value, ValueType};
pub use value_text::Text;
pub use vector::{Vec2, Vec3};
pub use wake::WakeCondition;
