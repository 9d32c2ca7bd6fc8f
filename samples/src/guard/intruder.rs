//! Intruder: the guard's quarry, scripted (not a tree): it wanders between random points,
//! runs for the nearest bush when it notices the guard, hides there for a while (invisible)
//! until the guard has moved on, then wanders off again. Its choices draw from the world's seeded [`Rng`].

use crate::rng::Rng;
use arbor_runtime::Vec2;

/// A bush: a circle the intruder can hide in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bush {
    pub center: Vec2,
    pub radius: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntruderMode {
    Wander {
        dest: Vec2,
    },
    Flee {
        bush: Vec2,
    },
    /// Hidden in a bush until this time.
    Hide {
        until: f64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Intruder {
    pub pos: Vec2,
    pub mode: IntruderMode,
    pub wander_speed: f64,
    pub flee_speed: f64,
    /// It notices the guard this close (a little less than the guard's view, so the guard
    /// usually gets a head start).
    pub notice_radius: f64,
    /// It leaves a bush only when the guard is farther than this (beyond the guard's view).
    pub clear_radius: f64,
}

impl Intruder {
    pub fn new(pos: Vec2, dest: Vec2) -> Intruder {
        Intruder {
            pos,
            mode: IntruderMode::Wander { dest },
            wander_speed: 2.5,
            flee_speed: 3.3,
            notice_radius: 15.0,
            clear_radius: 25.0,
        }
    }

    pub fn is_hidden(&self) -> bool {
        matches!(self.mode, IntruderMode::Hide { .. })
    }

    /// Moves for `dt` seconds, given where the guard is.
    pub fn step(
        &mut self,
        guard: Vec2,
        bushes: &[Bush],
        size: Vec2,
        rng: &mut Rng,
        now: f64,
        dt: f64,
    ) {
        match self.mode {
            IntruderMode::Wander { dest } => {
                if self.pos.distance(guard) <= self.notice_radius {
                    if let Some(bush) = nearest(bushes, self.pos) {
                        self.mode = IntruderMode::Flee { bush: bush.center };
                        return self.step(guard, bushes, size, rng, now, dt);
                    }
                }
                self.pos = self.pos.toward(dest, self.wander_speed * dt);
                if self.pos == dest {
                    self.mode = IntruderMode::Wander {
                        dest: random_point(size, rng),
                    };
                }
            }
            IntruderMode::Flee { bush } => {
                self.pos = self.pos.toward(bush, self.flee_speed * dt);
                if self.pos == bush {
                    self.mode = IntruderMode::Hide {
                        until: now + rng.range(5.0, 9.0),
                    };
                }
            }
            IntruderMode::Hide { until } => {
                // It waits until the guard has moved on, so a guard standing by the bush
                // does not see it step out and dive back in forever.
                if now >= until && self.pos.distance(guard) > self.clear_radius {
                    self.mode = IntruderMode::Wander {
                        dest: random_point(size, rng),
                    };
                }
            }
        }
    }
}

fn nearest(bushes: &[Bush], p: Vec2) -> Option<&Bush> {
    bushes
        .iter()
        .min_by(|a, b| a.center.distance(p).total_cmp(&b.center.distance(p)))
}

/// A point at least 5 units inside the map.
pub(crate) fn random_point(size: Vec2, rng: &mut Rng) -> Vec2 {
    Vec2::new(rng.range(5.0, size.x - 5.0), rng.range(5.0, size.y - 5.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flees_to_a_bush_and_hides_when_the_guard_is_near() {
        let bushes = [Bush {
            center: Vec2::new(10.0, 0.0),
            radius: 4.0,
        }];
        let mut rng = Rng::new(1);
        let mut intruder = Intruder::new(Vec2::new(0.0, 0.0), Vec2::new(-50.0, 0.0));
        let size = Vec2::new(100.0, 100.0);
        intruder.step(Vec2::new(0.0, 5.0), &bushes, size, &mut rng, 0.0, 1.0);
        assert!(matches!(intruder.mode, IntruderMode::Flee { .. }));
        for t in 1..10 {
            intruder.step(
                Vec2::new(0.0, 5.0),
                &bushes,
                size,
                &mut rng,
                f64::from(t),
                1.0,
            );
        }
        assert!(intruder.is_hidden());
    }
}
