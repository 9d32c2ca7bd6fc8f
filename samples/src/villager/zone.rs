//! Zones: coloured circles on the villager's map; standing in one lets the villager raise
//! the need of that colour (red food, blue water, white energy, green mood, yellow money).

use arbor_runtime::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ZoneColor {
    Red,
    Blue,
    White,
    Green,
    Yellow,
}

impl ZoneColor {
    pub const ALL: [ZoneColor; 5] = [
        ZoneColor::Red,
        ZoneColor::Blue,
        ZoneColor::White,
        ZoneColor::Green,
        ZoneColor::Yellow,
    ];

    /// The name used in tree files (`WalkTo.zone`) and on the blackboard.
    pub fn name(self) -> &'static str {
        match self {
            ZoneColor::Red => "red",
            ZoneColor::Blue => "blue",
            ZoneColor::White => "white",
            ZoneColor::Green => "green",
            ZoneColor::Yellow => "yellow",
        }
    }

    pub fn parse(name: &str) -> Option<ZoneColor> {
        ZoneColor::ALL.into_iter().find(|c| c.name() == name)
    }

    /// An RGB colour for drawing.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            ZoneColor::Red => [220, 60, 50],
            ZoneColor::Blue => [60, 110, 220],
            ZoneColor::White => [235, 235, 235],
            ZoneColor::Green => [70, 180, 80],
            ZoneColor::Yellow => [235, 200, 50],
        }
    }
}

/// A circular zone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zone {
    pub color: ZoneColor,
    pub center: Vec2,
    pub radius: f64,
}

impl Zone {
    pub fn contains(&self, p: Vec2) -> bool {
        self.center.distance(p) <= self.radius
    }
}
