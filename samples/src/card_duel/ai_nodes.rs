//! The AI's host nodes. Conditions read either duelist (`who`: `self` is the AI, the agent
//! running the tree; `opponent` is the player). Move actions play one move through
//! [`DuelWorld::play`]: success when played, failure when refused (no potions left,
//! already buffed) or when the AI has already moved this turn, so a Selector falls
//! through to its next choice.

use arbor_runtime::{Action, ActionCtx, Status};

use super::duel::DuelWorld;
use super::duelist::Side;
use super::moves::Move;
use crate::runner::succeed_if;

/// `HealthLow`: success when that duelist's health is at or below its low-health threshold.
pub(crate) struct HealthLow {
    pub who: Side,
}

impl Action<DuelWorld> for HealthLow {
    fn tick(&self, cx: &mut ActionCtx<'_, DuelWorld>) -> Status {
        succeed_if(cx.agent.duelist(self.who).is_low())
    }
}

/// `Buffed`: success when that duelist's next attack is buffed.
pub(crate) struct Buffed {
    pub who: Side,
}

impl Action<DuelWorld> for Buffed {
    fn tick(&self, cx: &mut ActionCtx<'_, DuelWorld>) -> Status {
        succeed_if(cx.agent.duelist(self.who).buffed)
    }
}

/// `Attack`, `Heal`, `Defend`, `Buff`: the AI plays the move.
pub(crate) struct Play {
    pub mv: Move,
}

impl Action<DuelWorld> for Play {
    fn tick(&self, cx: &mut ActionCtx<'_, DuelWorld>) -> Status {
        let now = cx.now();
        let duel = &mut *cx.agent;
        if duel.ai_moved {
            return Status::Failure;
        }
        succeed_if(duel.play(Side::Ai, self.mv, now).is_ok())
    }
}

/// Parses a `who` parameter.
pub(crate) fn side(who: &str) -> Result<Side, String> {
    match who {
        "self" => Ok(Side::Ai),
        "opponent" => Ok(Side::Player),
        other => Err(format!("`who` must be self or opponent; found `{other}`")),
    }
}
