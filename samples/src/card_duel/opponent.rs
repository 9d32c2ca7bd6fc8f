//! Opponent: who plays the player's side, and the scripted opponent's policy (used by the
//! headless binary and tests; the editor's preview lets the user play instead).

use super::duelist::Duelist;
use super::moves::Move;
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Moves come from `CardDuel::submit_move`; the duel waits for them.
    Human,
    /// Moves come from [`scripted_move`].
    Scripted,
}

/// A simple, sensible player: heal when low (while potions last), defend against a buffed
/// AI, otherwise attack, defending now and then (15%) to vary the game.
pub fn scripted_move(me: &Duelist, foe: &Duelist, rng: &mut Rng) -> Move {
    if me.is_low() && me.potions > 0 {
        Move::Heal
    } else if foe.buffed || rng.chance(0.15) {
        Move::Defend
    } else {
        Move::Attack
    }
}
