//! WalkTo: walks the villager to the nearest zone of a colour; running until it arrives.
//! - enter: writes the zone's name through its `target` port (an in-out string port bound
//!   to a blackboard key, `target` by default) with a ttl of `give_up` seconds (rule 33),
//!   so the errand has a deadline the preview shows counting down
//! - tick: fails once `target` has expired or names another zone (someone else changed
//!   the plan); otherwise steps towards the zone centre and succeeds inside the zone's
//!   inner half
//! - exit/abort: the villager stops walking
//!
//! Fails at once for a dead villager or a map without such a zone.

use arbor_runtime::{Action, ActionCtx, InPort, OutPort, Status};

use super::world::{Activity, VillagerWorld};
use super::zone::ZoneColor;

pub(crate) struct WalkTo {
    pub zone: ZoneColor,
    pub give_up: f64,
    /// The errand's target, read back each tick and written as the walk starts.
    pub target: InPort<str>,
    pub plan: OutPort<str>,
}

impl Action<VillagerWorld> for WalkTo {
    fn enter(&self, cx: &mut ActionCtx<'_, VillagerWorld>) {
        let now = cx.now();
        cx.set_with_ttl(&self.plan, self.zone.name(), self.give_up);
        let world = &mut *cx.agent;
        if !world.alive {
            return;
        }
        world.activity = Activity::Walking(self.zone);
        world.log.push(
            now,
            format!(
                "heads for the {} zone ({})",
                self.zone.name(),
                world.needs_text()
            ),
        );
    }

    fn tick(&self, cx: &mut ActionCtx<'_, VillagerWorld>) -> Status {
        let now = cx.now();
        let planned = cx.get(&self.target) == Some(self.zone.name());
        let world = &mut *cx.agent;
        if !world.alive {
            return Status::Failure;
        }
        if !planned {
            world.log.push(
                now,
                format!("gives up walking to the {} zone", self.zone.name()),
            );
            return Status::Failure;
        }
        let Some(zone) = world.nearest_zone(self.zone).copied() else {
            world.log.push(
                now,
                format!("finds no {} zone on the map", self.zone.name()),
            );
            return Status::Failure;
        };
        world.pos = world.pos.toward(zone.center, world.rules.speed * world.dt);
        if world.pos.distance(zone.center) <= zone.radius * 0.5 {
            Status::Success
        } else {
            Status::Running
        }
    }

    fn exit(&self, cx: &mut ActionCtx<'_, VillagerWorld>, _status: Status) {
        let world = &mut *cx.agent;
        if world.activity == Activity::Walking(self.zone) {
            world.activity = Activity::Idle;
        }
    }

    fn abort(&self, cx: &mut ActionCtx<'_, VillagerWorld>) {
        let now = cx.now();
        let world = &mut *cx.agent;
        if world.alive {
            world.log.push(
                now,
                format!("stops walking to the {} zone", self.zone.name()),
            );
        }
    }
}
