//! The tick engine: the node lifecycle of docs/semantics.md rule 3, the abort procedure of rule 28
//! and the evaluation of attached condition decorators (rules 21–23, 30–32).
//!
//! `Exec` borrows one agent's state for one root tick. Node kinds' bodies live in
//! `crate::nodes::*` and call back into `tick` and `abort` for their children.
//! Ticking recurses once per tree level; the loader's depth limit bounds the stack.

mod entry;
mod state;
mod unchecked;

use entry::Step;
pub(crate) use entry::{assert_in_bounds, entries, entry_of, shape_of, Entry, Shape};
pub use state::State;
pub(crate) use state::{EventSlot, Host, Nodes, Promise, Slot};
pub(crate) use unchecked::{HeldAction, Slots};

use crate::control::{ControlCtx, Engine};
use crate::host::{Action, ActionCtx, Site};
use crate::nodes::attached::{self, DecoratorKind, Reset};
use crate::nodes::{action, control, decorator, Kind};
use crate::program::{Loops, Reentry};
use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};
use crate::tree::{CompiledTree, Node};

/// A Repeat or Retry runs its child at most this many times in one tick (the first run and
/// the restarts together); if the loop would go on, it returns `running`, keeps its count
/// and goes on in the next tick. This is Arbor's answer to rule 36's unbounded loop whose
/// child completes synchronously forever: the tick always ends.
pub const MAX_LOOPS_PER_TICK: u32 = 1000;

/// All the Repeats and Retries of one tick together restart their children at most this
/// many times (rule 81): loops nested in loops multiply, so [`MAX_LOOPS_PER_TICK`] alone
/// bounds each loop but not the tick. A loop that would restart its child once the budget
/// is spent returns `running`, keeps its count and goes on in the next tick, as one that
/// reached its own cap. Ten loops at their own cap fit in one tick.
pub const LOOP_BUDGET_PER_TICK: u32 = 10_000;

/// The state index of a host node that keeps no state.
pub(crate) const NO_STATE: u32 = u32::MAX;

/// Which condition decorators a check evaluates.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    /// All of them: the node is idle (rule 3, step 1).
    Entry,
    /// Those whose abort includes Self: the node is running (rule 23, rule 30).
    SelfAbort,
    /// Those whose abort includes LowerPriority: a later sibling is running (rule 25).
    LowerPriority,
}

pub(crate) struct Exec<'a, 'c, C, O: ?Sized> {
    pub tree: &'a CompiledTree<C>,
    /// Slots, events, triggers, timers and the run number.
    pub st: &'a mut Nodes,
    /// The one context every host action of this tick is called with: built once per
    /// tick ([`split`]), with only its site set per call. Built-in nodes read and write the
    /// blackboard (`cx.blackboard`) and draw from the RNG (`cx.host.rng`) through it too.
    /// Borrowed, not held: it is the only part of a tick whose address a host action
    /// sees, and kept apart, the rest of the `Exec` can live in registers when nothing
    /// else takes its address (a generated tick of plain loops and leaves).
    pub cx: &'a mut ActionCtx<'c, C>,
    pub obs: &'a mut O,
    /// The emitted nodes of a tree compiled to Rust, when its program runs this tick: a
    /// plain loop the interpreter reaches below a node it ticks (a Repeat's Sequence) is
    /// handed back to the program (`program::Loops`).
    pub gen: Option<&'a dyn Loops<C, O>>,
    /// Restarts of loop children so far in this tick, against [`LOOP_BUDGET_PER_TICK`]
    /// (rule 81). Here, in the one `Exec` of a tick, so that generated code, which ticks
    /// Repeats and Retries through this `Exec`, shares it with the interpreter.
    restarts: u32,
}

/// One agent's state for one tick (or one halt): the tick's action context over the
/// program's `data`, and the rest, for [`Exec::new`].
#[inline(always)]
pub(crate) fn split<'c, C>(
    st: &'c mut State,
    data: &'c mut C,
) -> (&'c mut Nodes, ActionCtx<'c, C>) {
    let cx = ActionCtx {
        agent: data,
        blackboard: &mut st.bb,
        // Set before every call that lends the context (`host_at`, `action_ctx`), so it
        // is never read; all ones, it is one store.
        site: Site {
            node: NodeId(u32::MAX),
            state: NO_STATE,
        },
        host: &mut st.host,
    };
    (&mut st.nodes, cx)
}

impl<'a, 'c, C, O: Observer + ?Sized> Exec<'a, 'c, C, O> {
    /// One tick (or halt) over an agent's node state and action context ([`split`]).
    #[inline(always)]
    pub fn new(
        tree: &'a CompiledTree<C>,
        st: &'a mut Nodes,
        cx: &'a mut ActionCtx<'c, C>,
        obs: &'a mut O,
    ) -> Self {
        // Invariant 1 of `unchecked`, which `Agent` guarantees by construction: checked in
        // debug builds only (the whole test suite), so that a tick does not pay for it.
        if cfg!(debug_assertions) && st.slots.len() != tree.nodes.len() {
            unchecked::mismatch(st.slots.len(), tree.nodes.len());
        }
        Exec {
            tree,
            st,
            cx,
            obs,
            gen: None,
            restarts: 0,
        }
    }

    /// Ticks node `i` through its whole lifecycle (rule 3) and returns what its parent sees.
    ///
    /// Inlined into the composites' loops: a host leaf without attached decorators, the
    /// commonest node, takes [`Exec::tick_host`] without a call; every other node takes the
    /// out-of-line [`Exec::tick_node`].
    #[inline(always)]
    pub fn tick(&mut self, i: u32) -> Status {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        match node.kind {
            Kind::Host { action, state } if node.decorator_count == 0 => {
                self.tick_host(i, &*tree.actions[action as usize], state, node.hooks)
            }
            _ => self.tick_node(i, node),
        }
    }

    /// Ticks the child that `e` describes; the same as [`Exec::tick`] of its node.
    /// Inlined into the composites' loops: a decorator-free host leaf runs here without a
    /// call, a plain Sequence or Selector takes [`Exec::tick_loop`] without reading its
    /// node, and anything else the out-of-line [`Exec::tick_node`].
    #[inline(always)]
    pub fn tick_entry(&mut self, e: &'a Entry<C>) -> Status {
        match &e.step {
            Step::Leaf {
                action,
                state,
                hooks,
            } => self.tick_host(e.node, &**action, *state, *hooks),
            Step::Loop { seq, first, end } => self.tick_loop(e.node, *seq, *first, *end),
            Step::Node => {
                let tree = self.tree;
                self.tick_node(e.node, &tree.nodes[e.node as usize])
            }
        }
    }

    /// [`Exec::tick_full`] for a host leaf without decorators, in one pass: no decorator to
    /// check or run, no children to clear, one `ActionCtx` for enter, tick and exit. The
    /// order of trace events and action calls is the general path's. A host leaf's slot
    /// only needs `running`: its cursor and start time are never read. Nothing the action
    /// or the observer can reach reads the flag, so it is stored once, after the call.
    /// Without `hooks` the action's `enter` and `exit` are the trait's empty defaults and
    /// are not called.
    #[inline(always)]
    pub(crate) fn tick_host(
        &mut self,
        i: u32,
        action: &dyn Action<C>,
        state: u32,
        hooks: bool,
    ) -> Status {
        let slot = unchecked::slot(&mut self.st.slots, i);
        let site = Site {
            node: NodeId(i),
            state,
        };
        host_at(self.cx, &mut *self.obs, slot, site, action, hooks)
    }

    /// A plain Sequence (`seq`) or Selector ([`Step::Loop`]): the lifecycle of
    /// [`Exec::tick_node`] and the loop of `control::sequence::tick` /
    /// `control::selector::tick` in one function. Its slot is read once, before the loop,
    /// and written once, after it (its children cannot read it: only an ancestor aborts
    /// it): `loop_start_at`, `loop_finish_at`.
    #[inline(never)]
    fn tick_loop(&mut self, i: u32, seq: bool, first: u32, end: u32) -> Status {
        if let Some(status) = self.generated_loop(i) {
            return status;
        }
        self.loop_body::<false>(i, seq, first, end)
    }

    /// Node `i` ticked by generated code, if this tick runs a tree compiled to Rust and
    /// `i` is one of its plain loops (both engines share the loop's lifecycle code, so
    /// this changes no semantics, only which code walks the children).
    #[inline(always)]
    fn generated_loop(&mut self, i: u32) -> Option<Status> {
        let gen = self.gen?;
        gen.tick_loop(&mut Reentry(self), i)
    }

    /// Ticks the root, as [`Exec::tick_entry`] does, with a plain Sequence's or
    /// Selector's loop, and those of its children that are plain loops too, inlined here:
    /// the two top levels of the commonest trees cost no call.
    #[inline(always)]
    pub fn tick_root(&mut self, e: &'a Entry<C>) -> Status {
        match e.step {
            Step::Loop { seq, first, end } => self.loop_body::<true>(e.node, seq, first, end),
            _ => self.tick_entry(e),
        }
    }

    /// The body of [`Exec::tick_loop`]; with `INLINE`, a child that is a plain loop has its
    /// body inlined here too (one level: that body calls [`Exec::tick_loop`]).
    #[inline(always)]
    fn loop_body<const INLINE: bool>(&mut self, i: u32, seq: bool, first: u32, end: u32) -> Status {
        let slot = unchecked::slot(&mut self.st.slots, i);
        let current = loop_start_at(&mut *self.obs, slot, i);
        let next = loop_next(seq);
        let entries = unchecked::children(&self.tree.entries, first, end);
        // All children giving `next` gives `next`; no children at all is success (rule 12).
        let mut k = current as usize;
        let status = loop {
            let Some(e) = entries.get(k) else {
                break if entries.is_empty() {
                    Status::Success
                } else {
                    next
                };
            };
            let child = match e.step {
                Step::Loop { seq, first, end } if INLINE => {
                    self.loop_body::<false>(e.node, seq, first, end)
                }
                _ => self.tick_entry(e),
            };
            if child != next {
                break child;
            }
            k += 1;
        };
        let slot = unchecked::slot(&mut self.st.slots, i);
        loop_finish_at(&mut *self.obs, slot, i, k, status)
    }

    /// A node that is not a decorator-free host leaf. Without attached decorators there is
    /// nothing to check, no trigger to reset and no post-decorator, so a built-in node only
    /// marks its slot, runs its body and clears its slot; others take [`Exec::tick_full`].
    #[inline(never)]
    pub(crate) fn tick_node(&mut self, i: u32, node: &'a Node) -> Status {
        if !node.plain {
            return self.tick_full(i);
        }
        // Only a Sequence or Selector can be a program's node (`program::Loops`): other
        // nodes skip the program's call.
        if self.gen.is_some() && is_walk(node) {
            if let Some(status) = self.generated_loop(i) {
                return status;
            }
        }
        let slot = &mut self.st.slots[i as usize];
        if !slot.running {
            slot.running = true;
            slot.cursor = 0;
            self.obs.event(TraceEvent::Enter(NodeId(i)));
        }
        let cursor = slot.cursor;
        let status = self.body(i, node, cursor);
        self.obs.event(TraceEvent::Tick(NodeId(i), status));
        if status.is_done() {
            self.clear(i, node);
            self.obs.event(TraceEvent::Exit(NodeId(i), Some(status)));
        }
        status
    }

    /// The whole lifecycle of rule 3: entry checks, enter, body, exit and post-decorators.
    #[inline(never)]
    fn tick_full(&mut self, i: u32) -> Status {
        // As in `tick_node`: a decorated Sequence or Selector may be a program's node.
        if self.gen.is_some() && is_walk(&self.tree.nodes[i as usize]) {
            if let Some(status) = self.generated_loop(i) {
                return status;
            }
        }
        let cursor = match self.start_full(i) {
            Ok(cursor) => cursor,
            Err(status) => return status,
        };
        let tree = self.tree;
        let status = self.body(i, &tree.nodes[i as usize], cursor);
        self.finish_full(i, status)
    }

    /// The general lifecycle of node `i` up to its body (rule 3): entry checks and enter
    /// when idle, the Self-abort checks and `While` while running. `Ok` with the cursor
    /// the body resumes at, or `Err` with the node's status when it ends before its body
    /// runs. Shared with generated code, which emits the body of a decorated Sequence or
    /// Selector between this and [`Exec::finish_full`].
    #[inline(always)]
    pub(crate) fn start_full(&mut self, i: u32) -> Result<u32, Status> {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        if !self.st.slots[i as usize].running {
            if node.decorator_count > 0 && !self.check(i, Phase::Entry) {
                return Err(Status::Failure);
            }
            if let Some(status) = attached::script::before_start(self, i) {
                return Err(status);
            }
            self.enter(i);
        } else if node.self_abort && !self.check(i, Phase::SelfAbort) {
            self.abort(i);
            return Err(Status::Failure);
        } else if let Some(status) = attached::script::while_running(self, i) {
            return Err(status);
        }
        Ok(self.st.slots[i as usize].cursor)
    }

    /// The general lifecycle of node `i` after its body gave `status`: the Tick event,
    /// then exit and post-decorators if it is done ([`Exec::start_full`]).
    #[inline(always)]
    pub(crate) fn finish_full(&mut self, i: u32, status: Status) -> Status {
        self.obs.event(TraceEvent::Tick(NodeId(i), status));
        if status.is_done() {
            self.exit(i, status)
        } else {
            Status::Running
        }
    }

    /// Aborts node `i` if it is running (rule 28): abort event, running children aborted in
    /// order (abort events parent first), exit event (exits child first), state cleared,
    /// abort decorators bottom to top. Post-decorators do not run.
    pub fn abort(&mut self, i: u32) {
        if !self.st.slots[i as usize].running {
            return;
        }
        self.obs.event(TraceEvent::Abort(NodeId(i)));
        let tree = self.tree;
        for &child in tree.child_indices(i) {
            self.abort(child);
        }
        let node = &tree.nodes[i as usize];
        match node.kind {
            Kind::Host { action, state } if node.hooks => {
                let action = &tree.actions[action as usize];
                let cx = self.action_ctx(i, state);
                action.abort(cx);
                action.exit(cx, Status::Failure);
            }
            Kind::Control { control, state } => {
                // Rule 74: the children were aborted above; then `abort`, then `exit`.
                let control = &tree.controls[control as usize];
                let mut cx = ControlCtx::new(self, i, false);
                control.abort(&mut cx, state);
                control.exit(&mut cx, state, Status::Failure);
            }
            _ => {}
        }
        self.obs.event(TraceEvent::Exit(NodeId(i), None));
        self.clear(i, &tree.nodes[i as usize]);
        for d in tree.decorators_of(i).iter().rev() {
            if let DecoratorKind::CheckTrigger {
                trigger,
                reset: Reset::LeaveNode,
            } = d.kind
            {
                self.st.triggers[trigger as usize] = false;
            }
            if let DecoratorKind::Script {
                role: attached::script::Role::OnHalted,
                program,
            } = &d.kind
            {
                // Rule 59: as BT.CPP's `_onHalted`; a key without a value stops it.
                let _ = action::script::run(&mut *self.cx.blackboard, &mut *self.obs, i, program);
            }
        }
    }

    /// Takes one restart of a loop's child from the tick's budget (rule 81): `false`, and
    /// nothing taken, once [`LOOP_BUDGET_PER_TICK`] restarts were made in this tick.
    #[inline]
    pub fn take_restart(&mut self) -> bool {
        if self.restarts >= LOOP_BUDGET_PER_TICK {
            return false;
        }
        self.restarts += 1;
        true
    }

    /// Marks that a yielding node ended a run in this tick: BT.CPP's wake-up signal, which
    /// [`crate::TickMode::RetickAfterYield`] answers with another root tick (rule 85).
    #[inline]
    pub fn wake_up(&mut self) {
        self.st.woken = true;
    }

    pub fn is_running(&self, i: u32) -> bool {
        self.st.slots[i as usize].running
    }

    #[inline]
    pub fn slot(&mut self, i: u32) -> &mut Slot {
        &mut self.st.slots[i as usize]
    }

    /// Rule 25: evaluates only child `i`'s LowerPriority/Both condition decorators.
    pub fn lower_priority_holds(&mut self, i: u32) -> bool {
        self.check(i, Phase::LowerPriority)
    }

    fn enter(&mut self, i: u32) {
        let tree = self.tree;
        for d in tree.decorators_of(i) {
            if let DecoratorKind::CheckTrigger {
                trigger,
                reset: Reset::EnterNode,
            } = d.kind
            {
                self.st.triggers[trigger as usize] = false;
            }
        }
        let slot = &mut self.st.slots[i as usize];
        slot.running = true;
        slot.cursor = 0;
        self.obs.event(TraceEvent::Enter(NodeId(i)));
        let node = &tree.nodes[i as usize];
        match node.kind {
            Kind::Host { action, state } if node.hooks => {
                tree.actions[action as usize].enter(self.action_ctx(i, state));
            }
            Kind::Control { control, state } => {
                let mut cx = ControlCtx::new(self, i, false);
                tree.controls[control as usize].enter(&mut cx, state);
            }
            _ => {}
        }
    }

    /// Completion (rule 3, step 4): the node becomes idle, then post-decorators run bottom to
    /// top and may change the status. The exit event carries the final status.
    fn exit(&mut self, i: u32, status: Status) -> Status {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        self.clear(i, node);
        match node.kind {
            Kind::Host { action, state } if node.hooks => {
                tree.actions[action as usize].exit(self.action_ctx(i, state), status);
            }
            Kind::Control { control, state } => {
                let mut cx = ControlCtx::new(self, i, false);
                tree.controls[control as usize].exit(&mut cx, state, status);
            }
            _ => {}
        }
        let mut status = status;
        for d in tree.decorators_of(i).iter().rev() {
            match d.kind {
                DecoratorKind::Inverter => status = status.inverted(),
                DecoratorKind::Script { role, ref program } => attached::script::after(
                    &mut *self.cx.blackboard,
                    &mut *self.obs,
                    i,
                    role,
                    program,
                    status,
                ),
                DecoratorKind::CheckTrigger {
                    trigger,
                    reset: Reset::LeaveNode,
                } => self.st.triggers[trigger as usize] = false,
                _ => {}
            }
        }
        self.obs.event(TraceEvent::Exit(NodeId(i), Some(status)));
        status
    }

    /// Makes the node idle and clears its per-execution state (rule 4, rule 28 step 4).
    /// Persistent counters (Scripted cursor, Limiter count) are kept.
    #[inline(always)]
    fn clear(&mut self, i: u32, node: &Node) {
        let slot = &mut self.st.slots[i as usize];
        slot.running = false;
        slot.cursor = 0;
        if let Kind::Parallel { .. } | Kind::ParallelAll { .. } = node.kind {
            for &child in self.tree.child_indices(i) {
                self.st.slots[child as usize].parallel_done = false;
            }
        }
    }

    /// Evaluates node `i`'s condition decorators of `phase`, top to bottom, stopping at the
    /// first false one (rule 21). Results are never cached (rule 22).
    fn check(&mut self, i: u32, phase: Phase) -> bool {
        let tree = self.tree;
        for (k, d) in tree.decorators_of(i).iter().enumerate() {
            let wanted = match phase {
                Phase::Entry => d.is_condition(),
                Phase::SelfAbort => d.is_condition() && d.abort.includes_self(),
                Phase::LowerPriority => d.is_condition() && d.abort.includes_lower_priority(),
            };
            if !wanted {
                continue;
            }
            let passed = self.evaluate(i, k as u32, &d.kind) != d.invert;
            if passed {
                if let DecoratorKind::CheckTrigger {
                    trigger,
                    reset: Reset::Immediate,
                } = d.kind
                {
                    // Rule 32: a successful check consumes an Immediate trigger at once.
                    self.st.triggers[trigger as usize] = false;
                }
            }
            self.obs.event(TraceEvent::Check {
                node: NodeId(i),
                decorator: k as u32,
                passed,
            });
            if !passed {
                return false;
            }
        }
        true
    }

    /// Decorator `k` of node `i`'s raw result, before `invert`.
    fn evaluate(&mut self, i: u32, k: u32, kind: &DecoratorKind) -> bool {
        match kind {
            DecoratorKind::Host {
                action,
                state,
                hooks,
                observes,
            } => {
                // One whole execution of the condition, as when it runs as a leaf: enter,
                // tick, exit. Only success passes (a condition that says running does not).
                let action = &self.tree.actions[*action as usize];
                let cx = self.action_ctx(i, *state);
                if *hooks {
                    action.enter(cx);
                }
                let status = action.tick(cx);
                if *hooks {
                    action.exit(cx, status);
                }
                let passed = status == Status::Success;
                if *observes != attached::NO_OBSERVATION {
                    self.seen(i, k, *observes, passed);
                }
                passed
            }
            _ => kind.evaluate_inputs(self.cx.blackboard, self.st, i),
        }
    }

    /// Records what an observing host condition gave (rule 98), for the agent's next wake.
    #[inline(never)]
    fn seen(&mut self, i: u32, k: u32, observes: u32, passed: bool) {
        let stamp =
            self.tree.observations[observes as usize].stamp(self.cx.blackboard, &self.st.triggers);
        self.cx.host.sleeps.push(Promise::Seen {
            node: i,
            decorator: k,
            passed,
            stamp,
        });
    }

    /// Runs node `i`'s body; `cursor` is its slot's, read by the caller that already holds
    /// the slot (a Sequence's or Selector's current child).
    #[inline(always)]
    fn body(&mut self, i: u32, node: &'a Node, cursor: u32) -> Status {
        let tree = self.tree;
        match &node.kind {
            Kind::Sequence {
                dynamic,
                memory,
                yields,
            } => control::sequence::tick(self, i, node, cursor, *dynamic, *memory, *yields),
            Kind::Selector { dynamic, yields } => {
                control::selector::tick(self, i, node, cursor, *dynamic, *yields)
            }
            Kind::Parallel { need, failures } => match failures {
                None => control::parallel::tick(self, i, *need),
                Some(f) => control::parallel::tick_counting(self, i, *need, *f),
            },
            Kind::ParallelAll { max_failures } => {
                control::parallel_all::tick(self, i, *max_failures)
            }
            Kind::IfThenElse => control::if_then_else::tick(self, i),
            Kind::WhileDoElse => control::while_do_else::tick(self, i),
            Kind::Switch { variable, cases } => control::switch::tick(self, i, *variable, cases),
            Kind::Inverter => decorator::inverter::tick(self, i),
            Kind::Succeeder => decorator::succeeder::tick(self, i),
            Kind::ForceFailure => decorator::force_failure::tick(self, i),
            Kind::Repeat { count, yields } => decorator::repeat::tick(self, i, count, *yields),
            Kind::Retry { attempts, yields } => decorator::retry::tick(self, i, attempts, *yields),
            Kind::Limiter { max } => decorator::limiter::tick(self, i, *max),
            Kind::Timeout { seconds } => decorator::timeout::tick(self, i, seconds),
            Kind::KeepRunningUntilFailure => decorator::keep_running_until_failure::tick(self, i),
            Kind::Delay { seconds } => decorator::delay::tick(self, i, seconds),
            Kind::RunOnce { then_skip } => decorator::run_once::tick(self, i, *then_skip),
            Kind::Loop {
                queue,
                value,
                if_empty,
            } => decorator::loop_queue::tick(self, i, queue, *value, *if_empty),
            Kind::IfUpdated { key, otherwise } => {
                decorator::if_updated::tick(self, i, *key, *otherwise)
            }
            Kind::Subtree => decorator::subtree::tick(self, i),
            Kind::Wait { seconds } => action::wait::tick(self, i, seconds),
            Kind::Scripted { returns } => action::scripted::tick(self, i, returns),
            Kind::Condition { key, equals } => action::condition::tick(self, *key, equals),
            Kind::Increment { key, by } => action::increment::tick(self, *key, by),
            Kind::SetBlackboard { key, value, ttl } => {
                action::set_blackboard::tick(self, *key, value, *ttl)
            }
            Kind::SendEvent { event } => action::send_event::tick(self, i, *event),
            Kind::SetTrigger { trigger } => action::set_trigger::tick(self, *trigger),
            Kind::Log { message } => action::log::tick(self, i, message),
            Kind::WasUpdated { key } => action::was_updated::tick(self, i, *key),
            Kind::UnsetBlackboard { key } => action::unset_blackboard::tick(self, *key),
            Kind::Random { probability } => action::random::tick(self, probability),
            Kind::Script { program, condition } => {
                action::script::tick(self, i, program, *condition)
            }
            Kind::Host { action, state } => {
                let action = &tree.actions[*action as usize];
                action.tick(self.action_ctx(i, *state))
            }
            Kind::Control { control, state } => self.tick_control(i, *control, *state),
        }
    }

    /// The body of a control node (rules 73 and 74): its `tick`, then, if it completed,
    /// every child it left running aborted in child order, as a completing Parallel's
    /// (rule 14), so that no child outlives its parent's execution.
    #[inline(never)]
    fn tick_control(&mut self, i: u32, control: u32, state: u32) -> Status {
        let tree = self.tree;
        let mut cx = ControlCtx::new(self, i, true);
        let status = tree.controls[control as usize].tick(&mut cx, state);
        if status.is_done() {
            for &child in tree.child_indices(i) {
                self.abort(child);
            }
        }
        status
    }

    /// The tick's action context, set for node `i` with host state `state`.
    #[inline(always)]
    fn action_ctx(&mut self, i: u32, state: u32) -> &mut ActionCtx<'c, C> {
        let cx = &mut *self.cx;
        cx.site = Site {
            node: NodeId(i),
            state,
        };
        cx
    }
}

/// What a control's context reaches (`control::ControlCtx`): this tick's engine, with
/// children addressed by their place under the control node.
impl<C, O: Observer + ?Sized> Engine<C> for Exec<'_, '_, C, O> {
    fn tick_child(&mut self, node: u32, k: usize) -> Option<Status> {
        let child = *self.tree.child_indices(node).get(k)?;
        Some(self.tick(child))
    }

    fn abort_child(&mut self, node: u32, k: usize) {
        if let Some(&child) = self.tree.child_indices(node).get(k) {
            self.abort(child);
        }
    }

    fn child_count(&self, node: u32) -> usize {
        self.tree.nodes[node as usize].child_count as usize
    }

    fn child_running(&self, node: u32, k: usize) -> bool {
        self.tree
            .child_indices(node)
            .get(k)
            .is_some_and(|&child| self.is_running(child))
    }

    fn blackboard(&self) -> &crate::blackboard::Blackboard {
        self.cx.blackboard
    }

    fn blackboard_mut(&mut self) -> &mut crate::blackboard::Blackboard {
        self.cx.blackboard
    }

    fn data(&mut self) -> &mut C {
        self.cx.agent
    }

    fn host(&mut self) -> &mut Host {
        self.cx.host
    }
}

/// The body of [`Exec::tick_host`] for node `i` whose slot the caller holds: it needs only
/// the tick's action context and observer, so generated code (`codegen::support::Fixed`)
/// can hand it a slot it reached without going through the `Exec`.
#[inline(always)]
pub(crate) fn host_at<C, O: Observer + ?Sized>(
    cx: &mut ActionCtx<'_, C>,
    obs: &mut O,
    slot: &mut Slot,
    site: Site,
    action: &dyn Action<C>,
    hooks: bool,
) -> Status {
    let i = site.node.0;
    cx.site = site;
    // `hooks` first: for a hook-free leaf ticked without an observer (the commonest
    // case) the running flag is then never read before the call.
    if hooks {
        if !slot.running {
            obs.event(TraceEvent::Enter(NodeId(i)));
            action.enter(cx);
        }
    } else if !slot.running {
        obs.event(TraceEvent::Enter(NodeId(i)));
    }
    let status = action.tick(cx);
    obs.event(TraceEvent::Tick(NodeId(i), status));
    let done = status.is_done();
    slot.running = !done;
    if done {
        if hooks {
            action.exit(cx, status);
        }
        obs.event(TraceEvent::Exit(NodeId(i), Some(status)));
    }
    status
}

/// The start of a plain loop's tick (rules 3, 10, 11): the child node `i`, whose slot the
/// caller holds, resumes at, after its Enter event when it was idle. An idle loop's
/// cursor is 0 (both ends of an execution, [`loop_finish_at`] and `Exec::clear`, reset
/// it), so the cursor is the answer either way and the running flag is read only for the
/// Enter event: not at all in an untraced tick. Shared by [`Exec::loop_body`] and
/// generated code (`codegen::support`).
#[inline(always)]
pub(crate) fn loop_start_at<O: Observer + ?Sized>(obs: &mut O, slot: &Slot, i: u32) -> u32 {
    debug_assert!(
        slot.running || slot.cursor == 0,
        "idle loop {i} has a cursor"
    );
    if !slot.running {
        obs.event(TraceEvent::Enter(NodeId(i)));
    }
    slot.cursor
}

/// The end of a plain loop's tick, after child `k` gave `status` (or all children ran):
/// Tick event, the slot written (running at `k`, or idle at 0), Exit event when done
/// (rule 12 for the empty loop is the caller's). Two stores whatever the slot held: cheaper
/// than the tests that would skip them. As [`loop_start_at`].
#[inline(always)]
pub(crate) fn loop_finish_at<O: Observer + ?Sized>(
    obs: &mut O,
    slot: &mut Slot,
    i: u32,
    k: usize,
    status: Status,
) -> Status {
    obs.event(TraceEvent::Tick(NodeId(i), status));
    let done = status.is_done();
    slot.running = !done;
    slot.cursor = if done { 0 } else { k as u32 };
    if done {
        obs.event(TraceEvent::Exit(NodeId(i), Some(status)));
    }
    status
}

/// The observer of an untraced tick: a leaked box of `()`, which allocates nothing and is
/// a constant address, so storing it in the `Exec` takes one instruction where a local's
/// address takes two.
#[inline(always)]
pub(crate) fn untraced() -> &'static mut () {
    Box::leak(Box::new(()))
}

/// Whether `node` is a Sequence or Selector: the only kinds whose walk generated code
/// emits, so the only nodes `Exec` offers back to a program (`program::Loops`).
#[inline(always)]
fn is_walk(node: &Node) -> bool {
    matches!(node.kind, Kind::Sequence { .. } | Kind::Selector { .. })
}

/// The status a plain loop goes on with: a Sequence goes on while children succeed, a
/// Selector while they fail. All children giving it gives it.
#[inline(always)]
pub(crate) fn loop_next(seq: bool) -> Status {
    if seq {
        Status::Success
    } else {
        Status::Failure
    }
}

impl<C> CompiledTree<C> {
    /// Children of node `i` as raw indices, borrowed from the tree (not from an `Exec`).
    #[inline]
    pub(crate) fn child_indices(&self, i: u32) -> &[u32] {
        self.children_of(&self.nodes[i as usize])
    }

    /// The entries of `n`'s children (see `exec::entry`), a node of this tree.
    #[inline]
    pub(crate) fn entries_of(&self, n: &Node) -> &[Entry<C>] {
        &self.entries[n.first_child as usize..(n.first_child + n.child_count) as usize]
    }

    /// Children of `n`, a node of this tree, as raw indices.
    #[inline]
    pub(crate) fn children_of(&self, n: &Node) -> &[u32] {
        &self.children[n.first_child as usize..(n.first_child + n.child_count) as usize]
    }

    /// Attached decorators of node `i`, top first. Most nodes have none: that case returns
    /// before any range arithmetic, as enter and exit ask for every node they visit.
    #[inline]
    pub(crate) fn decorators_of(&self, i: u32) -> &[crate::nodes::attached::Decorator] {
        let n = &self.nodes[i as usize];
        if n.decorator_count == 0 {
            return &[];
        }
        &self.decorators
            [n.first_decorator as usize..(n.first_decorator + n.decorator_count) as usize]
    }
}
