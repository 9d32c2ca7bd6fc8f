//! Soak tests: the Villager sample ticked for a long time. Every tick's trace is
//! well-formed ([`TraceChecker`]), the agent's own idea of which nodes are running matches
//! the trace's, and memory stays flat.
//!
//! `ten_thousand_ticks_trace_well_formed` runs in the normal suite. The long one is ignored
//! by default; run it with
//!
//! ```text
//! cargo test -p arbor-samples --release --test soak -- --ignored --nocapture
//! ```
//!
//! It samples the resident set (the `memory-stats` crate, where the platform tells) every 100,000
//! ticks and requires the last sample to be within [`RSS_SLACK_KIB`] of the first: the
//! first 100,000 ticks fill the bounded buffers (the world's log keeps its last 1,000
//! lines), after which nothing may grow.

use arbor_runtime::{NodeId, Observer, Status, TraceEvent};
use arbor_samples::villager::Villager;
use arbor_samples::{Simulation, TreeView};

/// Allowed RSS growth between the sample after 100,000 ticks and the last one.
const RSS_SLACK_KIB: u64 = 1024;

/// Checks the lifecycle rules of the trace, event by event, across ticks:
/// - `Enter` only for an idle node whose parent is running (or the root);
/// - `Tick` and `Log` only for a running node;
/// - `Exit(Some)` only right after that node's `Tick` with a finished status, and
///   `Exit(None)` only after its `Abort`; never while one of its children still runs;
/// - `Abort` only for a running node, once;
/// - at the end of a tick, the root runs exactly when the tick returned `Running`, nothing
///   runs when it finished, and no exit is owed.
struct TraceChecker {
    parent: Vec<Option<usize>>,
    running: Vec<bool>,
    running_children: Vec<u32>,
    aborting: Vec<bool>,
    /// Ticked with a finished status; its exit is owed.
    owes_exit: Vec<bool>,
    events: u64,
    errors: Vec<String>,
}

impl TraceChecker {
    fn new(tree: &dyn TreeView) -> TraceChecker {
        let n = tree.len();
        TraceChecker {
            parent: (0..n)
                .map(|i| tree.parent(NodeId::from_index(i)).map(NodeId::index))
                .collect(),
            running: vec![false; n],
            running_children: vec![0; n],
            aborting: vec![false; n],
            owes_exit: vec![false; n],
            events: 0,
            errors: Vec::new(),
        }
    }

    fn fail(&mut self, message: String) {
        // The first few are enough to diagnose; don't let a broken trace eat memory.
        if self.errors.len() < 20 {
            self.errors.push(message);
        }
    }

    fn leave(&mut self, i: usize) {
        if self.running_children[i] != 0 {
            self.fail(format!(
                "node {i} exited with {} children running",
                self.running_children[i]
            ));
        }
        self.running[i] = false;
        self.aborting[i] = false;
        self.owes_exit[i] = false;
        if let Some(p) = self.parent[i] {
            self.running_children[p] = self.running_children[p].saturating_sub(1);
        }
    }

    /// After a tick: the end-of-tick rules, and agreement with the agent's own state.
    fn end_tick(&mut self, tick: u64, status: Option<Status>, sim: &dyn Simulation) {
        match status {
            Some(Status::Running) if !self.running[0] => {
                self.fail(format!("tick {tick}: running, but the root is idle"));
            }
            Some(Status::Success | Status::Failure) if self.running.iter().any(|r| *r) => {
                self.fail(format!("tick {tick}: finished with nodes still running"));
            }
            _ => {}
        }
        for i in 0..self.running.len() {
            if self.owes_exit[i] || self.aborting[i] {
                self.fail(format!("tick {tick}: node {i} never exited"));
            }
            if sim.is_running(NodeId::from_index(i)) != self.running[i] {
                self.fail(format!(
                    "tick {tick}: node {i}: the agent says running = {}, the trace {}",
                    !self.running[i], self.running[i]
                ));
            }
        }
    }
}

impl Observer for TraceChecker {
    fn event(&mut self, event: TraceEvent<'_>) {
        self.events += 1;
        let i = event.node().index();
        if i >= self.running.len() {
            self.fail(format!("{event:?}: no such node"));
            return;
        }
        match event {
            TraceEvent::Enter(_) => {
                if self.running[i] {
                    self.fail(format!("node {i} entered twice"));
                }
                if let Some(p) = self.parent[i] {
                    if !self.running[p] {
                        self.fail(format!("node {i} entered under idle parent {p}"));
                    }
                    self.running_children[p] += 1;
                }
                self.running[i] = true;
            }
            TraceEvent::Tick(_, status) => {
                if !self.running[i] || self.aborting[i] {
                    self.fail(format!("node {i} ticked while not running"));
                }
                self.owes_exit[i] = status.is_done();
            }
            TraceEvent::Exit(_, Some(_)) => {
                if !self.running[i] || !self.owes_exit[i] {
                    self.fail(format!("node {i} exited without finishing"));
                }
                self.leave(i);
            }
            TraceEvent::Exit(_, None) => {
                if !self.aborting[i] {
                    self.fail(format!("node {i} exited as aborted without an abort"));
                }
                self.leave(i);
            }
            TraceEvent::Abort(_) => {
                if !self.running[i] || self.aborting[i] {
                    self.fail(format!("node {i} aborted while not running"));
                }
                self.aborting[i] = true;
            }
            TraceEvent::Log { .. } => {
                if !self.running[i] {
                    self.fail(format!("node {i} logged while not running"));
                }
            }
            TraceEvent::Check { .. } => {}
        }
    }
}

/// Resident memory in KiB, where the platform tells.
fn rss_kib() -> Option<u64> {
    memory_stats::memory_stats().map(|m| m.physical_mem as u64 / 1024)
}

/// Ticks a fresh villager `ticks` times, checking every trace; calls `sample` every
/// `every` ticks. Returns the number of trace events seen.
fn soak(seed: u64, ticks: u64, every: u64, mut sample: impl FnMut(u64)) -> u64 {
    let mut sim = Villager::new(seed);
    if let Err(e) = sim.load_default() {
        panic!("villager: {e}");
    }
    let dt = sim.default_dt();
    let mut checker = TraceChecker::new(sim.tree().expect("a loaded tree"));
    for tick in 1..=ticks {
        let status = sim.tick(dt, &mut checker);
        assert_eq!(
            status,
            Some(Status::Running),
            "tick {tick}: the villager lives"
        );
        checker.end_tick(tick, status, &sim);
        assert!(
            checker.errors.is_empty(),
            "tick {tick}: malformed trace:\n{}",
            checker.errors.join("\n")
        );
        if tick % every == 0 {
            sample(tick);
        }
    }
    checker.events
}

#[test]
fn ten_thousand_ticks_trace_well_formed() {
    let events = soak(7, 10_000, 10_000, |_| {});
    // The villager did things: far more than a couple of events per tick.
    assert!(events > 50_000, "{events} events");
}

#[test]
#[ignore = "long: 1,000,000 ticks; run with --ignored (see the file's documentation)"]
fn a_million_ticks_trace_well_formed_and_memory_flat() {
    let mut samples: Vec<(u64, u64)> = Vec::new();
    let started = std::time::Instant::now();
    let events = soak(7, 1_000_000, 100_000, |tick| {
        if let Some(kib) = rss_kib() {
            println!("tick {tick:>9}: RSS {kib} KiB");
            samples.push((tick, kib));
        }
    });
    println!(
        "1,000,000 ticks, {events} trace events, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let (Some(&(_, first)), Some(&(_, last))) = (samples.first(), samples.last()) {
        assert!(
            last <= first + RSS_SLACK_KIB,
            "memory grew from {first} KiB to {last} KiB: {samples:?}"
        );
    }
}

#[test]
fn the_checker_catches_a_malformed_trace() {
    let mut sim = Villager::new(1);
    sim.load_default().expect("loads");
    let mut checker = TraceChecker::new(sim.tree().expect("a loaded tree"));
    let root = NodeId::from_index(0);
    let child = NodeId::from_index(1);
    checker.event(TraceEvent::Enter(child));
    assert!(
        !checker.errors.is_empty(),
        "a child entered under an idle root"
    );
    let mut checker = TraceChecker::new(sim.tree().expect("a loaded tree"));
    checker.event(TraceEvent::Enter(root));
    checker.event(TraceEvent::Exit(root, Some(Status::Success)));
    assert!(
        !checker.errors.is_empty(),
        "an exit without a finishing tick"
    );
    let mut checker = TraceChecker::new(sim.tree().expect("a loaded tree"));
    checker.event(TraceEvent::Enter(root));
    checker.end_tick(1, Some(Status::Running), &sim);
    assert!(
        !checker.errors.is_empty(),
        "the agent never ran the root, the trace says it runs"
    );
}
