//! `card_duel`: the duel AI against the scripted opponent, round by round.

use std::process::ExitCode;

use arbor_samples::card_duel::CardDuel;
use arbor_samples::cli::{self, Spec};

const SPEC: Spec = Spec {
    program: "card_duel",
    about: "Runs the card duel sample: each tick is a round, the scripted player's move \
            then the AI's (its tree). Stops when someone wins.",
    default_ticks: 100,
    default_dt: 1.0,
    extra: &[],
};

fn main() -> ExitCode {
    cli::main(&SPEC, |o| Ok(Box::new(CardDuel::new(o.seed))))
}
