//! Villager: a needs-driven agent after the villager example of the HuskyT behavior-tree
//! framework. Five needs (food, water, energy, mood, money) decay over time; coloured zones
//! on a 2D map raise them (red food, blue water, white energy, green mood, yellow money).
//!
//! The tree (`trees/villager.json`) is `Repeat(Parallel(need 1)[Selector[errands…], Alive])`
//! where each errand is `Sequence[Feel…, WalkTo, <chore>]`. Host nodes:
//! - conditions `FeelHungry`, `FeelThirsty`, `FeelTired`, `FeelBoring`, `FeelPoor`
//!   (`below` threshold);
//! - `WalkTo` (running until arrival; plans through the `target` key with a ttl);
//! - chores `EatFood`, `DrinkWater`, `HaveRest`, `HaveFun`, `Work` (running until `until`;
//!   precondition: standing in the right zone);
//! - `Alive` (running while alive).
//!
//! The world's senses write `emergency` (food or water below 20) before each tick; fun,
//! rest and work carry a `Condition emergency == false` with abort Self, so urgent needs
//! pre-empt them: the errand is aborted that tick, and the next tick the Selector starts
//! again from the top and reaches eating or drinking.

mod alive;
mod chore;
mod feel;
mod need;
mod registry;
mod rules;
mod save;
mod simulation;
mod walk_to;
mod world;
mod zone;

pub use need::{Need, Needs};
pub use registry::registry;
pub use rules::VillagerRules;
pub use simulation::Villager;
pub use world::{Activity, VillagerWorld, EMERGENCY_KEY};
pub use zone::{Zone, ZoneColor};
