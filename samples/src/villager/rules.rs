//! VillagerRules: the numbers of the villager's world (decay, gains, costs, speed), in one
//! place so that the survival guarantee tested in `tests/villager.rs` has one place to
//! change.
//!
//! Why these values: the slowest round trip is a walk across the map (about 17 s at the
//! default speed) plus the time to refill a need from its threshold, and no need may run
//! from its `Feel*` threshold to zero in less than that, even while the villager is busy
//! with an errand that cannot be interrupted (eating, drinking).

use super::need::{Need, Needs};

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VillagerRules {
    /// Loss per second of each need, always.
    pub decay: Needs,
    /// Gain per second of a need while its action runs in its zone.
    pub gain: Needs,
    /// Extra loss per second of every need while the action for `need` runs: eating and fun
    /// cost money, work costs energy and mood.
    pub costs: [(Need, Needs); 3],
    /// An action stops (fails) rather than pay a cost that would take a need below this.
    pub cost_floor: f64,
    /// Walking speed, map units per second.
    pub speed: f64,
    /// Food or water below this is an emergency (the `emergency` blackboard key).
    pub emergency_below: f64,
}

impl Default for VillagerRules {
    fn default() -> Self {
        VillagerRules {
            decay: Needs::new(0.5, 0.6, 0.3, 0.35, 0.25),
            gain: Needs::new(15.0, 20.0, 8.0, 12.0, 10.0),
            costs: [
                (Need::Food, Needs::new(0.0, 0.0, 0.0, 0.0, 0.5)),
                (Need::Mood, Needs::new(0.0, 0.0, 0.0, 0.0, 1.0)),
                (Need::Money, Needs::new(0.0, 0.0, 1.0, 0.5, 0.0)),
            ],
            cost_floor: 10.0,
            speed: 12.0,
            emergency_below: 20.0,
        }
    }
}

impl VillagerRules {
    /// Extra loss per second of each need while the action for `need` runs.
    pub fn cost_of(&self, need: Need) -> Needs {
        self.costs
            .iter()
            .find(|(n, _)| *n == need)
            .map_or(Needs::splat(0.0), |(_, c)| *c)
    }
}
