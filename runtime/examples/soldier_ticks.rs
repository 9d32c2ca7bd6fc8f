//! Ticks the soldier tree of `benches/soldier_tree` N times, for instruction counts under
//! callgrind: run it with N and 2N and divide the difference by N, so setup cancels.
//!
//! ```text
//! cargo build --release -p arbor-runtime --example soldier_ticks
//! valgrind --tool=callgrind target/release/examples/soldier_ticks vec2 1000
//! ```
//!
//! Arguments: the engine and positions, then N:
//! - `vec2` (the interpreter, positions in `vec2` keys) or `list` (the interpreter,
//!   positions in `list<float>` keys);
//! - `generated` (the tree compiled to Rust by `arbor_runtime::codegen`, the checked-in
//!   module of `benches/soldier_tree/generated`, through `agent.tick`) or `direct` (the
//!   same through the module's `Direct::tick`), positions in `vec2` keys.

#[path = "../benches/soldier_tree/mod.rs"]
mod soldier_tree;

use std::hint::black_box;
use std::process::ExitCode;

use arbor_runtime::Agent;

use soldier_tree::{compile, generated, registry, Positions, Soldier};

/// Which engine ticks the tree.
enum Engine {
    Interpreter(Positions),
    Generated,
    Direct,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (engine, n) = match args.as_slice() {
        [kind, n] => (
            match kind.as_str() {
                "vec2" => Some(Engine::Interpreter(Positions::Vec2)),
                "list" => Some(Engine::Interpreter(Positions::List)),
                "generated" => Some(Engine::Generated),
                "direct" => Some(Engine::Direct),
                _ => None,
            },
            n.parse::<u64>().ok(),
        ),
        _ => (None, None),
    };
    let (Some(engine), Some(n)) = (engine, n) else {
        eprintln!("usage: soldier_ticks vec2|list|generated|direct N");
        return ExitCode::FAILURE;
    };
    let mut soldier = Soldier::new();
    let dt = black_box(0.1);
    match engine {
        Engine::Interpreter(positions) => {
            let mut agent = Agent::new(compile(positions), 1);
            for _ in 0..n {
                black_box(agent.tick(&mut soldier, dt));
            }
        }
        Engine::Generated => {
            let Ok(tree) = generated::load(&registry(Positions::Vec2)) else {
                eprintln!("the generated soldier tree did not load");
                return ExitCode::FAILURE;
            };
            let mut agent = Agent::new(tree, 1);
            for _ in 0..n {
                black_box(agent.tick(&mut soldier, dt));
            }
        }
        Engine::Direct => {
            let Ok(direct) = generated::load_direct(&registry(Positions::Vec2)) else {
                eprintln!("the generated soldier tree did not load");
                return ExitCode::FAILURE;
            };
            let mut agent = direct.agent(1);
            for _ in 0..n {
                black_box(direct.tick(&mut agent, &mut soldier, dt));
            }
        }
    }
    println!(
        "{} attacks, {} flights, {} waypoints",
        soldier.attacks, soldier.fled, soldier.patrolled
    );
    ExitCode::SUCCESS
}
