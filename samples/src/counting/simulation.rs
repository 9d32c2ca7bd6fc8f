//! Counting: [001]'s MathTree as a [`Simulation`]: `Selector[AddTen, Inverter(
//! NotEqualToTarget), AddTen]` with `current` and `target` on the blackboard (rule 35).
//! Target 20 succeeds at the second AddTen with `current = 20`; target 30 fails with
//! `current = 20`. Each further tick restarts the tree (rule 4) and keeps adding.

use std::any::Any;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{
    Blackboard, LoadError, NodeId, NodeTypes, Observer, Registry, Status, TraceEvent,
};

use super::world::{CounterWorld, CURRENT_KEY, TARGET_KEY};
use crate::log::Log;
use crate::runner::Runner;
use crate::simulation::{trees_dir, LoadOutcome, Simulation};
use crate::tree_view::TreeView;

/// Built-in node types only: the counting tree needs no host nodes.
pub fn registry() -> Registry<CounterWorld> {
    Registry::new()
}

pub struct Counting {
    pub world: CounterWorld,
    /// Overrides the tree's `target` default when set.
    target: Option<i64>,
    runner: Runner<CounterWorld>,
}

impl Counting {
    /// The counting tree with the target its file declares; no tree loaded yet.
    pub fn new(seed: u64) -> Counting {
        Counting {
            world: CounterWorld::default(),
            target: None,
            runner: Runner::new(registry(), seed),
        }
    }

    /// As [`Counting::new`], counting towards `target`.
    pub fn with_target(seed: u64, target: i64) -> Counting {
        let mut counting = Counting::new(seed);
        counting.target = Some(target);
        counting
    }

    /// Sets the blackboard's `target` now and after every reset.
    pub fn set_target(&mut self, target: i64) {
        self.target = Some(target);
        self.apply_target();
    }

    fn apply_target(&mut self) {
        let (Some(target), Some(bb)) = (self.target, self.runner.blackboard_mut()) else {
            return;
        };
        if let Some(key) = bb.key(TARGET_KEY) {
            // A tree whose `target` is not an int cannot take it; its Conditions will say so
            // by failing, which the preview shows.
            let _ = bb.set(key, target);
        }
        self.mirror();
    }

    fn mirror(&mut self) {
        let read = |bb: &Blackboard, name| bb.key(name).and_then(|k| bb.get_i64(k));
        if let Some(bb) = self.runner.blackboard() {
            self.world.current = read(bb, CURRENT_KEY);
            self.world.target = read(bb, TARGET_KEY);
        }
    }
}

impl Simulation for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }

    fn title(&self) -> &'static str {
        "Counting tree (MathTree)"
    }

    fn tree_path(&self) -> PathBuf {
        trees_dir().join("counting.json")
    }

    fn node_types(&self) -> NodeTypes {
        self.runner.node_types()
    }

    fn default_dt(&self) -> f64 {
        1.0
    }

    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError> {
        let outcome = self.runner.load(&mut self.world, tree, path)?;
        if !outcome.reloaded {
            self.apply_target();
        }
        self.mirror();
        Ok(outcome)
    }

    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status> {
        let agent = self.runner.agent_mut()?;
        agent.advance(dt);
        let tree = agent.tree().clone();
        let root = tree.root();
        let mut branches = Vec::new();
        let status = {
            let mut tee = |event: TraceEvent<'_>| {
                if let TraceEvent::Exit(node, Some(status)) = event {
                    if tree.parent(node) == Some(root) {
                        branches.push((tree.info(node).name.clone(), status));
                    }
                }
                observer.event(event);
            };
            agent.run_traced(&mut self.world, &mut tee)
        };
        let now = agent.now();
        self.world.branches = branches;
        self.world.result = Some(status);
        self.mirror();
        let steps: Vec<String> = self
            .world
            .branches
            .iter()
            .map(|(name, status)| format!("{name} {status}"))
            .collect();
        let show = |v: Option<i64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
        let line = format!(
            "{} -> {status}; current = {}, target = {}",
            steps.join(", "),
            show(self.world.current),
            show(self.world.target)
        );
        self.world.log.push(now, line);
        Some(status)
    }

    fn reset(&mut self) {
        self.world = CounterWorld::default();
        self.runner.reset();
        self.apply_target();
        self.mirror();
    }

    fn seed(&self) -> u64 {
        self.runner.seed()
    }

    fn set_seed(&mut self, seed: u64) {
        self.runner.set_seed(seed);
        self.reset();
    }

    fn now(&self) -> f64 {
        self.runner.now()
    }

    fn blackboard(&self) -> Option<&Blackboard> {
        self.runner.blackboard()
    }

    fn blackboard_mut(&mut self) -> Option<&mut Blackboard> {
        self.runner.blackboard_mut()
    }

    fn tree(&self) -> Option<&dyn TreeView> {
        self.runner.tree()
    }

    fn is_running(&self, node: NodeId) -> bool {
        self.runner.is_running(node)
    }

    fn log(&self) -> &Log {
        &self.world.log
    }

    fn summary(&self) -> String {
        let show = |v: Option<i64>| v.map_or_else(|| "none".to_owned(), |v| v.to_string());
        let result = self
            .world
            .result
            .map_or_else(|| "not run yet".to_owned(), |s| s.to_string());
        format!(
            "current = {}, target = {}; last result: {result}",
            show(self.world.current),
            show(self.world.target)
        )
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
