//! `villager`: runs the needs-driven villager headless and prints what it does.

use std::process::ExitCode;

use arbor_samples::cli::{self, Spec};
use arbor_samples::villager::Villager;

const SPEC: Spec = Spec {
    program: "villager",
    about: "Runs the villager sample: needs decay, the tree sends the villager to the zones \
            that refill them.",
    default_ticks: 2000,
    default_dt: 0.25,
    extra: &[],
};

fn main() -> ExitCode {
    cli::main(&SPEC, |o| Ok(Box::new(Villager::new(o.seed))))
}
