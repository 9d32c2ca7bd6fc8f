//! `guard`: the patrolling guard headless: patrols, sightings, chases, catches.

use std::process::ExitCode;

use arbor_samples::cli::{self, Spec};
use arbor_samples::guard::Guard;

const SPEC: Spec = Spec {
    program: "guard",
    about: "Runs the guard sample: a sighting interrupts the patrol (abort LowerPriority), \
            a lost intruder ends the chase (abort Self).",
    default_ticks: 1200,
    default_dt: 0.25,
    extra: &[],
};

fn main() -> ExitCode {
    cli::main(&SPEC, |o| Ok(Box::new(Guard::new(o.seed))))
}
