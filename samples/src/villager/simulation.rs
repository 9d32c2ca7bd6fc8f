//! Villager: the needs-driven sample as a [`Simulation`]: a [`VillagerWorld`] and the agent
//! running `trees/villager.json` on it.

use std::any::Any;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{Blackboard, LoadError, NodeId, NodeTypes, Observer, Status};

use super::registry::registry;
use super::world::VillagerWorld;
use crate::log::Log;
use crate::runner::Runner;
use crate::simulation::{trees_dir, LoadOutcome, Simulation};
use crate::tree_view::TreeView;

pub struct Villager {
    /// The map and the villager: what the preview draws.
    pub world: VillagerWorld,
    runner: Runner<VillagerWorld>,
}

impl Villager {
    /// A villager whose world and agent are seeded with `seed`; no tree loaded yet.
    pub fn new(seed: u64) -> Villager {
        Villager {
            world: VillagerWorld::new(seed),
            runner: Runner::new(registry(), seed),
        }
    }
}

impl Simulation for Villager {
    fn name(&self) -> &'static str {
        "villager"
    }

    fn title(&self) -> &'static str {
        "Villager (needs-driven agent)"
    }

    fn tree_path(&self) -> PathBuf {
        trees_dir().join("villager.json")
    }

    fn node_types(&self) -> NodeTypes {
        self.runner.node_types()
    }

    fn default_dt(&self) -> f64 {
        0.25
    }

    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError> {
        self.runner.load(&mut self.world, tree, path)
    }

    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status> {
        if !self.world.alive {
            return None;
        }
        let agent = self.runner.agent_mut()?;
        agent.advance(dt);
        self.world.step(dt, agent.now());
        self.world.sense(agent.blackboard_mut());
        Some(agent.run_traced(&mut self.world, observer))
    }

    fn reset(&mut self) {
        self.world = VillagerWorld::new(self.runner.seed());
        self.runner.reset();
    }

    fn seed(&self) -> u64 {
        self.runner.seed()
    }

    fn set_seed(&mut self, seed: u64) {
        self.runner.set_seed(seed);
        self.reset();
    }

    fn finished(&self) -> bool {
        !self.world.alive
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

    fn tree(&self) -> Option<&dyn TreeView> {
        self.runner.tree()
    }

    fn is_running(&self, node: NodeId) -> bool {
        self.runner.is_running(node)
    }

    fn log(&self) -> &Log {
        &self.world.log
    }

    fn summary(&self) -> String {
        let (need, lowest) = self.world.lowest.lowest();
        format!(
            "{}; {}; {} errands; lowest so far {} {lowest:.1}",
            self.world.activity,
            self.world.needs_text(),
            self.world.errands,
            need.name()
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
