//! Card duel: HomeRock, the card game of a Unity game-AI book, as a turn-based game. The
//! player and an AI each have health, a low-health threshold, a buff and potions. The AI's
//! tree (`trees/card_duel.json`) is `Selector[Sequence[HealthLow self, Heal],
//! Sequence[HealthLow opponent, Attack], Sequence[Random 50%, not Buffed, Buff], Attack]`
//! (rule 35).
//!
//! The player's side is played by the user in the editor's preview
//! ([`CardDuel::submit_move`] with [`Opponent::Human`]) or by [`scripted_move`].

mod ai_nodes;
mod duel;
mod duelist;
pub mod generated;
mod moves;
mod opponent;
mod registry;
mod simulation;

pub use duel::{DuelWorld, HEAL_AMOUNT, OPPONENT_MOVE_KEY, ROUND_KEY};
pub use duelist::{Duelist, Side};
pub use moves::Move;
pub use opponent::{scripted_move, Opponent};
pub use registry::registry;
pub use simulation::CardDuel;
