//! `villager`: runs the needs-driven villager headless and prints what it does.
//!
//! With `--debug ADDR` it instead runs `--agents N` villagers in real time (one tick every
//! `--dt` seconds) until killed, each registered with a debug server on `ADDR` as
//! "villager #k", so the editor (or any client of docs/debug-protocol.md) can attach.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbor_runtime::debug::{DebugConfig, DebugServer, Instance};
use arbor_runtime::{parse_str, Agent, CompiledTree};
use arbor_samples::cli::{self, Options, Parsed, Spec};
use arbor_samples::trees_dir;
use arbor_samples::villager::{registry, Villager, VillagerWorld};

const SPEC: Spec = Spec {
    program: "villager",
    about: "Runs the villager sample: needs decay, the tree sends the villager to the zones \
            that refill them.",
    default_ticks: 2000,
    default_dt: 0.25,
    extra: &[
        ("--agents", "N", "villagers to run with --debug (default 1)"),
        (
            "--debug",
            "ADDR",
            "serve the debug protocol on ADDR (e.g. 127.0.0.1:7878) and run in real time \
             until killed (--ticks is ignored)",
        ),
    ],
};

fn main() -> ExitCode {
    // Bad usage and `--help` are left to `cli::main`, which reports them.
    if let Ok(Parsed::Run(options)) = cli::parse(&SPEC, std::env::args().skip(1)) {
        if let Some(addr) = options.value("--debug") {
            return match serve(&options, addr) {
                Ok(()) => ExitCode::SUCCESS,
                Err(Failure::Usage(message)) => {
                    eprintln!("villager: {message}\n\n{}", cli::usage(&SPEC));
                    ExitCode::from(2)
                }
                Err(Failure::Run(message)) => {
                    eprintln!("villager: {message}");
                    ExitCode::from(1)
                }
            };
        }
    }
    cli::main(&SPEC, |o| match o.value("--agents") {
        Some(_) => Err("`--agents` needs `--debug`".into()),
        None => Ok(Box::new(Villager::new(o.seed))),
    })
}

enum Failure {
    Usage(String),
    Run(String),
}

/// One villager of a debug run.
struct Resident {
    world: VillagerWorld,
    agent: Agent<VillagerWorld>,
    handle: Instance,
    /// Log lines already printed.
    seen: u64,
}

/// Runs the villagers until the process is killed.
fn serve(options: &Options, addr: &str) -> Result<(), Failure> {
    let agents = match options.value("--agents").map(str::parse::<u64>) {
        None => 1,
        Some(Ok(n)) if n >= 1 => n,
        Some(_) => {
            return Err(Failure::Usage(
                "`--agents` expects a whole number of at least 1".into(),
            ))
        }
    };
    let path = options
        .tree
        .clone()
        .unwrap_or_else(|| trees_dir().join("villager.json"));
    let tree = load(&path)?;
    let server = DebugServer::start(DebugConfig::new(addr))
        .map_err(|e| Failure::Run(format!("cannot start the debug server: {e}")))?;
    println!(
        "debug server listening on {} ({agents} villagers, one tick every {} s)",
        server.local_addr(),
        options.dt
    );
    let _ = std::io::stdout().flush();

    let mut residents: Vec<Resident> = (1..=agents)
        .map(|k| {
            let seed = options.seed + k - 1;
            let agent = Agent::new(tree.tree.clone(), seed);
            Resident {
                world: VillagerWorld::new(seed),
                handle: server.register(format!("villager #{k}"), &agent, &tree.file),
                agent,
                seen: 0,
            }
        })
        .collect();
    let period = Duration::from_secs_f64(options.dt);
    let dt = options.dt;
    let mut generation = 0;
    let mut next = Instant::now();
    loop {
        for (k, resident) in residents.iter_mut().enumerate() {
            if !resident.world.alive {
                // Keep the instance listed: a newcomer moves into the dead villager's house.
                generation += 1;
                let seed = options.seed + agents * generation + k as u64;
                resident.world = VillagerWorld::new(seed);
                resident.agent = Agent::new(tree.tree.clone(), seed);
                resident.seen = 0;
                println!("villager #{}: a newcomer (seed {seed}) moves in", k + 1);
            }
            resident.handle.tick_with(
                &mut resident.agent,
                &mut resident.world,
                dt,
                |agent, world| {
                    world.step(dt, agent.now());
                    world.sense(agent.blackboard_mut());
                },
            );
            if !options.quiet {
                for line in resident.world.log.since(resident.seen) {
                    println!("villager #{} [{:>9.2}s] {}", k + 1, line.time, line.text);
                }
            }
            resident.seen = resident.world.log.total();
        }
        let _ = std::io::stdout().flush();
        next += period;
        match next.checked_duration_since(Instant::now()) {
            Some(wait) => std::thread::sleep(wait),
            // Running late (a paused debugger, a slow machine): do not try to catch up.
            None => next = Instant::now(),
        }
    }
}

/// A compiled villager tree and the file it came from (sent to debug clients).
struct LoadedTree {
    tree: Arc<CompiledTree<VillagerWorld>>,
    file: arbor_runtime::format::TreeFile,
}

fn load(path: &Path) -> Result<LoadedTree, Failure> {
    let limit = arbor_runtime::LoadOptions::default().max_file_bytes;
    let text = arbor_runtime::files::read_text(path, limit)
        .map_err(|e| Failure::Run(format!("{}: {e}", path.display())))?;
    let file = parse_str(&text, Some(path)).map_err(|e| Failure::Run(e.to_string()))?;
    let tree = registry()
        .loader()
        .load_tree(&file, Some(path))
        .map_err(|e| Failure::Run(e.to_string()))?;
    Ok(LoadedTree {
        tree: Arc::new(tree),
        file,
    })
}
