//! ChaseEnemy and CatchEnemy: the guard's pursuit.
//! - ChaseEnemy runs towards its `last_seen` input (a `list<float>` port, `[x, y]`, bound
//!   to the `last_seen` key that the guard's eyes keep fresh) at chase speed; succeeds once the intruder is visible and within catch
//!   range; fails without a valid `last_seen`. Having reached the last sighting it keeps
//!   running there (searching): it is the tree's Self abort on `enemy_tracked` that ends a
//!   lost chase.
//! - CatchEnemy succeeds if the intruder can be grabbed now, and a new one sneaks in;
//!   fails otherwise.

use arbor_runtime::{Action, ActionCtx, InPort, Status, Value};

use super::world::GuardWorld;
use arbor_runtime::Vec2;

pub(crate) struct ChaseEnemy {
    pub last_seen: InPort<Value>,
}

impl ChaseEnemy {
    fn last_seen(&self, cx: &ActionCtx<'_, GuardWorld>) -> Option<Vec2> {
        match cx.get(&self.last_seen)? {
            Value::Json(json) => Vec2::from_json(json).ok(),
            _ => None,
        }
    }
}

impl Action<GuardWorld> for ChaseEnemy {
    fn enter(&self, cx: &mut ActionCtx<'_, GuardWorld>) {
        let now = cx.now();
        if let Some(p) = self.last_seen(cx) {
            cx.agent.log.push(
                now,
                format!(
                    "spots the intruder at ({:.0}, {:.0}): gives chase",
                    p.x, p.y
                ),
            );
        }
    }

    fn tick(&self, cx: &mut ActionCtx<'_, GuardWorld>) -> Status {
        let Some(target) = self.last_seen(cx) else {
            return Status::Failure;
        };
        let world = &mut *cx.agent;
        world.guard = world.guard.toward(target, world.chase_speed * world.dt);
        if world.can_catch() {
            Status::Success
        } else {
            Status::Running
        }
    }

    fn abort(&self, cx: &mut ActionCtx<'_, GuardWorld>) {
        let now = cx.now();
        cx.agent
            .log
            .push(now, "loses the intruder and gives up the chase");
    }
}

pub(crate) struct CatchEnemy;

impl Action<GuardWorld> for CatchEnemy {
    fn tick(&self, cx: &mut ActionCtx<'_, GuardWorld>) -> Status {
        let now = cx.now();
        let world = &mut *cx.agent;
        if !world.can_catch() {
            return Status::Failure;
        }
        world.catches += 1;
        world.log.push(
            now,
            format!("catches the intruder (catch #{})", world.catches),
        );
        world.respawn_intruder();
        Status::Success
    }
}
