//! Counting: the MathTree of a Unity game-AI book, built from built-in nodes only (rule 35).
//! `AddTen = Sequence[Increment current by 10, Condition current == target]` and
//! `NotEqualToTarget = Inverter(Condition current == target)`; the root is
//! `Selector[AddTen, Inverter(NotEqualToTarget), AddTen]`. The Conditions compare with the
//! `target` key (`equals_key`), so the target lives on the blackboard.

mod simulation;
mod world;

pub use simulation::{registry, Counting};
pub use world::{CounterWorld, CURRENT_KEY, TARGET_KEY};
