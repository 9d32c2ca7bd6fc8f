//! Vec2: a point or direction on a sample's 2D map (map units, y down like the editor's
//! canvas).

use std::ops::{Add, Mul, Sub};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }

    pub fn distance(self, other: Vec2) -> f64 {
        (other - self).length()
    }

    /// Moves towards `target` by at most `step`; lands exactly on it when it is closer than
    /// that, so that "arrived" can be tested with `==`-free distance checks that never
    /// overshoot and oscillate.
    pub fn toward(self, target: Vec2, step: f64) -> Vec2 {
        let delta = target - self;
        let distance = delta.length();
        if distance <= step || distance == 0.0 {
            target
        } else {
            self + delta * (step / distance)
        }
    }

    /// `[x, y]`, the form used on the blackboard and in editor files.
    pub fn to_json(self) -> serde_json::Value {
        serde_json::json!([self.x, self.y])
    }

    /// Reads `[x, y]`; `None` for anything else.
    pub fn from_json(json: &serde_json::Value) -> Option<Vec2> {
        match json.as_array()?.as_slice() {
            [x, y] => Some(Vec2::new(x.as_f64()?, y.as_f64()?)),
            _ => None,
        }
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toward_never_overshoots() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(3.0, 4.0);
        assert_eq!(a.toward(b, 2.5), Vec2::new(1.5, 2.0));
        assert_eq!(a.toward(b, 5.0), b);
        assert_eq!(a.toward(b, 50.0), b);
        assert_eq!(b.toward(b, 1.0), b);
    }

    #[test]
    fn json_round_trips() {
        let p = Vec2::new(1.5, -2.0);
        assert_eq!(Vec2::from_json(&p.to_json()), Some(p));
        assert_eq!(Vec2::from_json(&serde_json::json!([1])), None);
    }
}
