//! PatrolTo: walks the guard to the waypoint whose index its in-out `waypoint` port reads
//! (bound to the `waypoint` key by default); running until it arrives, then writes the
//! next index (wrapping) and succeeds. Because the index is on the blackboard, an
//! interrupted patrol resumes towards the same waypoint, and the preview shows where the
//! guard is heading. Per-node state ([`StatefulAction`]) keeps when this walk started, for
//! the log line on arrival: two PatrolTo nodes never mix up their walks.

use arbor_runtime::{ActionCtx, InPort, OutPort, StatefulAction, Status};

use super::world::GuardWorld;

pub(crate) struct PatrolTo {
    pub waypoint: InPort<i64>,
    pub next: OutPort<i64>,
}

/// When the current walk started (the agent's clock). Saved in agent snapshots, so a
/// restored guard (the preview's timeline) walks on as it was.
#[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Walk {
    started: f64,
}

impl PatrolTo {
    fn index(&self, cx: &ActionCtx<'_, GuardWorld>) -> Option<usize> {
        let count = cx.agent.waypoints.len() as i64;
        let i = cx.get(&self.waypoint).unwrap_or(0);
        (count > 0).then(|| i.rem_euclid(count) as usize)
    }
}

impl StatefulAction<GuardWorld> for PatrolTo {
    type State = Walk;

    fn enter(&self, cx: &mut ActionCtx<'_, GuardWorld>, walk: &mut Walk) {
        let now = cx.now();
        walk.started = now;
        if let Some(i) = self.index(cx) {
            cx.agent.log.push(now, format!("patrols to waypoint {i}"));
        }
    }

    fn tick(&self, cx: &mut ActionCtx<'_, GuardWorld>, walk: &mut Walk) -> Status {
        let Some(i) = self.index(cx) else {
            return Status::Failure;
        };
        let now = cx.now();
        let world = &mut *cx.agent;
        let target = world.waypoints[i];
        world.guard = world.guard.toward(target, world.patrol_speed * world.dt);
        if world.guard != target {
            return Status::Running;
        }
        world.log.push(
            now,
            format!("reaches waypoint {i} after {:.1} s", now - walk.started),
        );
        let next = (i + 1) % world.waypoints.len();
        cx.set(&self.next, next as i64);
        Status::Success
    }

    fn abort(&self, cx: &mut ActionCtx<'_, GuardWorld>, _: &mut Walk) {
        let now = cx.now();
        cx.agent.log.push(now, "stops patrolling");
    }
}
