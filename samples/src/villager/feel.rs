//! Feel: the `FeelHungry`, `FeelThirsty`, `FeelTired`, `FeelBoring` and `FeelPoor`
//! conditions: success while the need is below the node's `below` threshold (and the
//! villager is alive), failure otherwise; never running.

use arbor_runtime::{Action, ActionCtx, Status};

use super::need::Need;
use super::world::VillagerWorld;
use crate::runner::succeed_if;

pub(crate) struct Feel {
    pub need: Need,
    pub below: f64,
}

impl Action<VillagerWorld> for Feel {
    fn tick(&self, cx: &mut ActionCtx<'_, VillagerWorld>) -> Status {
        let world = &*cx.agent;
        succeed_if(world.alive && world.needs.get(self.need) < self.below)
    }
}
