//! The in-game tree viewer (feature `viewer`): the live tree of one chosen entity's agent,
//! in an egui window drawn through bevy_egui. The painter is `arbor-viewer`'s, the one the
//! editor draws its trees with, so a node's colour means in the game what it means in the
//! editor.
//!
//! The watched agent ticks through its viewer (which records what each node did) in the
//! plugin's tick system, in parallel with every other agent; the other agents tick as
//! before. A viewer belongs to the compiled tree it was built for: after a hot reload the
//! viewer is built again for the new tree (until then the agent ticks unwatched), so it
//! never reads one tree's ticks against another's nodes. An agent served to the editor by
//! the debug server (feature `debug`) ticks through the server instead: the window then
//! shows its tree without live statuses.

use std::marker::PhantomData;
use std::sync::Arc;

use arbor_runtime::CompiledTree;
use arbor_viewer::TreeViewer;
use bevy_app::{App, Plugin, Update};
use bevy_asset::Assets;
use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::entity::Entity;
use bevy_ecs::error::Result;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs as _;
use bevy_ecs::system::{Local, Query, Res};
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass};
use bevy_platform::cell::SyncCell;

use crate::agent::ArborAgent;
use crate::asset::ArborTree;
use crate::plugin::{ArborRegistry, ArborSystems};

/// Shows the tree of [`ArborViewer::entity`]'s agent (host data `C`) in an egui window.
/// Add it after [`crate::ArborPlugin`]; it adds bevy_egui's [`EguiPlugin`] if the app has
/// none.
pub struct ArborViewerPlugin<C> {
    _host: PhantomData<fn() -> C>,
}

impl<C> Default for ArborViewerPlugin<C> {
    fn default() -> Self {
        ArborViewerPlugin { _host: PhantomData }
    }
}

/// Which entity's tree the viewer shows: set `entity` (a resource; `None`, the default,
/// shows no window).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArborViewer {
    /// The entity whose agent is shown.
    pub entity: Option<Entity>,
}

/// The watched agent's viewer, and the compiled tree it was built for.
pub(crate) struct Watch<C> {
    pub(crate) tree: Arc<CompiledTree<C>>,
    pub(crate) viewer: TreeViewer,
    /// The window's title: "`tree` #entity", as the debug server lists agents.
    title: String,
}

impl<C> Plugin for ArborViewerPlugin<C>
where
    C: Component<Mutability = Mutable> + Send + Sync + 'static,
{
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        app.init_resource::<ArborViewer>()
            .add_systems(Update, follow::<C>.after(ArborSystems::Tick))
            .add_systems(EguiPrimaryContextPass, show::<C>);
    }
}

/// Gives the watched agent a viewer of the tree it runs (once it runs one), and takes it
/// from an agent no longer watched. Runs after the tick, so an agent that just started or
/// reloaded is watched from its next tick on.
fn follow<C>(
    watched: Res<ArborViewer>,
    mut last: Local<Option<Entity>>,
    mut agents: Query<&mut ArborAgent<C>>,
    assets: Res<Assets<ArborTree>>,
    registry: Res<ArborRegistry<C>>,
) where
    C: Component<Mutability = Mutable> + Send + Sync + 'static,
{
    if *last != watched.entity {
        if let Some(mut old) = last.and_then(|e| agents.get_mut(e).ok()) {
            old.viewer = None;
        }
        *last = watched.entity;
    }
    let Some(entity) = watched.entity else {
        return;
    };
    let Ok(mut arbor) = agents.get_mut(entity) else {
        return;
    };
    let Some(running) = arbor.running.clone() else {
        return;
    };
    let current = arbor
        .viewer
        .as_mut()
        .is_some_and(|w| Arc::ptr_eq(&w.get().tree, &running));
    if current {
        return;
    }
    arbor.viewer = None;
    let Some(asset) = assets.get(arbor.tree_id()) else {
        return;
    };
    let viewer = TreeViewer::new(&running, &asset.file, registry.0.types());
    let title = format!("{} #{}", asset.file.name, entity.index());
    arbor.viewer = Some(SyncCell::new(Watch {
        tree: running,
        viewer,
        title,
    }));
}

/// Draws the watched agent's tree in its window.
fn show<C>(
    mut contexts: EguiContexts,
    watched: Res<ArborViewer>,
    mut agents: Query<&mut ArborAgent<C>>,
) -> Result
where
    C: Component<Mutability = Mutable> + Send + Sync + 'static,
{
    let Some(mut arbor) = watched.entity.and_then(|e| agents.get_mut(e).ok()) else {
        return Ok(());
    };
    let Some(watch) = arbor.viewer.as_mut().map(SyncCell::get) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    bevy_egui::egui::Window::new(watch.title.as_str()).show(ctx, |ui| {
        watch.viewer.ui(ui);
    });
    Ok(())
}
