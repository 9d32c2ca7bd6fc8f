//! Agent: one running instance of a compiled tree, with its own state (a slot per node),
//! blackboard, events, triggers, clock and seeded RNG.
//!
//! A host tick follows rule 2: [`Agent::advance`] moves the clock (events of earlier ticks
//! expire), the host applies its inputs (blackboard writes, events, triggers) at the new
//! time, then [`Agent::run`] ticks the root once. [`Agent::tick`] does both when there is
//! nothing to apply in between.

use std::sync::Arc;

use crate::blackboard::Blackboard;
use crate::exec::{split, untraced, EventSlot, Exec, Host, Nodes, Slot, State};
use crate::nodes::Kind;
use crate::program::{Forward, Run};
use crate::snapshot::{NodeRef, RestoreReport, Snapshot, SnapshotError};
use crate::status::Status;
use crate::tick_mode::{TickMode, MAX_RETICKS};
use crate::trace::{NodeId, Observer};
use crate::tree::CompiledTree;

/// One instance of a tree; `C` is the program's data for the agent, handed to host actions.
pub struct Agent<C> {
    tree: Arc<CompiledTree<C>>,
    state: State,
    mode: TickMode,
    /// The `agent` field of its `tracing` events (`tracing` feature).
    #[cfg(feature = "tracing")]
    trace_id: u64,
}

impl<C> Agent<C> {
    /// A fresh agent at time 0, with the blackboard's defaults and an RNG seeded with `seed`.
    pub fn new(tree: Arc<CompiledTree<C>>, seed: u64) -> Agent<C> {
        let state = State {
            nodes: Nodes {
                slots: vec![Slot::default(); tree.nodes.len()],
                events: vec![EventSlot::default(); tree.events.len()],
                triggers: vec![false; tree.triggers.len()],
                timers: vec![0.0; tree.timers as usize],
                run: 0,
                woken: false,
            },
            bb: Blackboard::new(tree.keys.clone()),
            host: Host {
                rng: crate::rng::Rng::with_seed(seed),
                states: tree.states.iter().map(|m| (m.make)()).collect(),
                info: tree.info.clone(),
                ticked_at: 0.0,
                ticked_before: 0.0,
                sleeps: Vec::new(),
            },
        };
        Agent {
            tree,
            state,
            mode: TickMode::Once,
            #[cfg(feature = "tracing")]
            trace_id: seed,
        }
    }

    /// The `agent` field of this agent's `tracing` events: its seed unless set.
    #[cfg(feature = "tracing")]
    pub fn trace_id(&self) -> u64 {
        self.trace_id
    }

    /// Sets the `agent` field of this agent's `tracing` events (an entity id, an index).
    #[cfg(feature = "tracing")]
    pub fn set_trace_id(&mut self, id: u64) {
        self.trace_id = id;
    }

    /// One root tick reported as `tracing` events, when a subscriber wants them.
    #[cfg(feature = "tracing")]
    #[inline(never)]
    fn run_logged(&mut self, data: &mut C) -> Status {
        let mut observer = crate::tracing_events::TracingObserver::new(self.trace_id, &self.tree);
        self.run_traced(data, &mut observer)
    }

    /// The tree and the state, borrowed apart (generated code's `support::direct`).
    #[inline(always)]
    pub(crate) fn parts_mut(&mut self) -> (&CompiledTree<C>, &mut State) {
        (&self.tree, &mut self.state)
    }

    /// How many root ticks one call of [`Agent::tick`] or [`Agent::run`] makes (rule 85);
    /// [`TickMode::Once`] unless set.
    pub fn set_tick_mode(&mut self, mode: TickMode) {
        self.mode = mode;
    }

    /// The agent's [`TickMode`].
    pub fn tick_mode(&self) -> TickMode {
        self.mode
    }

    /// Rule 85: `once` (one root tick), then again while it returned `running` after a
    /// yielding node ended a run, at most [`MAX_RETICKS`] more times.
    #[inline(never)]
    fn retick_after_yield(&mut self, mut once: impl FnMut(&mut Self) -> Status) -> Status {
        self.state.nodes.woken = false;
        let mut status = once(self);
        let mut reticks = 0;
        while status == Status::Running
            && std::mem::take(&mut self.state.nodes.woken)
            && reticks < MAX_RETICKS
        {
            reticks += 1;
            status = once(self);
        }
        status
    }

    /// The compiled tree this agent runs.
    pub fn tree(&self) -> &Arc<CompiledTree<C>> {
        &self.tree
    }

    /// Advances the clock by `dt` seconds and ticks the root once.
    pub fn tick(&mut self, data: &mut C, dt: f64) -> Status {
        #[cfg(feature = "tracing")]
        if crate::tracing_events::wanted() {
            self.advance(dt);
            return self.run_logged(data);
        }
        if self.mode == TickMode::RetickAfterYield {
            self.advance(dt);
            return self.retick_after_yield(|a| a.run_once(data));
        }
        // A tree compiled to Rust (`arbor codegen`): one dynamic call to the program's own
        // function for the whole tick, its arguments in registers so that it can be a jump
        // before this function sets up its frame. The interpreter pays this one branch.
        if let Some(program) = &self.tree.program {
            return program.tick(&self.tree, &mut self.state, data, Some(dt));
        }
        self.tick_interpreted(data, dt)
    }

    /// [`Agent::tick`] through the interpreter: a function of its own, so that neither
    /// engine's path sets up the other's frame.
    #[inline(never)]
    fn tick_interpreted(&mut self, data: &mut C, dt: f64) -> Status {
        self.advance(dt);
        self.interpret(data, untraced())
    }

    /// As [`Agent::tick`], reporting every lifecycle event to `observer`.
    pub fn tick_traced<O: Observer + ?Sized>(
        &mut self,
        data: &mut C,
        dt: f64,
        observer: &mut O,
    ) -> Status {
        self.advance(dt);
        self.run_traced(data, observer)
    }

    /// When this agent next needs a tick, read from its running nodes after a tick
    /// (rule 82): `None` when its next tick may change something, else a time (or none)
    /// before which, as long as its inputs do not change, every tick would be idle. A
    /// [`crate::Population`] (or a host's own [`crate::Pacing`]) uses it to leave the agent
    /// unticked.
    pub fn next_wake(&self) -> Option<crate::WakeCondition> {
        crate::wake::next_wake(&self.tree, &self.state)
    }

    /// Sets the clock to `now` for a tick after frames the agent was not ticked in (rules
    /// 84 and 87): `previous` is the time of its previous tick as a host ticking it at each
    /// due frame would have made it, from which [`crate::ActionCtx::dt`] counts. Then tick
    /// the root with [`Agent::run`].
    pub fn catch_up(&mut self, now: f64, previous: f64) {
        self.set_clock(now);
        self.state.host.ticked_at = previous;
    }

    /// Sets the clock (values whose ttl ran out expire), leaving the previous tick's time.
    pub(crate) fn set_clock(&mut self, now: f64) {
        self.state.bb.set_now(now);
    }

    /// Moves the clock forward by `dt` seconds (rule 2, step 1).
    pub fn advance(&mut self, dt: f64) {
        let now = self.state.bb.now() + dt;
        self.state.bb.set_now(now);
    }

    /// Ticks the root once at the current time (rule 2, step 4).
    pub fn run(&mut self, data: &mut C) -> Status {
        #[cfg(feature = "tracing")]
        if crate::tracing_events::wanted() {
            return self.run_logged(data);
        }
        if self.mode == TickMode::RetickAfterYield {
            return self.retick_after_yield(|a| a.run_once(data));
        }
        self.run_once(data)
    }

    /// One root tick at the current time, whatever the [`TickMode`].
    #[inline(always)]
    fn run_once(&mut self, data: &mut C) -> Status {
        // As in `tick`.
        if let Some(program) = &self.tree.program {
            return program.tick(&self.tree, &mut self.state, data, None);
        }
        self.run_interpreted(data)
    }

    /// [`Agent::run`] through the interpreter, as [`Agent::tick_interpreted`].
    #[inline(never)]
    fn run_interpreted(&mut self, data: &mut C) -> Status {
        self.interpret(data, untraced())
    }

    /// One root tick through the interpreter.
    #[inline(always)]
    fn interpret<O: Observer + ?Sized>(&mut self, data: &mut C, observer: &mut O) -> Status {
        self.state.begin_run();
        let tree = &*self.tree;
        let (nodes, mut cx) = split(&mut self.state, data);
        Exec::new(tree, nodes, &mut cx, observer).tick_root(&tree.root)
    }

    /// As [`Agent::run`], reporting every lifecycle event to `observer`.
    pub fn run_traced<O: Observer + ?Sized>(&mut self, data: &mut C, observer: &mut O) -> Status {
        if self.mode == TickMode::RetickAfterYield {
            return self.retick_after_yield(|a| a.run_traced_once(data, observer));
        }
        self.run_traced_once(data, observer)
    }

    /// One traced root tick at the current time, whatever the [`TickMode`].
    fn run_traced_once<O: Observer + ?Sized>(&mut self, data: &mut C, observer: &mut O) -> Status {
        let Some(program) = &self.tree.program else {
            return self.interpret(data, observer);
        };
        self.state.begin_run();
        let mut forward = Forward(observer);
        let observer: &mut dyn Observer = &mut forward;
        let (nodes, mut cx) = split(&mut self.state, data);
        let mut exec = Exec::new(&self.tree, nodes, &mut cx, observer);
        exec.gen = Some(program.loops_traced());
        program.tick_traced(&mut Run(exec))
    }

    /// Aborts whatever is running (rule 28), leaving the blackboard, clock and persistent
    /// counters as they are.
    pub fn halt<O: Observer + ?Sized>(&mut self, data: &mut C, observer: &mut O) {
        let (nodes, mut cx) = split(&mut self.state, data);
        Exec::new(&self.tree, nodes, &mut cx, observer).abort(0);
    }

    /// Switches to another compiled tree (hot reload), keeping the state of every node
    /// whose place and shape are unchanged (rules 94 to 97), as
    /// [`Agent::restore_edited`] does with a snapshot: a running node whose branch is
    /// unchanged goes on running. Nodes whose run cannot go on are first aborted in the
    /// old tree (rule 28), so running host actions get their `abort` and `exit` calls with
    /// the program's `data` and their own state. The clock, the RNG, the tick count, the
    /// tick mode, triggers and events by name and every blackboard value whose key has
    /// the same name and type in the new tree survive. Returns what was kept and dropped.
    pub fn reload(&mut self, data: &mut C, tree: Arc<CompiledTree<C>>) -> RestoreReport {
        let mut snapshot = self.snapshot();
        let mut fresh = Agent::new(tree.clone(), 0);
        let first = crate::snapshot::apply_edited(&tree, &snapshot, &mut fresh.state, false);
        let mut ended_report = None;
        let applied = match first {
            Ok(applied) if applied.ended.is_empty() => Ok(applied),
            // Some runs end: end them in the old tree, with its code and state, then match
            // what is left. A state the old tree made always fits, so an error here is a
            // host state whose `load` refused what its `save` wrote: end every run.
            first => {
                let (ended, mut report) = match first {
                    Ok(applied) => (applied.ended, applied.report),
                    Err(_) => (vec![0], RestoreReport::default()),
                };
                let before: Vec<bool> = self.state.nodes.slots.iter().map(|s| s.running).collect();
                {
                    let (nodes, mut cx) = split(&mut self.state, data);
                    let mut exec = Exec::new(&self.tree, nodes, &mut cx, untraced());
                    for i in ended {
                        exec.abort(i);
                    }
                }
                let dropped: std::collections::HashSet<&str> = report
                    .dropped
                    .iter()
                    .map(|d| d.node.guid.as_str())
                    .collect();
                let restarted: Vec<NodeRef> = before
                    .iter()
                    .enumerate()
                    .filter(|&(i, &was)| was && !self.state.nodes.slots[i].running)
                    .map(|(i, _)| &self.tree.info[i])
                    .filter(|info| !dropped.contains(info.guid.as_str()))
                    .map(|info| NodeRef {
                        guid: info.guid.clone(),
                        name: info.name.clone(),
                    })
                    .collect();
                report.restarted = restarted;
                ended_report = Some(report);
                snapshot = self.snapshot();
                fresh = Agent::new(tree, 0);
                crate::snapshot::apply_edited(&fresh.tree, &snapshot, &mut fresh.state, false)
            }
        };
        let mut report = match applied {
            Ok(applied) => {
                let mut report = applied.report;
                fresh.finish_restore(&applied.abort, data, &mut report);
                report
            }
            Err(_) => {
                // As above: a host state refused its own save. Start the nodes afresh,
                // keeping what rule 97 keeps.
                fresh = Agent::new(fresh.tree.clone(), 0);
                snapshot.nodes.clear();
                snapshot.host_owners.clear();
                let mut report = RestoreReport::default();
                if let Ok(applied) =
                    crate::snapshot::apply_edited(&fresh.tree, &snapshot, &mut fresh.state, false)
                {
                    report = applied.report;
                    fresh.finish_restore(&applied.abort, data, &mut report);
                }
                report
            }
        };
        if let Some(first) = ended_report {
            report.dropped = first.dropped;
            report.restarted.splice(0..0, first.restarted);
        }
        report.dropped_keys.sort();
        fresh.mode = self.mode;
        #[cfg(feature = "tracing")]
        {
            fresh.trace_id = self.trace_id;
        }
        *self = fresh;
        report
    }

    /// An agent of `tree`, a later version of the tree `snapshot` was taken of, in the
    /// saved state matched node by node (rules 94 to 97): a node keeps its state when the
    /// new tree has a node at its place (its GUID, under the same Subtree nodes) with the
    /// same shape (type, mode parameters, children, attached decorators) and, if it was
    /// running, under a parent that keeps running. Runs that cannot go on restart through
    /// their abort and exit calls, made with `data`. Blackboard values, triggers and
    /// events are kept by name. Returns the agent and a report of what was kept and
    /// dropped. A snapshot of a tree with another GUID, or one that is corrupt, is an
    /// error and no agent (rule 93).
    pub fn restore_edited(
        tree: Arc<CompiledTree<C>>,
        snapshot: &Snapshot,
        data: &mut C,
    ) -> Result<(Agent<C>, RestoreReport), SnapshotError> {
        let mut agent = Agent::new(tree, 0);
        let applied = crate::snapshot::apply_edited(&agent.tree, snapshot, &mut agent.state, true)?;
        let mut report = applied.report;
        agent.finish_restore(&applied.abort, data, &mut report);
        Ok((agent, report))
    }

    /// Aborts `nodes` (rules 92 and 96) and lists in `report` the runs that ended.
    fn finish_restore(&mut self, nodes: &[u32], data: &mut C, report: &mut RestoreReport) {
        if nodes.is_empty() {
            return;
        }
        let before: Vec<bool> = self.state.nodes.slots.iter().map(|s| s.running).collect();
        {
            let (st, mut cx) = split(&mut self.state, data);
            let mut exec = Exec::new(&self.tree, st, &mut cx, untraced());
            for &i in nodes {
                exec.abort(i);
            }
        }
        for (i, was) in before.into_iter().enumerate() {
            if was && !self.state.nodes.slots[i].running {
                report.restarted.push(NodeRef {
                    guid: self.tree.info[i].guid.clone(),
                    name: self.tree.info[i].name.clone(),
                });
            }
        }
    }

    /// The agent's whole state, to save and later [`Agent::restore`] (rules 90 to 93).
    /// Take it between ticks.
    pub fn snapshot(&self) -> Snapshot {
        crate::snapshot::capture(&self.tree, &self.state)
    }

    /// An agent of `tree` in the state `snapshot` holds: ticked with the same inputs, it
    /// does exactly what the saved agent would have done (rule 90). The snapshot must be
    /// of this tree (its GUID and structure, rule 91); any problem is an error and no
    /// agent is made. Stateful host nodes and controls whose state did not opt in to
    /// snapshots ([`crate::Registry::register_stateful_saved`]) and were running are
    /// restarted here (rule 92): their `abort` and `exit` run with `data` and a fresh
    /// state, and their parent ticks them anew.
    pub fn restore(
        tree: Arc<CompiledTree<C>>,
        snapshot: &Snapshot,
        data: &mut C,
    ) -> Result<Agent<C>, SnapshotError> {
        let mut agent = Agent::new(tree, 0);
        let restart = crate::snapshot::apply(&agent.tree, snapshot, &mut agent.state)?;
        if !restart.is_empty() {
            agent.restart(&restart, data);
        }
        Ok(agent)
    }

    /// Aborts the running nodes that own the host states `states` (rule 92).
    fn restart(&mut self, states: &[u32], data: &mut C) {
        let owners: Vec<u32> = (0..self.tree.nodes.len() as u32)
            .filter(|&i| match self.tree.nodes[i as usize].kind {
                Kind::Host { state, .. } | Kind::Control { state, .. } => {
                    states.contains(&state) && self.state.nodes.slots[i as usize].running
                }
                _ => false,
            })
            .collect();
        self.finish_restore(&owners, data, &mut RestoreReport::default());
    }

    /// The agent's clock, in seconds.
    pub fn now(&self) -> f64 {
        self.state.bb.now()
    }

    /// How many times the root has been ticked.
    pub fn ticks(&self) -> u64 {
        self.state.nodes.run
    }

    /// This agent's blackboard (read keys by [`crate::Key`]: `get_f64`, `get_bool`, …).
    pub fn blackboard(&self) -> &Blackboard {
        &self.state.bb
    }

    /// This agent's blackboard, to write inputs between ticks (rule 2: after `advance`, before `run`).
    pub fn blackboard_mut(&mut self) -> &mut Blackboard {
        &mut self.state.bb
    }

    /// Raises an event for the next root tick (rule 31). Returns false if no node of the
    /// tree checks or sends an event of that name (it would have no effect).
    pub fn raise_event(&mut self, name: &str) -> bool {
        match self.tree.events.iter().position(|e| e == name) {
            Some(i) => {
                self.state.nodes.events[i].external = Some(self.state.nodes.run + 1);
                true
            }
            None => false,
        }
    }

    /// Sets a trigger (rule 32). Returns false if the tree uses no trigger of that name.
    pub fn set_trigger(&mut self, name: &str) -> bool {
        match self.tree.triggers.iter().position(|t| t == name) {
            Some(i) => {
                self.state.nodes.triggers[i] = true;
                true
            }
            None => false,
        }
    }

    /// The names of the triggers currently set.
    pub fn triggers_set(&self) -> impl Iterator<Item = &str> {
        self.tree
            .triggers
            .iter()
            .zip(&self.state.nodes.triggers)
            .filter(|(_, set)| **set)
            .map(|(name, _)| name.as_str())
    }

    /// Whether a node is in the middle of an execution.
    pub fn is_running(&self, node: NodeId) -> bool {
        self.state
            .nodes
            .slots
            .get(node.index())
            .is_some_and(|s| s.running)
    }
}

impl<C> Clone for Agent<C> {
    fn clone(&self) -> Self {
        Agent {
            tree: self.tree.clone(),
            state: self.state.clone(),
            mode: self.mode,
            #[cfg(feature = "tracing")]
            trace_id: self.trace_id,
        }
    }
}

/// Bytes of state an agent keeps for a tree of this shape (see `CompiledTree::state_size`).
pub(crate) fn state_size(
    nodes: usize,
    keys: usize,
    events: usize,
    triggers: usize,
    timers: usize,
) -> usize {
    std::mem::size_of::<Agent<()>>()
        + nodes * std::mem::size_of::<Slot>()
        + keys * crate::blackboard::ENTRY_SIZE
        + events * std::mem::size_of::<EventSlot>()
        + triggers
        + timers * std::mem::size_of::<f64>()
}
