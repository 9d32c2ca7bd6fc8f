//! PatrolTo: walks the guard to the waypoint whose index is in the `waypoint` key; running
//! until it arrives, then advances the index (wrapping) and succeeds. Because the index is
//! on the blackboard, an interrupted patrol resumes towards the same waypoint, and the
//! preview shows where the guard is heading.

use arbor_runtime::{Action, ActionCtx, Key, Status};

use super::world::GuardWorld;

pub(crate) struct PatrolTo {
    pub waypoint: Key,
}

impl PatrolTo {
    fn index(&self, cx: &ActionCtx<'_, GuardWorld>) -> Option<usize> {
        let count = cx.agent.waypoints.len() as i64;
        let i = cx.blackboard.get_i64(self.waypoint).unwrap_or(0);
        (count > 0).then(|| i.rem_euclid(count) as usize)
    }
}

impl Action<GuardWorld> for PatrolTo {
    fn enter(&self, cx: &mut ActionCtx<'_, GuardWorld>) {
        let now = cx.now();
        if let Some(i) = self.index(cx) {
            cx.agent.log.push(now, format!("patrols to waypoint {i}"));
        }
    }

    fn tick(&self, cx: &mut ActionCtx<'_, GuardWorld>) -> Status {
        let Some(i) = self.index(cx) else {
            return Status::Failure;
        };
        let world = &mut *cx.agent;
        let target = world.waypoints[i];
        world.guard = world.guard.toward(target, world.patrol_speed * world.dt);
        if world.guard != target {
            return Status::Running;
        }
        let next = (i + 1) % world.waypoints.len();
        // A `waypoint` key of another type cannot advance; the guard then stays put.
        if cx.blackboard.set(self.waypoint, next as i64).is_err() {
            return Status::Failure;
        }
        Status::Success
    }

    fn abort(&self, cx: &mut ActionCtx<'_, GuardWorld>) {
        let now = cx.now();
        cx.agent.log.push(now, "stops patrolling");
    }
}
