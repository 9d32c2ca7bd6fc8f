//! Villager: the needs-driven sample as a [`Sample`]: a [`VillagerWorld`] and the agent
//! running `trees/villager.json` on it.

use arbor_runtime::{Agent, Observer, Registry, Status};

use super::world::VillagerWorld;
use crate::log::Log;
use crate::sample::{Sample, World};

/// The villager sample (the map and the villager are its `world`).
pub type Villager = Sample<VillagerWorld>;

impl World for VillagerWorld {
    const NAME: &'static str = "villager";
    const TITLE: &'static str = "Villager (needs-driven agent)";
    const TREE: &'static str = "villager.json";
    const DT: f64 = 0.25;
    const SENSED: &'static [&'static str] = &[super::world::EMERGENCY_KEY];

    fn registry() -> Registry<VillagerWorld> {
        super::registry::registry()
    }

    fn new(seed: u64) -> VillagerWorld {
        VillagerWorld::new(seed)
    }

    fn tick(
        &mut self,
        agent: &mut Agent<VillagerWorld>,
        dt: f64,
        observer: &mut dyn Observer,
    ) -> Option<Status> {
        if !self.alive {
            return None;
        }
        agent.advance(dt);
        self.step(dt, agent.now());
        self.sense(agent.blackboard_mut());
        Some(agent.run_traced(self, observer))
    }

    fn finished(&self) -> bool {
        !self.alive
    }

    fn save(&self) -> Option<serde_json::Value> {
        Some(super::save::save(self))
    }

    fn from_save(saved: &serde_json::Value) -> Result<VillagerWorld, String> {
        super::save::load(saved)
    }

    fn log(&self) -> &Log {
        &self.log
    }

    fn summary(&self) -> String {
        let (need, lowest) = self.lowest.lowest();
        format!(
            "{}; {}; {} errands; lowest so far {} {lowest:.1}",
            self.activity,
            self.needs_text(),
            self.errands,
            need.name()
        )
    }
}
