//! DuelWorld: the state of a card duel and its rules: whose health is what, who is buffed
//! or defending, the round, the winner, and what was played.
//!
//! A round is the player's move, then the AI's (the tree, ticked once). Moves are applied
//! by [`DuelWorld::play`], for both sides, so the player's buttons and the AI's action nodes
//! follow the same rules.

use arbor_runtime::Blackboard;

use super::duelist::{Duelist, Side};
use super::moves::Move;
use super::opponent::Opponent;
use crate::log::Log;
use crate::rng::Rng;

/// Blackboard keys the duel writes before the AI's turn, when the tree declares them.
pub const ROUND_KEY: &str = "round";
pub const OPPONENT_MOVE_KEY: &str = "opponent_move";

pub const HEAL_AMOUNT: i64 = 20;

#[derive(Clone, Debug)]
pub struct DuelWorld {
    pub player: Duelist,
    pub ai: Duelist,
    /// Rounds started, from 1.
    pub round: u32,
    pub winner: Option<Side>,
    pub last_player_move: Option<Move>,
    pub last_ai_move: Option<Move>,
    pub log: Log,
    /// Whether the AI has moved in the current turn: one move per turn.
    pub(crate) ai_moved: bool,
    pub(crate) rng: Rng,
    /// Who plays the player's side; kept by a reset.
    pub(crate) opponent: Opponent,
    /// The human player's move for the next round.
    pub(crate) pending: Option<Move>,
}

impl DuelWorld {
    pub fn new(seed: u64) -> DuelWorld {
        DuelWorld {
            player: Duelist::default(),
            ai: Duelist::default(),
            round: 0,
            winner: None,
            last_player_move: None,
            last_ai_move: None,
            log: Log::default(),
            ai_moved: false,
            // Offset so the world's draws differ from the agent's, which share the seed.
            rng: Rng::new(seed ^ 0xD0E1),
            opponent: Opponent::Scripted,
            pending: None,
        }
    }

    pub fn duelist(&self, side: Side) -> &Duelist {
        match side {
            Side::Player => &self.player,
            Side::Ai => &self.ai,
        }
    }

    fn pair_mut(&mut self, side: Side) -> (&mut Duelist, &mut Duelist) {
        match side {
            Side::Player => (&mut self.player, &mut self.ai),
            Side::Ai => (&mut self.ai, &mut self.player),
        }
    }

    /// Why `side` cannot play `mv` now, if it cannot.
    pub fn refuse(&self, side: Side, mv: Move) -> Option<String> {
        let me = self.duelist(side);
        if let Some(winner) = self.winner {
            return Some(format!("the duel is over: the {} won", winner.name()));
        }
        match mv {
            Move::Heal if me.potions == 0 => Some("no potions left".to_owned()),
            Move::Heal if me.health >= me.max_health => Some("health is already full".to_owned()),
            Move::Buff if me.buffed => Some("already buffed".to_owned()),
            _ => None,
        }
    }

    /// A side's turn begins: its defence from the previous round ends.
    pub(crate) fn begin_turn(&mut self, side: Side) {
        self.pair_mut(side).0.defending = false;
        if side == Side::Ai {
            self.ai_moved = false;
        }
    }

    /// Plays a move for `side`; `Err` (and nothing changes) when [`DuelWorld::refuse`]
    /// refuses it.
    pub fn play(&mut self, side: Side, mv: Move, now: f64) -> Result<(), String> {
        if let Some(why) = self.refuse(side, mv) {
            return Err(why);
        }
        let damage = 10 + self.rng.below(5) as i64;
        let round = self.round;
        let (me, foe) = self.pair_mut(side);
        let text = match mv {
            Move::Attack => {
                let mut damage = damage;
                let mut how = String::new();
                if me.buffed {
                    damage *= 2;
                    me.buffed = false;
                    how.push_str(", buffed");
                }
                if foe.defending {
                    damage /= 2;
                    foe.defending = false;
                    how.push_str(", blocked by a defence");
                }
                foe.health = (foe.health - damage).max(0);
                format!(
                    "attacks for {damage}{how}: the {} has {} health",
                    side.other().name(),
                    foe.health
                )
            }
            Move::Heal => {
                me.potions -= 1;
                me.health = (me.health + HEAL_AMOUNT).min(me.max_health);
                let left = match me.potions {
                    1 => "1 potion left".to_owned(),
                    n => format!("{n} potions left"),
                };
                format!("heals to {} health ({left})", me.health)
            }
            Move::Defend => {
                me.defending = true;
                "defends".to_owned()
            }
            Move::Buff => {
                me.buffed = true;
                "buffs the next attack".to_owned()
            }
        };
        let foe_down = foe.is_down();
        self.log
            .push(now, format!("round {round}: the {} {text}", side.name()));
        match side {
            Side::Player => self.last_player_move = Some(mv),
            Side::Ai => {
                self.last_ai_move = Some(mv);
                self.ai_moved = true;
            }
        }
        if foe_down {
            self.winner = Some(side);
            self.log
                .push(now, format!("the {} wins in round {round}", side.name()));
        }
        Ok(())
    }

    /// The AI's inputs: the round and the player's last move, for trees that declare them.
    pub(crate) fn sense(&self, bb: &mut Blackboard) {
        // A tree that retyped these keys is simply not told.
        if let Some(key) = bb.key(ROUND_KEY) {
            let _ = bb.set(key, i64::from(self.round));
        }
        if let (Some(key), Some(mv)) = (bb.key(OPPONENT_MOVE_KEY), self.last_player_move) {
            let _ = bb.set(key, mv.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buff_doubles_and_defence_halves_one_attack() {
        let mut duel = DuelWorld::new(1);
        duel.ai.buffed = true;
        duel.player.defending = true;
        duel.play(Side::Ai, Move::Attack, 0.0).unwrap();
        let lost = 100 - duel.player.health;
        assert!((10..=14).contains(&lost), "2x then /2: {lost}");
        assert!(!duel.ai.buffed && !duel.player.defending);
    }

    #[test]
    fn impossible_moves_are_refused_and_change_nothing() {
        let mut duel = DuelWorld::new(1);
        assert!(
            duel.play(Side::Player, Move::Heal, 0.0).is_err(),
            "full health"
        );
        duel.player.health = 50;
        duel.player.potions = 0;
        assert_eq!(
            duel.play(Side::Player, Move::Heal, 0.0),
            Err("no potions left".to_owned())
        );
        assert_eq!(duel.player.health, 50);
    }

    #[test]
    fn knocking_out_the_foe_ends_the_duel() {
        let mut duel = DuelWorld::new(1);
        duel.ai.health = 5;
        duel.play(Side::Player, Move::Attack, 0.0).unwrap();
        assert_eq!(duel.winner, Some(Side::Player));
        assert!(duel.play(Side::Ai, Move::Attack, 0.0).is_err());
    }
}
