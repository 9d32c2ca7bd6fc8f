//! CardDuel: the turn-based duel as a [`Sample`]. Each tick is one round: the player's
//! move (submitted through [`CardDuel::submit_move`], or scripted), then the AI's: its tree
//! (`trees/card_duel.json`) ticked once.

use std::sync::Arc;

use arbor_runtime::{Agent, CompiledTree, LoadError, Observer, Registry, Status};

use super::duel::DuelWorld;
use super::duelist::Side;
use super::moves::Move;
use super::opponent::{scripted_move, Opponent};
use crate::log::Log;
use crate::sample::{Sample, World};

/// The card duel sample (both duelists, the round and the log are its `world`); by default
/// against the scripted opponent.
pub type CardDuel = Sample<DuelWorld>;

impl Sample<DuelWorld> {
    pub fn opponent(&self) -> Opponent {
        self.world.opponent
    }

    /// Who plays the player's side from the next round on.
    pub fn set_opponent(&mut self, opponent: Opponent) {
        self.world.opponent = opponent;
        self.world.pending = None;
    }

    /// The human player's move for the next round (the preview's Attack / Heal / Defend
    /// buttons). Refused, with the reason, when the move is impossible now, the duel is
    /// over, or the scripted opponent plays the player's side.
    pub fn submit_move(&mut self, mv: Move) -> Result<(), String> {
        if self.world.opponent == Opponent::Scripted {
            return Err("the scripted opponent is playing; switch to Opponent::Human".to_owned());
        }
        if let Some(why) = self.world.refuse(Side::Player, mv) {
            return Err(why);
        }
        self.world.pending = Some(mv);
        Ok(())
    }

    /// True while the duel waits for [`CardDuel::submit_move`].
    pub fn waiting_for_player(&self) -> bool {
        self.world.waiting_for_player()
    }
}

impl DuelWorld {
    fn waiting_for_player(&self) -> bool {
        self.opponent == Opponent::Human && self.pending.is_none() && self.winner.is_none()
    }
}

impl World for DuelWorld {
    const NAME: &'static str = "card_duel";
    const TITLE: &'static str = "Card duel (turn-based AI)";
    const TREE: &'static str = "card_duel.json";
    const DT: f64 = 1.0;
    const SENSED: &'static [&'static str] =
        &[super::duel::ROUND_KEY, super::duel::OPPONENT_MOVE_KEY];

    fn registry() -> Registry<DuelWorld> {
        super::registry::registry()
    }

    fn new(seed: u64) -> DuelWorld {
        DuelWorld::new(seed)
    }

    fn generated(
        registry: &Registry<DuelWorld>,
    ) -> Option<Result<Arc<CompiledTree<DuelWorld>>, LoadError>> {
        Some(super::generated::load(registry))
    }

    fn tick(
        &mut self,
        agent: &mut Agent<DuelWorld>,
        dt: f64,
        observer: &mut dyn Observer,
    ) -> Option<Status> {
        if self.winner.is_some() {
            return None;
        }
        let mv = match self.opponent {
            Opponent::Human => self.pending.take()?,
            Opponent::Scripted => scripted_move(&self.player, &self.ai, &mut self.rng),
        };
        agent.advance(dt);
        let now = agent.now();
        self.round += 1;
        self.begin_turn(Side::Player);
        if let Err(why) = self.play(Side::Player, mv, now) {
            // Only reachable if the state changed after `submit_move` checked it.
            let line = format!(
                "round {}: the player cannot {}: {why}",
                self.round,
                mv.name()
            );
            self.log.push(now, line);
        }
        if self.winner.is_some() {
            return None;
        }
        self.begin_turn(Side::Ai);
        self.sense(agent.blackboard_mut());
        let status = agent.run_traced(self, observer);
        if !self.ai_moved {
            self.log
                .push(now, format!("round {}: the AI passes", self.round));
        }
        Some(status)
    }

    /// A new duel; who plays the player's side stays.
    fn reset(&mut self, seed: u64, _agent: Option<&mut Agent<DuelWorld>>) {
        let opponent = self.opponent;
        *self = DuelWorld::new(seed);
        self.opponent = opponent;
    }

    fn finished(&self) -> bool {
        self.winner.is_some()
    }

    fn log(&self) -> &Log {
        &self.log
    }

    fn summary(&self) -> String {
        let state = match self.winner {
            Some(side) => format!("the {} won", side.name()),
            None if self.waiting_for_player() => "waiting for the player's move".to_owned(),
            None => "in play".to_owned(),
        };
        format!(
            "round {}: player {} health ({} potions), AI {} health ({} potions); {state}",
            self.round, self.player.health, self.player.potions, self.ai.health, self.ai.potions
        )
    }
}
