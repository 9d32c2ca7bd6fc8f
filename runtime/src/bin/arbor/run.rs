//! `arbor run`: tick a tree on the deterministic clock; host nodes run through stubs
//! (`stubs.rs`), declared by the `--types` manifests and those the file lists. An agent
//! saved with `--save-state` goes on with `--load-state` exactly as if never stopped
//! (semantics rule 90): the stubs' counts are saved with it, in the snapshot's `program`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::stimuli::Stimuli;
use super::stubs::Stubs;
use super::trace_line::{line, TraceCollector};
use arbor_runtime::{Agent, ProblemKind, Snapshot};

#[derive(Args)]
pub(super) struct RunArgs {
    /// The tree file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// How many ticks to run.
    #[arg(long, value_name = "N")]
    ticks: u64,
    /// Seconds the clock advances before each tick.
    #[arg(long, default_value_t = 0.1, value_name = "SECONDS", value_parser = seconds)]
    dt: f64,
    /// Seed of the agent's random generator.
    #[arg(long, default_value_t = 0, value_name = "N")]
    seed: u64,
    /// Start from the agent state saved by `--save-state` (clock, RNG, node states,
    /// blackboard, stubs' counts) instead of a fresh agent; ticks go on from its count.
    #[arg(long, value_name = "STATE.json", conflicts_with = "seed")]
    load_state: Option<PathBuf>,
    /// After the last tick, write the agent's state to this file (atomically).
    #[arg(long, value_name = "STATE.json")]
    save_state: Option<PathBuf>,
    /// Inputs to apply before given ticks (see docs/cli.md).
    #[arg(long, value_name = "STIMULI.json")]
    stimuli: Option<PathBuf>,
    /// Print one JSON line per tick (events, blackboard, triggers).
    #[arg(long)]
    trace: bool,
    /// Node-types manifests declaring host node types, besides those the file lists
    /// (repeatable).
    #[arg(long = "types", value_name = "MANIFEST")]
    types: Vec<PathBuf>,
    /// A host type's stub: the statuses its nodes return in turn, the last repeating
    /// (repeatable), e.g. `MoveTo=running,running,success`.
    #[arg(long = "stub", value_name = "TYPE=STATUS,…")]
    stub: Vec<String>,
    /// A stubs file: `{"MoveTo": ["running", "success"], …}`; `--stub` wins over it.
    #[arg(long = "stubs", value_name = "STUBS.json")]
    stubs: Option<PathBuf>,
    /// The status of every host type that has no stub of its own.
    #[arg(long = "default-stub", value_name = "STATUS")]
    default_stub: Option<String>,
}

/// `--dt`: checked while parsing, so `nan`, `inf` or a negative step is bad usage (exit 2).
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(dt) if dt.is_finite() && dt >= 0.0 => Ok(dt),
        Ok(dt) => Err(format!(
            "must be a finite number of seconds, 0 or more; got {dt}"
        )),
        Err(e) => Err(e.to_string()),
    }
}

pub(super) fn run(args: &RunArgs) -> Result<bool, super::output::Failure> {
    let base = super::types::explicit(&args.types)?;
    let (types, mut warnings) = super::types::with_listed(&base, &args.file);
    let (registry, counts) = Stubs::new(
        args.stubs.as_deref(),
        &args.stub,
        args.default_stub.as_deref(),
    )?
    .registry(&types)?;
    let tree = match registry.loader().load_file(&args.file) {
        Ok(tree) => tree,
        Err(e) => {
            for warning in super::once(&warnings) {
                say!("{warning}");
            }
            for problem in &e.problems {
                say!("{problem}");
            }
            // Blame host nodes only when the tree has some: a structurally broken tree of
            // built-in nodes did not load for the reasons printed above.
            let needs_host = e.errors().any(|p| {
                matches!(
                    p.kind,
                    ProblemKind::UnknownNodeType { .. } | ProblemKind::NoImplementation(_)
                )
            });
            if needs_host {
                say!(
                    "arbor: {} did not load; host node types are declared by --types MANIFEST or the file's editor.manifests, and run through --stub TYPE=STATUS,…",
                    args.file.display()
                );
            } else {
                say!("arbor: {} did not load", args.file.display());
            }
            return Ok(false);
        }
    };
    warnings.extend(tree.warnings().iter().map(ToString::to_string));
    for warning in super::once(&warnings) {
        say!("{warning}");
    }
    let tree = Arc::new(tree);
    let mut agent = match &args.load_state {
        Some(path) => {
            let shown = path.display();
            let snapshot = Snapshot::read(path).map_err(|e| e.to_string())?;
            counts
                .load(&snapshot.program)
                .map_err(|e| format!("{shown}: {e}"))?;
            Agent::restore(tree, &snapshot, &mut ()).map_err(|e| format!("{shown}: {e}"))?
        }
        None => Agent::new(tree, args.seed),
    };
    let start = agent.ticks();
    let stimuli = match &args.stimuli {
        Some(path) => {
            let s = Stimuli::load(path)?;
            s.validate(&agent, &path.display().to_string())?;
            Some((s, path.display().to_string()))
        }
        None => None,
    };
    let mut collected = TraceCollector::default();
    for tick in start + 1..=start.saturating_add(args.ticks) {
        agent.advance(args.dt);
        if let Some((s, shown)) = &stimuli {
            s.apply(tick, &mut agent, shown)?;
        }
        collected.events.clear();
        collected.logs.clear();
        let status = agent.run_traced(&mut (), &mut collected);
        for (node, message) in &collected.logs {
            // Located as BT.CPP 4.10 locates an exception: the path through the subtrees.
            let node = arbor_runtime::NodeId::from_index(*node as usize);
            let at = agent.tree().locate(node);
            say!("[tick {tick}] {at}: {message}");
        }
        if args.trace {
            super::output::line(&line(tick, status, &collected, &agent))?;
        } else {
            super::output::line(&format!("tick {tick}: {status}"))?;
        }
    }
    if let Some(path) = &args.save_state {
        let mut snapshot = agent.snapshot();
        snapshot.program = counts.save();
        arbor_runtime::files::write_atomic(path, snapshot.to_json().as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    Ok(true)
}
