//! Chore: the zone actions `EatFood`, `DrinkWater`, `HaveRest`, `HaveFun` and `Work`.
//! Each raises one need while the villager stands in the zone of its colour, running until
//! the need reaches `until`.
//! - precondition, checked every tick: alive and standing in a zone of the right colour;
//!   otherwise failure at once (as the precondition of an ActionNode in the HuskyT behavior-tree framework)
//! - some chores cost other needs per second (eating and fun cost money; work costs energy
//!   and mood); a chore stops with failure rather than take a need below
//!   `rules.cost_floor`
//! - exit after success counts an errand; abort logs the interruption

use arbor_runtime::{Action, ActionCtx, Status};

use super::need::Need;
use super::world::{Activity, VillagerWorld};

pub(crate) struct Chore {
    pub need: Need,
    pub until: f64,
}

impl Action<VillagerWorld> for Chore {
    fn enter(&self, cx: &mut ActionCtx<'_, VillagerWorld>) {
        let now = cx.now();
        let world = &mut *cx.agent;
        if world.alive && world.in_zone(self.need.zone()) {
            world.activity = Activity::Doing(self.need);
            world.log.push(
                now,
                format!(
                    "starts {} ({} {:.0})",
                    self.need.doing(),
                    self.need.name(),
                    world.needs.get(self.need)
                ),
            );
        }
    }

    fn tick(&self, cx: &mut ActionCtx<'_, VillagerWorld>) -> Status {
        let now = cx.now();
        let world = &mut *cx.agent;
        if !world.alive {
            return Status::Failure;
        }
        let zone = self.need.zone();
        if !world.in_zone(zone) {
            world.log.push(
                now,
                format!(
                    "cannot start {}: not in a {} zone",
                    self.need.doing(),
                    zone.name()
                ),
            );
            return Status::Failure;
        }
        let dt = world.dt;
        let cost = world.rules.cost_of(self.need);
        let floor = world.rules.cost_floor;
        if let Some((short, _)) = cost
            .iter()
            .find(|&(n, c)| c > 0.0 && world.needs.get(n) - c * dt < floor)
        {
            world.log.push(
                now,
                format!("stops {}: too little {}", self.need.doing(), short.name()),
            );
            return Status::Failure;
        }
        for (n, c) in cost.iter() {
            world.needs.add(n, -c * dt);
        }
        world
            .needs
            .add(self.need, world.rules.gain.get(self.need) * dt);
        world.note_lowest();
        if world.needs.get(self.need) >= self.until {
            Status::Success
        } else {
            Status::Running
        }
    }

    fn exit(&self, cx: &mut ActionCtx<'_, VillagerWorld>, status: Status) {
        let now = cx.now();
        let world = &mut *cx.agent;
        if world.activity == Activity::Doing(self.need) {
            world.activity = Activity::Idle;
        }
        if status == Status::Success {
            world.errands += 1;
            world.log.push(
                now,
                format!(
                    "done {} ({} {:.0})",
                    self.need.doing(),
                    self.need.name(),
                    world.needs.get(self.need)
                ),
            );
        }
    }

    fn abort(&self, cx: &mut ActionCtx<'_, VillagerWorld>) {
        let now = cx.now();
        let world = &mut *cx.agent;
        if world.alive {
            world.log.push(
                now,
                format!(
                    "interrupted while {} ({})",
                    self.need.doing(),
                    world.needs_text()
                ),
            );
        }
    }
}
