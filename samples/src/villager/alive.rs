//! Alive: runs as long as the villager lives and fails once a need has reached zero.
//!
//! Under the tree's `Parallel(need 1)` this is what keeps the Parallel going between
//! errands (a running child never completes it) and, with every other villager node
//! failing for a dead villager, what makes it fail: two failures exceed `n - need = 1`
//! (rule 13), so the Repeat above it stops.

use arbor_runtime::{Action, ActionCtx, Status};

use super::world::VillagerWorld;

pub(crate) struct Alive;

impl Action<VillagerWorld> for Alive {
    fn tick(&self, cx: &mut ActionCtx<'_, VillagerWorld>) -> Status {
        if cx.agent.alive {
            Status::Running
        } else {
            Status::Failure
        }
    }
}
