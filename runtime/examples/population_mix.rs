//! The population mix of `benches/mix` at 60 frames a second: a soldier-like tree whose
//! agents mostly patrol inside long host actions that sleep, one in ten chasing (awake at
//! every frame). After 180 frames of warm-up, `FRAMES` frames are timed; prints ns per
//! agent-frame, ms per frame, frames per second and the agents ticked per frame.
//!
//! ```text
//! cargo run --release -p arbor-runtime --features parallel --example population_mix -- 1000000 600
//! cargo run --release -p arbor-runtime --features parallel --example population_mix -- 1000000 600 all-cores
//! cargo run --release -p arbor-runtime --features parallel --example population_mix -- 1000000 60 every-frame
//! cargo run --release -p arbor-runtime --features parallel --example population_mix -- 1000000 60 every-frame-all-cores
//! ```
//!
//! Modes: `one-core` (the default: a [`Population`], which ticks only awake agents,
//! semantics rule 82), `all-cores` (`Population::frame_parallel`, rayon), `every-frame`
//! (every agent ticked at every frame by the interpreter, `Agent::tick`) and
//! `every-frame-all-cores` (`parallel::tick_all`). For instruction counts run it under
//! callgrind with two frame counts and divide the difference by the frames between them.

#[path = "../benches/mix/mod.rs"]
mod mix;

use std::process::ExitCode;
use std::time::Instant;

use arbor_runtime::{parallel, Agent, Population};

use mix::{Trooper, DT};

const WARM_UP: u32 = 180;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    OneCore,
    AllCores,
    EveryFrame,
    EveryFrameAllCores,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (agents, frames, mode) = match args.as_slice() {
        [a, f] => (
            a.parse::<u32>().ok(),
            f.parse::<u32>().ok(),
            Some(Mode::OneCore),
        ),
        [a, f, m] => (
            a.parse().ok(),
            f.parse().ok(),
            match m.as_str() {
                "one-core" => Some(Mode::OneCore),
                "all-cores" => Some(Mode::AllCores),
                "every-frame" => Some(Mode::EveryFrame),
                "every-frame-all-cores" => Some(Mode::EveryFrameAllCores),
                _ => None,
            },
        ),
        _ => (None, None, None),
    };
    let (Some(agents), Some(frames), Some(mode)) = (agents, frames, mode) else {
        eprintln!("usage: population_mix AGENTS FRAMES [one-core|all-cores|every-frame|every-frame-all-cores]");
        return ExitCode::FAILURE;
    };
    let (elapsed, ticks) = match mode {
        Mode::OneCore | Mode::AllCores => run_population(agents, frames, mode == Mode::AllCores),
        Mode::EveryFrame | Mode::EveryFrameAllCores => {
            run_every_frame(agents, frames, mode == Mode::EveryFrameAllCores)
        }
    };
    let per_frame = elapsed / f64::from(frames.max(1));
    println!(
        "{agents} agents, {frames} frames ({}, {} threads): {:.2} ns per agent-frame, {:.2} ms per frame, {:.1} frames/s, {:.0} agents ticked per frame",
        match mode {
            Mode::OneCore => "population, one core",
            Mode::AllCores => "population, all cores",
            Mode::EveryFrame => "every agent every frame, one core",
            Mode::EveryFrameAllCores => "every agent every frame, all cores",
        },
        if matches!(mode, Mode::AllCores | Mode::EveryFrameAllCores) {
            rayon::current_num_threads()
        } else {
            1
        },
        per_frame * 1e9 / f64::from(agents.max(1)),
        per_frame * 1e3,
        1.0 / per_frame.max(1e-12),
        ticks as f64 / f64::from(frames.max(1)),
    );
    ExitCode::SUCCESS
}

/// Seconds for the timed frames, and the ticks made in them.
fn run_population(agents: u32, frames: u32, all_cores: bool) -> (f64, u64) {
    let tree = mix::compile();
    let mut population = Population::new();
    for i in 0..agents {
        let (agent, data) = mix::agent(&tree, i);
        population.insert_at(agent, data, mix::start(i));
    }
    let frame = |p: &mut Population<Trooper>| {
        if all_cores {
            p.frame_parallel(DT);
        } else {
            p.frame(DT);
        }
    };
    for _ in 0..WARM_UP {
        frame(&mut population);
    }
    let before = population.ticks();
    let clock = Instant::now();
    for _ in 0..frames {
        frame(&mut population);
    }
    (clock.elapsed().as_secs_f64(), population.ticks() - before)
}

/// As [`run_population`], every agent ticked at every frame.
fn run_every_frame(agents: u32, frames: u32, all_cores: bool) -> (f64, u64) {
    let tree = mix::compile();
    let mut all: Vec<(Agent<Trooper>, Trooper)> =
        (0..agents).map(|i| mix::agent(&tree, i)).collect();
    let frame = |all: &mut Vec<(Agent<Trooper>, Trooper)>| {
        if all_cores {
            parallel::tick_all(all, DT);
        } else {
            for (agent, data) in all.iter_mut() {
                agent.tick(data, DT);
            }
        }
    };
    for _ in 0..WARM_UP {
        frame(&mut all);
    }
    let clock = Instant::now();
    for _ in 0..frames {
        frame(&mut all);
    }
    (
        clock.elapsed().as_secs_f64(),
        u64::from(agents) * u64::from(frames),
    )
}
