//! ArborAgent: the component that makes an entity run a tree.

use std::sync::Arc;

use bevy_asset::{AssetId, Handle};
use bevy_ecs::component::Component;
use bevy_platform::cell::SyncCell;

use arbor_runtime::{Agent, CompiledTree, Status};

use crate::asset::ArborTree;

/// An entity's behavior: which tree it runs, and (once that tree is compiled) its running
/// [`Agent`]. The host data `C` is a component on the same entity.
#[derive(Component)]
pub struct ArborAgent<C: Send + Sync + 'static> {
    tree: Handle<ArborTree>,
    seed: u64,
    /// In a `SyncCell` because an agent is `Send` but not `Sync` (host state is `Send`
    /// only) while components must be both: the cell gives access through `&mut` only.
    pub(crate) agent: Option<SyncCell<Agent<C>>>,
    /// The compiled tree the agent runs, to notice a recompiled one.
    pub(crate) running: Option<Arc<CompiledTree<C>>>,
    pub(crate) last: Option<Status>,
    /// The `CompiledTrees` generation this agent last checked its tree against.
    pub(crate) seen: Option<u64>,
    /// Its handle on the debug server, when the plugin runs one; ticks go through it.
    #[cfg(feature = "debug")]
    pub(crate) instance: Option<SyncCell<arbor_runtime::debug::Instance>>,
    /// The in-game viewer, while this entity is the one shown; ticks go through it.
    #[cfg(feature = "viewer")]
    pub(crate) viewer: Option<SyncCell<crate::viewer::Watch<C>>>,
}

impl<C: Send + Sync + 'static> ArborAgent<C> {
    /// An agent that will run `tree` with its random generator seeded by `seed`.
    pub fn new(tree: Handle<ArborTree>, seed: u64) -> Self {
        ArborAgent {
            tree,
            seed,
            agent: None,
            running: None,
            last: None,
            seen: None,
            #[cfg(feature = "debug")]
            instance: None,
            #[cfg(feature = "viewer")]
            viewer: None,
        }
    }

    /// The tree asset.
    pub fn tree(&self) -> &Handle<ArborTree> {
        &self.tree
    }

    pub(crate) fn tree_id(&self) -> AssetId<ArborTree> {
        self.tree.id()
    }

    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The running agent: read or write its blackboard, raise events, between ticks;
    /// `None` until the tree is compiled. (`&mut self`: the agent is shared with no other
    /// thread, see the field.)
    pub fn agent_mut(&mut self) -> Option<&mut Agent<C>> {
        self.agent.as_mut().map(SyncCell::get)
    }

    /// What the root returned on the last tick; `None` before the first.
    pub fn last_status(&self) -> Option<Status> {
        self.last
    }

    /// Ticks the running agent (through its debug handle, if it has one: then a paused
    /// agent does not tick and keeps its last status; else through the in-game viewer, if
    /// it watches this agent's current tree).
    pub(crate) fn tick(&mut self, data: &mut C, dt: f64) {
        let Some(agent) = self.agent.as_mut() else {
            return;
        };
        #[cfg(feature = "debug")]
        if let Some(instance) = self.instance.as_mut() {
            if let Some(status) = instance.get().tick(agent.get(), data, dt) {
                self.last = Some(status);
            }
            return;
        }
        #[cfg(feature = "viewer")]
        if let (Some(watch), Some(running)) = (self.viewer.as_mut(), self.running.as_ref()) {
            let watch = watch.get();
            if Arc::ptr_eq(&watch.tree, running) {
                self.last = Some(watch.viewer.tick(agent.get(), data, dt));
                return;
            }
        }
        self.last = Some(agent.get().tick(data, dt));
    }
}
