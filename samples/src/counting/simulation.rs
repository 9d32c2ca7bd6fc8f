//! Counting: the MathTree of a Unity game-AI book as a [`Sample`]: `Selector[AddTen,
//! Inverter(NotEqualToTarget), AddTen]` with `current` and `target` on the blackboard
//! (rule 35). Target 20 succeeds at the second AddTen with `current = 20`; target 30 fails
//! with `current = 20`. Each further tick restarts the tree (rule 4) and keeps adding.

use arbor_runtime::{Agent, Blackboard, Observer, Registry, Status, TraceEvent};

use super::world::{CounterWorld, CURRENT_KEY, TARGET_KEY};
use crate::log::Log;
use crate::sample::{Sample, World};
use crate::simulation::LoadOutcome;

/// Built-in node types only: the counting tree needs no host nodes.
pub fn registry() -> Registry<CounterWorld> {
    Registry::new()
}

/// The counting sample (`current`, `target` and the branches' results are its `world`).
pub type Counting = Sample<CounterWorld>;

impl Sample<CounterWorld> {
    /// As [`Counting::new`], counting towards `target`.
    pub fn with_target(seed: u64, target: i64) -> Counting {
        let mut counting = Counting::new(seed);
        counting.world.target_override = Some(target);
        counting
    }

    /// Sets the blackboard's `target` now and after every reset.
    pub fn set_target(&mut self, target: i64) {
        let (world, agent) = self.parts();
        world.target_override = Some(target);
        world.apply_target(agent);
    }
}

impl CounterWorld {
    /// Writes the overriding target, if any, then mirrors the blackboard.
    fn apply_target(&mut self, agent: Option<&mut Agent<CounterWorld>>) {
        let Some(agent) = agent else {
            return;
        };
        if let Some(target) = self.target_override {
            let bb = agent.blackboard_mut();
            if let Some(key) = bb.key(TARGET_KEY) {
                // A tree whose `target` is not an int cannot take it; its Conditions will
                // say so by failing, which the preview shows.
                let _ = bb.set(key, target);
            }
        }
        self.mirror(agent.blackboard());
    }

    fn mirror(&mut self, bb: &Blackboard) {
        let read = |name| bb.key(name).and_then(|k| bb.get_i64(k));
        self.current = read(CURRENT_KEY);
        self.target = read(TARGET_KEY);
    }
}

impl World for CounterWorld {
    const NAME: &'static str = "counting";
    const TITLE: &'static str = "Counting tree (MathTree)";
    const TREE: &'static str = "counting.json";
    const DT: f64 = 1.0;

    fn registry() -> Registry<CounterWorld> {
        registry()
    }

    fn new(_seed: u64) -> CounterWorld {
        CounterWorld::default()
    }

    fn tick(
        &mut self,
        agent: &mut Agent<CounterWorld>,
        dt: f64,
        observer: &mut dyn Observer,
    ) -> Option<Status> {
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
            agent.run_traced(self, &mut tee)
        };
        let now = agent.now();
        self.branches = branches;
        self.result = Some(status);
        self.mirror(agent.blackboard());
        let steps: Vec<String> = self
            .branches
            .iter()
            .map(|(name, status)| format!("{name} {status}"))
            .collect();
        let line = format!(
            "{} -> {status}; current = {}, target = {}",
            steps.join(", "),
            show(self.current),
            show(self.target)
        );
        self.log.push(now, line);
        Some(status)
    }

    /// A fresh count; an overriding target stays, and is written again.
    fn reset(&mut self, _seed: u64, agent: Option<&mut Agent<CounterWorld>>) {
        *self = CounterWorld {
            target_override: self.target_override,
            ..CounterWorld::default()
        };
        self.apply_target(agent);
    }

    /// The first load writes the overriding target; a hot reload keeps the blackboard.
    fn loaded(&mut self, agent: &mut Agent<CounterWorld>, outcome: &LoadOutcome) {
        if outcome.reloaded {
            self.mirror(agent.blackboard());
        } else {
            self.apply_target(Some(agent));
        }
    }

    fn log(&self) -> &Log {
        &self.log
    }

    fn summary(&self) -> String {
        let result = self
            .result
            .map_or_else(|| "not run yet".to_owned(), |s| s.to_string());
        format!(
            "current = {}, target = {}; last result: {result}",
            show(self.current),
            show(self.target)
        )
    }
}

fn show(value: Option<i64>) -> String {
    value.map_or_else(|| "none".to_owned(), |v| v.to_string())
}
