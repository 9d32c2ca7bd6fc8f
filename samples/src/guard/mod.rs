//! Guard: conditional aborts in action. A guard patrols waypoints; an intruder wanders the
//! yard and hides in bushes when it notices the guard.
//!
//! The tree (`trees/guard.json`) is `Selector[Chase, Patrol]`:
//! - `Chase = Sequence[ChaseEnemy, CatchEnemy]` carries `Condition enemy_visible == true`
//!   with abort LowerPriority (a sighting interrupts the patrol in the same tick, rule 24)
//!   and `Condition enemy_tracked == true` with abort Self (the chase stops once the
//!   sighting has expired from the guard's memory, rule 23);
//! - `Patrol = Sequence[PatrolTo, Wait]`.

mod chase;
mod intruder;
mod patrol;
mod registry;
mod simulation;
mod world;

pub use intruder::{Bush, Intruder, IntruderMode};
pub use registry::registry;
pub use simulation::Guard;
pub use world::{GuardWorld, LAST_SEEN_KEY, TRACKED_KEY, VISIBLE_KEY};
