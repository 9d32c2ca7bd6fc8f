//! Need and Needs: the villager's five needs, each 0–100, and the names the tree uses for
//! them (`FeelHungry`, `EatFood`, …).

use serde::{Deserialize, Serialize};

use super::zone::ZoneColor;

/// One of the villager's needs. At zero the villager dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Need {
    Food,
    Water,
    Energy,
    Mood,
    Money,
}

impl Need {
    pub const ALL: [Need; 5] = [
        Need::Food,
        Need::Water,
        Need::Energy,
        Need::Mood,
        Need::Money,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Need::Food => "food",
            Need::Water => "water",
            Need::Energy => "energy",
            Need::Mood => "mood",
            Need::Money => "money",
        }
    }

    /// The zone that raises this need.
    pub fn zone(self) -> ZoneColor {
        match self {
            Need::Food => ZoneColor::Red,
            Need::Water => ZoneColor::Blue,
            Need::Energy => ZoneColor::White,
            Need::Mood => ZoneColor::Green,
            Need::Money => ZoneColor::Yellow,
        }
    }

    /// The condition node type that feels this need.
    pub fn feel_node(self) -> &'static str {
        match self {
            Need::Food => "FeelHungry",
            Need::Water => "FeelThirsty",
            Need::Energy => "FeelTired",
            Need::Mood => "FeelBoring",
            Need::Money => "FeelPoor",
        }
    }

    /// The action node type that satisfies this need in its zone.
    pub fn act_node(self) -> &'static str {
        match self {
            Need::Food => "EatFood",
            Need::Water => "DrinkWater",
            Need::Energy => "HaveRest",
            Need::Mood => "HaveFun",
            Need::Money => "Work",
        }
    }

    /// What the villager is doing while satisfying it, for the log.
    pub fn doing(self) -> &'static str {
        match self {
            Need::Food => "eating",
            Need::Water => "drinking",
            Need::Energy => "resting",
            Need::Mood => "having fun",
            Need::Money => "working",
        }
    }

    fn index(self) -> usize {
        match self {
            Need::Food => 0,
            Need::Water => 1,
            Need::Energy => 2,
            Need::Mood => 3,
            Need::Money => 4,
        }
    }
}

/// A value per need: the levels themselves, or rates and costs per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Needs([f64; 5]);

impl Needs {
    pub const MAX: f64 = 100.0;

    /// The same value for every need.
    pub const fn splat(value: f64) -> Needs {
        Needs([value; 5])
    }

    /// Values in [`Need::ALL`] order: food, water, energy, mood, money.
    pub const fn new(food: f64, water: f64, energy: f64, mood: f64, money: f64) -> Needs {
        Needs([food, water, energy, mood, money])
    }

    pub fn get(&self, need: Need) -> f64 {
        self.0[need.index()]
    }

    /// Sets a level, clamped to 0–100.
    pub fn set(&mut self, need: Need, value: f64) {
        self.0[need.index()] = value.clamp(0.0, Needs::MAX);
    }

    pub fn add(&mut self, need: Need, delta: f64) {
        self.set(need, self.get(need) + delta);
    }

    /// The lowest need and its level.
    pub fn lowest(&self) -> (Need, f64) {
        Need::ALL
            .into_iter()
            .map(|n| (n, self.get(n)))
            .fold(
                (Need::Food, f64::INFINITY),
                |a, b| if b.1 < a.1 { b } else { a },
            )
    }

    pub fn iter(&self) -> impl Iterator<Item = (Need, f64)> + '_ {
        Need::ALL.into_iter().map(|n| (n, self.get(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_clamped_and_the_lowest_is_found() {
        let mut needs = Needs::splat(50.0);
        needs.add(Need::Water, -80.0);
        needs.add(Need::Mood, 80.0);
        assert_eq!(needs.get(Need::Water), 0.0);
        assert_eq!(needs.get(Need::Mood), 100.0);
        assert_eq!(needs.lowest(), (Need::Water, 0.0));
    }
}
