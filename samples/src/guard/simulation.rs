//! Guard: the patrol-and-chase sample as a [`Simulation`]: a [`GuardWorld`] and the agent
//! running `trees/guard.json` on it.

use std::any::Any;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{Blackboard, LoadError, NodeId, NodeTypes, Observer, Status};

use super::registry::registry;
use super::world::GuardWorld;
use crate::log::Log;
use crate::runner::Runner;
use crate::simulation::{trees_dir, LoadOutcome, Simulation};
use crate::tree_view::TreeView;

pub struct Guard {
    /// The yard, the guard and the intruder: what the preview draws.
    pub world: GuardWorld,
    runner: Runner<GuardWorld>,
}

impl Guard {
    /// A guard whose world and agent are seeded with `seed`; no tree loaded yet.
    pub fn new(seed: u64) -> Guard {
        Guard {
            world: GuardWorld::new(seed),
            runner: Runner::new(registry(), seed),
        }
    }
}

impl Simulation for Guard {
    fn name(&self) -> &'static str {
        "guard"
    }

    fn title(&self) -> &'static str {
        "Guard (patrol, chase and aborts)"
    }

    fn tree_path(&self) -> PathBuf {
        trees_dir().join("guard.json")
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
        let agent = self.runner.agent_mut()?;
        agent.advance(dt);
        self.world.step(dt, agent.now());
        self.world.sense(agent.blackboard_mut());
        Some(agent.run_traced(&mut self.world, observer))
    }

    fn reset(&mut self) {
        self.world = GuardWorld::new(self.runner.seed());
        self.runner.reset();
    }

    fn seed(&self) -> u64 {
        self.runner.seed()
    }

    fn set_seed(&mut self, seed: u64) {
        self.runner.set_seed(seed);
        self.reset();
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
        let w = &self.world;
        let doing = if w.sees_intruder {
            "sees the intruder"
        } else if w.intruder.is_hidden() {
            "the intruder is hiding"
        } else {
            "no intruder in sight"
        };
        format!(
            "guard at ({:.0}, {:.0}); {doing}; {} catches",
            w.guard.x, w.guard.y, w.catches
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
