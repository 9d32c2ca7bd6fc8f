//! arbor-bevy: Arbor behavior trees in a Bevy app. Tree files are assets, each entity that
//! thinks carries an [`ArborAgent`] component, and [`ArborPlugin`] ticks the agents once
//! per frame, in parallel: those that are due (an agent may tick less often, at its tick
//! interval) and awake (an agent whose tick would do nothing sleeps until it can).
//!
//! # Brief overview
//! - [`ArborTree`] is the asset: a tree file (`*.tree.json` or any `.json` loaded as one),
//!   parsed by [`ArborTreeLoader`]. Compiling needs the program's node types, so it
//!   happens in [`ArborPlugin`]'s systems, with the [`arbor_runtime::Registry`] the plugin
//!   was given; every problem of a tree that does not compile is kept in
//!   [`TreeProblems`] (and printed on stderr).
//! - [`ArborAgent<C>`] is the per-entity component: the tree's handle, a seed and, once
//!   the tree is compiled, the running [`arbor_runtime::Agent`].
//! - `C` is a component on the same entity: the data host actions see as `cx.agent`. A
//!   host action reaches the entity's components through it: put in `C` what the tree acts
//!   on (position, needs, …), or copy other components into it in a system of your own
//!   that runs before [`ArborSystems::Tick`].
//! - Hot reload: when a tree asset changes (the asset server's `file_watcher` feature, or
//!   `Assets::<ArborTree>::insert`), it is recompiled and every agent running it switches
//!   through [`arbor_runtime::Agent::reload`] (running nodes are halted through abort and
//!   exit first; blackboard values of the same name and type survive).
//!
//! - Subtrees: the tree files a tree's Subtree nodes name are loaded by the asset server as
//!   its dependencies, from the tree's own asset source (a folder, `embedded://`, a packed
//!   or web source: whatever the game reads assets from), and handed to the compiler,
//!   which reads no file itself; a changed subtree file recompiles every tree that uses it.
//! - Debugging (feature `debug`): [`ArborPlugin::debug_server`] serves Arbor's debug
//!   protocol, so the editor attaches to the running game and shows every agent live.
//! - In-game viewer (feature `viewer`): [`ArborViewerPlugin`] draws the live tree of the
//!   entity [`ArborViewer`] names in an egui window (bevy_egui), with `arbor-viewer`'s
//!   painter, the editor's.
//!
//! arbor-bevy depends on Bevy's parts (`bevy_app`, `bevy_ecs`, `bevy_asset`, …), which a
//! game that uses the `bevy` crate links too: `bevy_app::App` is `bevy::app::App`.
//!
//! # Limitations
//! - `C` is one component; queries over several components per host action are not
//!   offered (copy them into `C`, as above).
//!
//! ```no_run
//! use bevy_app::{App, ScheduleRunnerPlugin, TaskPoolPlugin};
//! use bevy_asset::{AssetPlugin, AssetServer, Handle};
//! use bevy_ecs::component::Component;
//! use bevy_time::TimePlugin;
//! use arbor_bevy::{ArborAgent, ArborPlugin, ArborTree};
//! use arbor_runtime::{NodeType, Registry, Status};
//!
//! #[derive(Component, Default)]
//! struct Npc { jumps: u32 }
//!
//! let mut registry = Registry::<Npc>::new();
//! registry.action(NodeType::action("Jump", "Jumps."), |cx| {
//!     cx.agent.jumps += 1;
//!     Status::Success
//! });
//! let mut app = App::new();
//! // With the `bevy` crate: `(MinimalPlugins, AssetPlugin::default(), ArborPlugin::new(…))`.
//! app.add_plugins((
//!     (TaskPoolPlugin::default(), TimePlugin, ScheduleRunnerPlugin::default()),
//!     AssetPlugin::default(),
//!     ArborPlugin::new(registry),
//! ));
//! let tree: Handle<ArborTree> = app.world().resource::<AssetServer>().load("npc.json");
//! app.world_mut().spawn((ArborAgent::<Npc>::new(tree, 1), Npc::default()));
//! app.update();
//! ```
// Without the `debug` (`viewer`) feature the method (the viewer's types) does not exist:
// their names above then point to the plugin rather than nowhere (which `cargo doc` would
// warn about).
#![cfg_attr(
    not(feature = "debug"),
    doc = "[`ArborPlugin::debug_server`]: ArborPlugin"
)]
#![cfg_attr(not(feature = "viewer"), doc = "[`ArborViewerPlugin`]: ArborPlugin")]
#![cfg_attr(not(feature = "viewer"), doc = "[`ArborViewer`]: ArborPlugin")]

/// docs/bevy.md's snippets, compiled and run as doctests (`cargo test -p arbor-bevy --doc`).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/bevy.md")]
pub struct Guide;

mod agent;
mod asset;
#[cfg(feature = "debug")]
mod debug;
mod plugin;
#[cfg(feature = "viewer")]
mod viewer;

pub use agent::ArborAgent;
pub use asset::{ArborTree, ArborTreeLoader, TreeLoadError};
#[cfg(feature = "debug")]
pub use debug::ArborDebugServer;
pub use plugin::{ArborPlugin, ArborSystems, CompiledTrees, TreeProblems};
#[cfg(feature = "viewer")]
pub use viewer::{ArborViewer, ArborViewerPlugin};
