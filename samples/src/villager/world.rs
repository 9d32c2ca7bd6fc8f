//! VillagerWorld: the villager's map and state, the data its host nodes act on and the
//! editor's preview draws (map size, zones, position, needs, activity, log).
//!
//! Each tick the simulation calls [`VillagerWorld::step`] (needs decay; a need at zero kills
//! the villager) and [`VillagerWorld::sense`] (writes `emergency` to the blackboard) before
//! the tree runs: rule 2's host inputs.

use arbor_runtime::Blackboard;

use super::need::{Need, Needs};
use super::rules::VillagerRules;
use super::zone::{Zone, ZoneColor};
use crate::log::Log;
use crate::rng::Rng;
use arbor_runtime::Vec2;

/// What the villager is doing, for drawing and the summary.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Activity {
    Idle,
    Walking(ZoneColor),
    /// Running the action that raises this need.
    Doing(Need),
    Dead,
}

impl std::fmt::Display for Activity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Activity::Idle => f.write_str("idle"),
            Activity::Walking(zone) => write!(f, "walking to the {} zone", zone.name()),
            Activity::Doing(need) => f.write_str(need.doing()),
            Activity::Dead => f.write_str("dead"),
        }
    }
}

/// The blackboard key the senses write: true while food or water is critically low.
pub const EMERGENCY_KEY: &str = "emergency";

#[derive(Clone, Debug)]
pub struct VillagerWorld {
    /// Map width and height.
    pub size: Vec2,
    pub zones: Vec<Zone>,
    /// The villager's position.
    pub pos: Vec2,
    pub needs: Needs,
    /// The lowest level each need has reached so far.
    pub lowest: Needs,
    pub activity: Activity,
    pub alive: bool,
    /// Errands completed (a `EatFood`, `Work`, … that succeeded).
    pub errands: u32,
    pub rules: VillagerRules,
    pub log: Log,
    /// The current tick's time step, for actions.
    pub(crate) dt: f64,
}

impl VillagerWorld {
    /// The standard map with the villager near the middle and needs between 60 and 90,
    /// both drawn from `seed`.
    pub fn new(seed: u64) -> VillagerWorld {
        let mut rng = Rng::new(seed);
        let zone = |color, x, y| Zone {
            color,
            center: Vec2::new(x, y),
            radius: 12.0,
        };
        let mut needs = Needs::default();
        for need in Need::ALL {
            needs.set(need, rng.range(60.0, 90.0));
        }
        VillagerWorld {
            size: Vec2::new(200.0, 140.0),
            zones: vec![
                zone(ZoneColor::Red, 40.0, 35.0),
                zone(ZoneColor::Blue, 160.0, 35.0),
                zone(ZoneColor::White, 100.0, 115.0),
                zone(ZoneColor::Green, 30.0, 110.0),
                zone(ZoneColor::Yellow, 170.0, 110.0),
            ],
            pos: Vec2::new(rng.range(80.0, 120.0), rng.range(55.0, 85.0)),
            needs,
            lowest: needs,
            activity: Activity::Idle,
            alive: true,
            errands: 0,
            rules: VillagerRules::default(),
            log: Log::default(),
            dt: 0.0,
        }
    }

    /// Time passes: every need decays; one at zero kills the villager.
    pub fn step(&mut self, dt: f64, now: f64) {
        self.dt = dt;
        if !self.alive {
            return;
        }
        for need in Need::ALL {
            self.needs.add(need, -self.rules.decay.get(need) * dt);
        }
        self.note_lowest();
        let (need, level) = self.needs.lowest();
        if level <= 0.0 {
            self.alive = false;
            self.activity = Activity::Dead;
            self.log.push(now, format!("dies: out of {}", need.name()));
        }
    }

    /// Writes what the villager senses to the blackboard: `emergency` when food or water is
    /// below `rules.emergency_below`. A tree that does not declare the key is not told.
    pub fn sense(&self, bb: &mut Blackboard) {
        if let Some(key) = bb.key(EMERGENCY_KEY) {
            let low = self.rules.emergency_below;
            let emergency = self.needs.get(Need::Food) < low || self.needs.get(Need::Water) < low;
            // A tree that retyped the key cannot be told; its Conditions will read no value.
            let _ = bb.set(key, emergency);
        }
    }

    /// The zone of this colour nearest to the villager.
    pub fn nearest_zone(&self, color: ZoneColor) -> Option<&Zone> {
        self.zones
            .iter()
            .filter(|z| z.color == color)
            .min_by(|a, b| {
                let (da, db) = (a.center.distance(self.pos), b.center.distance(self.pos));
                da.total_cmp(&db)
            })
    }

    /// Whether the villager stands in a zone of this colour.
    pub fn in_zone(&self, color: ZoneColor) -> bool {
        self.zones
            .iter()
            .any(|z| z.color == color && z.contains(self.pos))
    }

    pub(crate) fn note_lowest(&mut self) {
        for need in Need::ALL {
            if self.needs.get(need) < self.lowest.get(need) {
                self.lowest.set(need, self.needs.get(need));
            }
        }
    }

    /// "food 54 water 80 …", rounded, for logs and summaries.
    pub fn needs_text(&self) -> String {
        self.needs
            .iter()
            .map(|(n, v)| format!("{} {v:.0}", n.name()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_need_at_zero_kills() {
        let mut world = VillagerWorld::new(3);
        world.needs.set(Need::Water, 0.1);
        world.step(1.0, 1.0);
        assert!(!world.alive);
        assert_eq!(world.activity, Activity::Dead);
        assert_eq!(world.lowest.get(Need::Water), 0.0);
        assert!(world.log.last().is_some_and(|l| l.text.contains("water")));
    }
}
