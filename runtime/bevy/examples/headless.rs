//! Many walkers, headless: Bevy's minimal plugins (task pools, time, a hand-driven runner),
//! the tree as an asset, one agent per entity, ticked in parallel by `ArborPlugin`. Prints
//! the tick throughput.
//! `cargo run --release -p arbor-bevy --example headless -- [ENTITIES] [FRAMES]`
//! (defaults 10000 and 600); CI runs it small.
//!
//! With `--debug ADDR` (e.g. `-- 6 0 --debug 127.0.0.1:7878`) it serves Arbor's debug
//! protocol instead and runs in real time, four frames a second, until stopped (FRAMES 0)
//! or for FRAMES frames: attach the editor (Preview ▸ Attach to Program…) to watch every
//! walker.

use std::time::{Duration, Instant};

use arbor_bevy::{
    ArborAgent, ArborDebugServer, ArborPlugin, ArborTree, CompiledTrees, TreeProblems,
};
use bevy_app::{App, ScheduleRunnerPlugin, TaskPoolPlugin};
use bevy_asset::{AssetPlugin, AssetServer, Handle};
use bevy_time::TimePlugin;

mod walker;

use walker::{registry, Walker};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let debug = match args.iter().position(|a| a == "--debug") {
        Some(at) if at + 1 < args.len() => {
            let addr = args.remove(at + 1);
            args.remove(at);
            Some(addr)
        }
        Some(_) => {
            eprintln!("--debug needs an address, e.g. --debug 127.0.0.1:7878");
            std::process::exit(2);
        }
        None => None,
    };
    let mut args = args.into_iter();
    let entities: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let frames: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(600);
    let mut plugin = ArborPlugin::new(registry()).fixed_dt(0.1);
    if let Some(addr) = &debug {
        plugin = plugin.debug_server(arbor_runtime::debug::DebugConfig::new(addr.clone()));
    }

    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        ScheduleRunnerPlugin::run_once(),
        AssetPlugin {
            file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/assets").to_owned(),
            ..AssetPlugin::default()
        },
        plugin,
    ));
    let tree: Handle<ArborTree> = app.world().resource::<AssetServer>().load("walker.json");
    for i in 0..entities {
        app.world_mut().spawn((
            ArborAgent::<Walker>::new(tree.clone(), i as u64),
            Walker::default(),
        ));
    }

    // Load: the asset server reads and parses on its task pool; the plugin compiles.
    let start = Instant::now();
    while app
        .world()
        .resource::<CompiledTrees<Walker>>()
        .get(&tree)
        .is_none()
    {
        if let Some(problems) = app
            .world()
            .resource::<TreeProblems>()
            .by_tree
            .get(&tree.id())
        {
            eprintln!("walker.json did not compile: {problems:#?}");
            std::process::exit(1);
        }
        if start.elapsed() > Duration::from_secs(30) {
            eprintln!("walker.json did not load within 30 s");
            std::process::exit(1);
        }
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }

    if let Some(addr) = debug {
        if !app.world().contains_resource::<ArborDebugServer>() {
            std::process::exit(1);
        }
        println!("{entities} walkers; attach the editor to {addr}");
        let mut frame = 0;
        while frames == 0 || frame < frames {
            app.update();
            frame += 1;
            std::thread::sleep(Duration::from_millis(250));
        }
        return;
    }

    let start = Instant::now();
    for _ in 0..frames {
        app.update();
    }
    let elapsed = start.elapsed();
    let mut query = app.world_mut().query::<&Walker>();
    let arrivals: u64 = query.iter(app.world()).map(|w| u64::from(w.arrivals)).sum();
    let agent_ticks = (entities * frames) as f64;
    println!(
        "{entities} entities x {frames} frames in {:.1} ms ({:.0} ns per agent-tick, {:.2} M agent-ticks/s); {arrivals} arrivals",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_nanos() as f64 / agent_ticks,
        agent_ticks / elapsed.as_secs_f64() / 1e6,
    );

    // The same agents without Bevy: a plain loop over (Agent, Walker) pairs on one thread,
    // the runtime's own way (docs/embedding.md), for the comparison in docs/performance.md.
    let compiled = app
        .world()
        .resource::<CompiledTrees<Walker>>()
        .get(&tree)
        .expect("compiled above")
        .clone();
    let mut plain: Vec<(arbor_runtime::Agent<Walker>, Walker)> = (0..entities)
        .map(|i| {
            (
                arbor_runtime::Agent::new(compiled.clone(), i as u64),
                Walker::default(),
            )
        })
        .collect();
    let start = Instant::now();
    for _ in 0..frames {
        for (agent, walker) in &mut plain {
            agent.tick(walker, 0.1);
        }
    }
    let plain_elapsed = start.elapsed();
    println!(
        "plain runtime, one thread: {:.1} ms ({:.0} ns per agent-tick, {:.2} M agent-ticks/s)",
        plain_elapsed.as_secs_f64() * 1e3,
        plain_elapsed.as_nanos() as f64 / agent_ticks,
        agent_ticks / plain_elapsed.as_secs_f64() / 1e6,
    );
    if entities > 0 && frames >= 20 && arrivals == 0 {
        eprintln!("no walker arrived anywhere: the trees did not run");
        std::process::exit(1);
    }
}
