//! Ticks the soldier tree of `benches/soldier_tree` N times, for instruction counts under
//! callgrind: run it with N and 2N and divide the difference by N, so setup cancels.
//!
//! ```text
//! cargo build --release -p arbor-runtime --example soldier_ticks
//! valgrind --tool=callgrind target/release/examples/soldier_ticks vec2 1000
//! ```
//!
//! Arguments: `vec2` (positions in `vec2` keys) or `list` (in `list<float>` keys), and N.

#[path = "../benches/soldier_tree/mod.rs"]
mod soldier_tree;

use std::hint::black_box;
use std::process::ExitCode;

use arbor_runtime::Agent;

use soldier_tree::{compile, Positions, Soldier};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (positions, n) = match args.as_slice() {
        [kind, n] => (
            match kind.as_str() {
                "vec2" => Some(Positions::Vec2),
                "list" => Some(Positions::List),
                _ => None,
            },
            n.parse::<u64>().ok(),
        ),
        _ => (None, None),
    };
    let (Some(positions), Some(n)) = (positions, n) else {
        eprintln!("usage: soldier_ticks vec2|list N");
        return ExitCode::FAILURE;
    };
    let mut agent = Agent::new(compile(positions), 1);
    let mut soldier = Soldier::new();
    let dt = black_box(0.1);
    for _ in 0..n {
        black_box(agent.tick(&mut soldier, dt));
    }
    println!(
        "{} attacks, {} flights, {} waypoints",
        soldier.attacks, soldier.fled, soldier.patrolled
    );
    ExitCode::SUCCESS
}
