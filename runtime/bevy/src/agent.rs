//! ArborAgent: the component that makes an entity run a tree, and when it ticks: its tick
//! interval (semantics rule 87) and its sleep (rules 82 to 84), through the runtime's
//! `Pacing`.

use std::sync::Arc;

use bevy_asset::{AssetId, Handle};
use bevy_ecs::component::Component;
use bevy_platform::cell::SyncCell;

use arbor_runtime::{Agent, CompiledTree, Pacing, Status};

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
    /// When the agent is ticked; its frames are counted on `clock`.
    pacing: Pacing,
    /// The sum of the frames' `dt` since the agent started: the agent's clock at its ticks.
    clock: f64,
    /// `clock` at the agent's last tick.
    last_tick: f64,
    /// Frames went by without a tick: the agent's clock is behind `clock`.
    behind: bool,
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
            pacing: Pacing::new(0.0),
            clock: 0.0,
            last_tick: 0.0,
            behind: false,
        }
    }

    /// Ticks the agent at most once per `seconds` (semantics rule 87: a far agent at 4 Hz
    /// is 0.25), with the time in between accumulated into its tick; 0: every frame.
    pub fn with_tick_interval(mut self, seconds: f64) -> Self {
        self.set_tick_interval(seconds);
        self
    }

    /// As [`ArborAgent::with_tick_interval`], for a running agent (a level of detail that
    /// changes with distance).
    pub fn set_tick_interval(&mut self, seconds: f64) {
        self.pacing.set_interval(seconds);
    }

    /// The tick interval in seconds; 0 for every frame.
    pub fn tick_interval(&self) -> f64 {
        self.pacing.interval()
    }

    /// Lets the agent sleep (the default: it skips frames whose tick would be idle, rule
    /// 82) or keeps it ticked at every due frame.
    pub fn set_sleeps(&mut self, sleeps: bool) {
        self.pacing.set_sleeps(sleeps);
    }

    /// Whether the agent is asleep: not ticked until its wake time or an input.
    pub fn is_asleep(&self) -> bool {
        self.pacing.is_asleep()
    }

    /// Ends the agent's sleep (rule 84): for world state that a sleeping host action reads
    /// and that is not in the entity's `C` (changes to `C` and to this component wake it
    /// by themselves).
    pub fn wake(&mut self) {
        self.pacing.wake();
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
        self.pacing.wake();
        self.agent.as_mut().map(SyncCell::get)
    }

    /// What the root returned on the last tick; `None` before the first.
    pub fn last_status(&self) -> Option<Status> {
        self.last
    }

    /// One frame of `dt` seconds for the running agent: ticks it if it is due and awake
    /// (`woken`: its components changed since the last frame), through its debug handle if
    /// it has one (then a paused agent does not tick and keeps its last status), else
    /// through the in-game viewer if it watches this agent's current tree. A watched or
    /// debugged agent is ticked at every frame, as those tools show every tick.
    pub(crate) fn frame(&mut self, data: &mut C, dt: f64, woken: bool) {
        let Some(agent) = self.agent.as_mut() else {
            return;
        };
        let agent = agent.get();
        if woken {
            self.pacing.wake();
        }
        let previous = self.clock;
        self.clock += dt;
        #[cfg(feature = "debug")]
        let watched = self.instance.is_some();
        #[cfg(not(feature = "debug"))]
        let watched = false;
        #[cfg(feature = "viewer")]
        let watched = watched
            || match (self.viewer.as_mut(), self.running.as_ref()) {
                (Some(watch), Some(running)) => Arc::ptr_eq(&watch.get().tree, running),
                _ => false,
            };
        if watched {
            if std::mem::take(&mut self.behind) {
                // Frames it slept through: its clock catches up to the last one.
                agent.catch_up(previous, self.last_tick);
            }
            self.last_tick = self.clock;
            self.pacing.wake();
            self.tick_watched(data, dt);
            return;
        }
        let Some(before) = self.pacing.due(self.clock, previous) else {
            self.behind = true;
            return;
        };
        // `before` is the host's clock at the previous due frame; the agent's previous
        // tick, for `ActionCtx::dt`, is that frame whether it was ticked or slept through.
        agent.catch_up(self.clock, before);
        self.behind = false;
        self.last_tick = self.clock;
        let status = agent.run(data);
        self.last = Some(status);
        self.pacing.ticked(agent, status);
    }

    /// A tick through the debug handle or the viewer (`frame`).
    fn tick_watched(&mut self, data: &mut C, dt: f64) {
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
