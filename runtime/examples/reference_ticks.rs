//! Ticks the reference tree of docs/performance.md N times, for instruction counts under
//! callgrind: run it with N and 2N and divide the difference by N, so setup cancels.
//!
//! ```text
//! cargo build --release -p arbor-runtime --example reference_ticks
//! valgrind --tool=callgrind target/release/examples/reference_ticks arbor a 1000
//! ```
//!
//! Arguments: `arbor`, `events` (Arbor with an observer that only takes each trace event
//! through `black_box`: the engine's own cost of reporting), `preview` (Arbor with the
//! preview-like trace observer of `benches/reference/mod.rs`), `literal` / `bound` (the
//! reference actions reading one input, a literal or a bound key, and writing one output)
//! `generated` (the reference tree compiled to Rust by `arbor_runtime::codegen`, the
//! checked-in modules of `benches/reference/generated`), `bonsai`, or `floor` (the hand-written flat array, leaves inline), the variant `a`
//! or `b`, and N. `load N` instead loads
//! the loading benchmark's generated 10,000-node tree N times.

#[path = "../benches/reference/mod.rs"]
mod reference;

use std::hint::black_box;
use std::process::ExitCode;

use arbor_runtime::{Agent, TraceEvent};

use reference::{
    bonsai, compile, compile_ported, floor, registry, wide_tree, Counter, PreviewObserver,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [load, n] = args.as_slice() {
        if load == "load" {
            return match n.parse::<u64>() {
                Ok(n) => load_wide(n),
                Err(_) => usage(),
            };
        }
    }
    let (engine, variant, n) = match args.as_slice() {
        [engine, variant, n] => (engine.as_str(), variant.as_str(), n.parse::<u64>()),
        _ => return usage(),
    };
    let (Ok(n), Some(running)) = (
        n,
        match variant {
            "a" => Some(false),
            "b" => Some(true),
            _ => None,
        },
    ) else {
        return usage();
    };
    let mut counter = Counter::default();
    // Opaque to the compiler, so that no engine's clock is folded, but read once: a host
    // loop passes its step in a register, not through memory on every tick.
    let dt = black_box(0.1);
    match engine {
        "arbor" => {
            let mut agent = Agent::new(compile(running), 1);
            for _ in 0..n {
                black_box(agent.tick(&mut counter, dt));
            }
        }
        "events" => {
            let mut agent = Agent::new(compile(running), 1);
            let mut observer = |event: TraceEvent<'_>| {
                black_box(event);
            };
            for _ in 0..n {
                black_box(agent.tick_traced(&mut counter, dt, &mut observer));
            }
        }
        "preview" => {
            let tree = compile(running);
            let mut observer = PreviewObserver::new(tree.len());
            let mut agent = Agent::new(tree, 1);
            for _ in 0..n {
                observer.clear();
                black_box(agent.tick_traced(&mut counter, dt, &mut observer));
            }
        }
        "generated" => {
            let registry = registry();
            let loaded = if running {
                reference::generated_b::load(&registry)
            } else {
                reference::generated_a::load(&registry)
            };
            let Ok(tree) = loaded else {
                eprintln!("the generated reference tree did not load");
                return ExitCode::FAILURE;
            };
            let mut agent = Agent::new(tree, 1);
            for _ in 0..n {
                black_box(agent.tick(&mut counter, dt));
            }
        }
        "direct" => {
            // Each variant's module has its own `Direct` type.
            macro_rules! direct {
                ($module:ident) => {{
                    let Ok(direct) = reference::$module::load_direct(&registry()) else {
                        eprintln!("the generated reference tree did not load");
                        return ExitCode::FAILURE;
                    };
                    let mut agent = direct.agent(1);
                    for _ in 0..n {
                        black_box(direct.tick(&mut agent, &mut counter, dt));
                    }
                }};
            }
            if running {
                direct!(generated_b)
            } else {
                direct!(generated_a)
            }
        }
        "literal" | "bound" => {
            let mut agent = Agent::new(compile_ported(running, engine == "bound"), 1);
            for _ in 0..n {
                black_box(agent.tick(&mut counter, dt));
            }
        }
        "floor" => {
            let mut tree = floor::tree(running);
            for _ in 0..n {
                black_box(tree.tick(black_box(&mut counter)));
            }
        }
        "bonsai" => {
            let mut bt = bonsai::tree(running);
            let e = bonsai::event(0.1);
            for _ in 0..n {
                black_box(bonsai::tick(&mut bt, &mut counter, black_box(&e)));
            }
        }
        _ => return usage(),
    }
    println!(
        "{engine} variant {variant}: {n} ticks, counter {}",
        counter.n
    );
    ExitCode::SUCCESS
}

fn load_wide(n: u64) -> ExitCode {
    let text = wide_tree(10_000).to_string();
    let registry = registry();
    for _ in 0..n {
        match registry.loader().load_str(black_box(&text), None) {
            Ok(tree) => {
                black_box(tree);
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("loaded {n} times");
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: reference_ticks <arbor|events|preview|literal|bound|generated|bonsai|floor> <a|b> <ticks>  |  reference_ticks load <times>");
    ExitCode::FAILURE
}
