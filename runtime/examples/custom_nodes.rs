//! Custom composites and decorators: a weighted random selector and a cooldown decorator
//! written in Rust with the public API, run over a tree file for 12 ticks, the trace
//! printed. Run with `cargo run --release -p arbor-runtime --example custom_nodes`;
//! docs/embedding.md ("Writing composites and decorators") walks through it.

#[path = "shared/custom_nodes.rs"]
mod custom_nodes;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for line in custom_nodes::run(12)? {
        println!("{line}");
    }
    Ok(())
}
