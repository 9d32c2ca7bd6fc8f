//! `counting`: ticks the MathTree and prints each branch's result.

use std::process::ExitCode;

use arbor_samples::cli::{self, Spec};
use arbor_samples::counting::Counting;

const SPEC: Spec = Spec {
    program: "counting",
    about: "Runs the counting sample (the MathTree of a Unity game-AI book): target 20 succeeds, 30 fails.",
    default_ticks: 1,
    default_dt: 1.0,
    extra: &[(
        "--target",
        "T",
        "the target written to the blackboard (default: the tree's, 20)",
    )],
};

fn main() -> ExitCode {
    cli::main(&SPEC, |o| {
        let counting = match o.value("--target") {
            None => Counting::new(o.seed),
            Some(text) => {
                let target = text
                    .parse()
                    .map_err(|_| format!("`--target` expects an integer, found `{text}`"))?;
                Counting::with_target(o.seed, target)
            }
        };
        Ok(Box::new(counting))
    })
}
