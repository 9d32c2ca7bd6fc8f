//! Guard: the patrol-and-chase sample as a [`Sample`]: a [`GuardWorld`] and the agent
//! running `trees/guard.json` on it.

use arbor_runtime::{Agent, Observer, Registry, Status};

use super::world::GuardWorld;
use crate::log::Log;
use crate::sample::{Sample, World};

/// The guard sample (the yard, the guard and the intruder are its `world`).
pub type Guard = Sample<GuardWorld>;

impl World for GuardWorld {
    const NAME: &'static str = "guard";
    const TITLE: &'static str = "Guard (patrol, chase and aborts)";
    const TREE: &'static str = "guard.json";
    const DT: f64 = 0.25;
    const SENSED: &'static [&'static str] = &[
        super::world::VISIBLE_KEY,
        super::world::TRACKED_KEY,
        super::world::LAST_SEEN_KEY,
    ];

    fn registry() -> Registry<GuardWorld> {
        super::registry::registry()
    }

    fn new(seed: u64) -> GuardWorld {
        GuardWorld::new(seed)
    }

    fn tick(
        &mut self,
        agent: &mut Agent<GuardWorld>,
        dt: f64,
        observer: &mut dyn Observer,
    ) -> Option<Status> {
        agent.advance(dt);
        self.step(dt, agent.now());
        self.sense(agent.blackboard_mut());
        Some(agent.run_traced(self, observer))
    }

    fn log(&self) -> &Log {
        &self.log
    }

    fn summary(&self) -> String {
        let doing = if self.sees_intruder {
            "sees the intruder"
        } else if self.intruder.is_hidden() {
            "the intruder is hiding"
        } else {
            "no intruder in sight"
        };
        format!(
            "guard at ({:.0}, {:.0}); {doing}; {} catches",
            self.guard.x, self.guard.y, self.catches
        )
    }
}
