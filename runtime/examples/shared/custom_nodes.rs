//! A weighted random selector and a cooldown decorator written as a program writes its
//! own composites and decorators: with the public API only (`Control`, `ControlCtx`,
//! `Registry::composite`, `Registry::decorator`), next to a leaf declared with `NodeDecl`. The `custom_nodes` example runs them,
//! and the runtime's tests run the same code (tests/examples/custom_nodes.rs).

use std::path::Path;
use std::sync::Arc;

use arbor_runtime::{
    Agent, Args, Control, ControlCtx, NodeDecl, NodeType, ParamKind, ParamSpec, Recorded, Recorder,
    Registry, Scalar, Status, Value,
};

/// The program's data for one guard.
#[derive(Debug, Default)]
pub struct Guard {
    /// Shots fired.
    pub shots: u32,
    /// Ticks spent patrolling.
    pub patrol_ticks: u32,
}

/// Tries its children in a random order drawn with their weights, until one succeeds.
pub struct WeightedChoice {
    weights: Vec<f64>,
}

/// One execution of a `WeightedChoice`: the children tried so far, the one running.
#[derive(Clone, Copy, Default)]
pub struct Tried {
    mask: u64,
    running: Option<u8>,
}

impl WeightedChoice {
    fn new(args: &Args) -> Result<WeightedChoice, String> {
        let weights = match args.value("weights") {
            Some(Value::Json(list)) => list
                .as_array()
                .into_iter()
                .flatten()
                .map(|w| {
                    w.as_f64()
                        .filter(|w| *w >= 0.0)
                        .ok_or("weights are numbers, 0 or more")
                })
                .collect::<Result<Vec<f64>, _>>()?,
            _ => return Err("`weights` is a list of numbers".to_owned()),
        };
        Ok(WeightedChoice { weights })
    }

    /// A child not yet tried, drawn with the agent's seeded generator.
    fn draw<C>(&self, cx: &mut ControlCtx<'_, C>, mask: u64) -> Option<usize> {
        let open = |k: &usize| mask & (1 << k) == 0;
        let weight = |k: usize| self.weights.get(k).copied().unwrap_or(1.0);
        let n = cx.child_count().min(64);
        let total: f64 = (0..n).filter(open).map(weight).sum();
        let mut r = cx.rng().f64() * total;
        for k in (0..n).filter(open).filter(|k| weight(*k) > 0.0) {
            if r < weight(k) {
                return Some(k);
            }
            r -= weight(k);
        }
        None
    }
}

impl<C> Control<C> for WeightedChoice {
    type State = Tried;

    fn enter(&self, _: &mut ControlCtx<'_, C>, tried: &mut Tried) {
        *tried = Tried::default();
    }

    fn tick(&self, cx: &mut ControlCtx<'_, C>, tried: &mut Tried) -> Status {
        loop {
            let k = match tried.running {
                Some(k) => usize::from(k),
                None => match self.draw(cx, tried.mask) {
                    Some(k) => {
                        tried.mask |= 1 << k;
                        k
                    }
                    None => return Status::Failure,
                },
            };
            match cx.tick_child(k) {
                Status::Failure => tried.running = None,
                Status::Running => {
                    tried.running = Some(k as u8);
                    return Status::Running;
                }
                Status::Success => return Status::Success,
            }
        }
    }
}

/// After its child completes, fails for `seconds` of the agent's clock without ticking it.
pub struct Recharge {
    seconds: f64,
}

impl<C> Control<C> for Recharge {
    /// When the recharge is over: kept across executions, per agent.
    type State = f64;

    fn tick(&self, cx: &mut ControlCtx<'_, C>, ready_at: &mut f64) -> Status {
        if !cx.is_child_running(0) && cx.now() < *ready_at {
            return Status::Failure;
        }
        let status = cx.tick_child(0);
        if status != Status::Running {
            *ready_at = cx.now() + self.seconds;
        }
        status
    }
}

/// The program's registry: three actions, the composite and the decorator.
pub fn registry() -> Registry<Guard> {
    let mut registry = Registry::<Guard>::new();
    // A leaf declared in one piece: its type, its state (ticks into this walk, reset as
    // each walk starts) and its code.
    let mut patrol = NodeDecl::<Guard>::action("Patrol", "Walks for `ticks` ticks.").state::<u32>();
    let ticks = patrol
        .input::<i64>("ticks")
        .doc("How long a walk is.")
        .default(2);
    registry.add(patrol.tick(move |cx| {
        cx.agent.patrol_ticks += 1;
        *cx.state += 1;
        match cx.get(&ticks) {
            Some(n) if i64::from(*cx.state) < n => Status::Running,
            _ => Status::Success,
        }
    }));
    registry
        .action(NodeType::action("Shoot", "Fires once."), |cx| {
            cx.agent.shots += 1;
            Status::Success
        })
        .action(
            NodeType::action("LookAround", "Fails: nothing to see."),
            |_| Status::Failure,
        )
        .composite(
            NodeType::composite(
                "WeightedChoice",
                "Tries children in a weighted random order until one succeeds.",
            )
            .param(ParamSpec::new(
                "weights",
                ParamKind::List(Scalar::Float),
                "One weight per child.",
            )),
            WeightedChoice::new,
        )
        .decorator(
            NodeType::decorator(
                "Recharge",
                "After its child completes, fails for `seconds` without ticking it.",
            )
            .param(ParamSpec::new("seconds", ParamKind::Float, "How long.")),
            |args| {
                Ok(Recharge {
                    seconds: args.f64("seconds")?,
                })
            },
        );
    registry
}

/// Loads `custom_nodes.json`, ticks one agent `ticks` times (`dt` 1 s), and returns the
/// trace: one line per tick with the root's status, then one per event.
pub fn run(ticks: usize) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/custom_nodes.json");
    let tree = Arc::new(registry().loader().load_file(&path)?);
    let mut agent = Agent::new(tree.clone(), 7);
    let mut guard = Guard::default();
    let mut recorder = Recorder::default();
    let mut lines = Vec::new();
    for t in 1..=ticks {
        recorder.clear();
        let status = agent.tick_traced(&mut guard, 1.0, &mut recorder);
        lines.push(format!("tick {t}: {status}"));
        for event in &recorder.events {
            let name = |n: &arbor_runtime::NodeId| tree.info(*n).name.clone();
            lines.push(match event {
                Recorded::Enter(n) => format!("  enter {}", name(n)),
                Recorded::Tick(n, s) => format!("  tick  {} -> {s}", name(n)),
                Recorded::Exit(n, Some(s)) => format!("  exit  {} ({s})", name(n)),
                Recorded::Exit(n, None) => format!("  exit  {} (aborted)", name(n)),
                Recorded::Abort(n) => format!("  abort {}", name(n)),
                other => format!("  {other:?}"),
            });
        }
    }
    lines.push(format!(
        "{} shots, {} patrol ticks",
        guard.shots, guard.patrol_ticks
    ));
    Ok(lines)
}
