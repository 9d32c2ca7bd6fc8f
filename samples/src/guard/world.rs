//! GuardWorld: the guard's yard: its size, the patrol's waypoints, bushes, the guard and
//! the intruder, and the log: the data the guard's host nodes act on and the preview draws.
//!
//! Each tick the simulation moves the intruder ([`GuardWorld::step`]), then the guard's
//! eyes write the blackboard ([`GuardWorld::sense`], rule 2's host inputs):
//! - `enemy_visible` (bool): the intruder is in view now (not hidden, within
//!   `view_radius`);
//! - `enemy_tracked` (bool, ttl `memory` seconds): rewritten each tick the intruder is seen,
//!   so it expires `memory` seconds after the guard last saw it;
//! - `last_seen` (json `[x, y]`): where the intruder was last seen.

use arbor_runtime::Blackboard;

use super::intruder::{random_point, Bush, Intruder};
use crate::log::Log;
use crate::rng::Rng;
use arbor_runtime::Vec2;

pub const VISIBLE_KEY: &str = "enemy_visible";
pub const TRACKED_KEY: &str = "enemy_tracked";
pub const LAST_SEEN_KEY: &str = "last_seen";

#[derive(Clone, Debug)]
pub struct GuardWorld {
    pub size: Vec2,
    pub waypoints: Vec<Vec2>,
    pub bushes: Vec<Bush>,
    pub guard: Vec2,
    pub intruder: Intruder,
    /// The guard sees this far (bushes hide the intruder completely).
    pub view_radius: f64,
    /// Seconds the guard keeps chasing after losing sight of the intruder.
    pub memory: f64,
    /// The guard catches the intruder this close.
    pub catch_radius: f64,
    pub patrol_speed: f64,
    pub chase_speed: f64,
    /// Whether the guard saw the intruder this tick.
    pub sees_intruder: bool,
    pub catches: u32,
    pub log: Log,
    pub(crate) dt: f64,
    pub(crate) rng: Rng,
}

impl GuardWorld {
    pub fn new(seed: u64) -> GuardWorld {
        let size = Vec2::new(120.0, 80.0);
        let mut rng = Rng::new(seed ^ 0x6A2D);
        let start = Vec2::new(rng.range(5.0, 115.0), 75.0);
        let dest = random_point(size, &mut rng);
        let bush = |x, y| Bush {
            center: Vec2::new(x, y),
            radius: 5.0,
        };
        GuardWorld {
            size,
            waypoints: vec![
                Vec2::new(15.0, 15.0),
                Vec2::new(105.0, 15.0),
                Vec2::new(105.0, 65.0),
                Vec2::new(15.0, 65.0),
            ],
            bushes: vec![bush(60.0, 40.0), bush(25.0, 40.0), bush(95.0, 45.0)],
            guard: Vec2::new(15.0, 15.0),
            intruder: Intruder::new(start, dest),
            view_radius: 22.0,
            memory: 3.0,
            catch_radius: 1.5,
            patrol_speed: 3.0,
            chase_speed: 4.5,
            sees_intruder: false,
            catches: 0,
            log: Log::default(),
            dt: 0.0,
            rng,
        }
    }

    /// Time passes: the intruder moves.
    pub fn step(&mut self, dt: f64, now: f64) {
        self.dt = dt;
        let (guard, size) = (self.guard, self.size);
        self.intruder
            .step(guard, &self.bushes, size, &mut self.rng, now, dt);
    }

    /// What the guard sees, written to the blackboard (keys the tree does not declare, or
    /// declares with another type, are skipped).
    pub fn sense(&mut self, bb: &mut Blackboard) {
        self.sees_intruder = !self.intruder.is_hidden()
            && self.guard.distance(self.intruder.pos) <= self.view_radius;
        if let Some(key) = bb.key(VISIBLE_KEY) {
            let _ = bb.set(key, self.sees_intruder);
        }
        if self.sees_intruder {
            if let Some(key) = bb.key(TRACKED_KEY) {
                let _ = bb.set_with_ttl(key, true, Some(self.memory));
            }
            if let Some(key) = bb.key(LAST_SEEN_KEY) {
                let seen = arbor_runtime::Value::from_json(&self.intruder.pos.to_json());
                let _ = bb.set(key, seen);
            }
        }
    }

    /// The intruder was caught: it is marched off and a new one sneaks in at the map edge.
    pub(crate) fn respawn_intruder(&mut self) {
        let x = self.rng.range(5.0, self.size.x - 5.0);
        let y = if self.rng.chance(0.5) {
            3.0
        } else {
            self.size.y - 3.0
        };
        let dest = random_point(self.size, &mut self.rng);
        let intruder = Intruder::new(Vec2::new(x, y), dest);
        self.intruder = intruder;
        self.sees_intruder = false;
    }

    /// Whether the guard can grab the intruder now.
    pub fn can_catch(&self) -> bool {
        self.sees_intruder && self.guard.distance(self.intruder.pos) <= self.catch_radius
    }
}
