//! The tick engine: the node lifecycle of docs/semantics.md rule 3, the abort procedure of rule 28
//! and the evaluation of attached condition decorators (rules 21–23, 30–32).
//!
//! `Exec` borrows one agent's state for one root tick. Node kinds' bodies live in
//! `crate::nodes::*` and call back into `tick` and `abort` for their children.
//! Ticking recurses once per tree level; the loader's depth limit bounds the stack.

mod state;

pub(crate) use state::{EventSlot, Slot, State};

use crate::host::ActionCtx;
use crate::nodes::attached::{self, DecoratorKind, Reset};
use crate::nodes::{action, control, decorator, Kind};
use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};
use crate::tree::{CompiledTree, Node};

/// A Repeat or Retry runs its child at most this many times in one tick (the first run and
/// the restarts together); if the loop would go on, it returns `running`, keeps its count
/// and goes on in the next tick. This is Arbor's answer to rule 36's unbounded loop whose
/// child completes synchronously forever: the tick always ends.
pub const MAX_LOOPS_PER_TICK: u32 = 1000;

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

pub(crate) struct Exec<'a, C, O: ?Sized> {
    pub tree: &'a CompiledTree<C>,
    pub st: &'a mut State,
    pub data: &'a mut C,
    pub obs: &'a mut O,
}

impl<'a, C, O: Observer + ?Sized> Exec<'a, C, O> {
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
                self.tick_host(i, action, state, node.hooks)
            }
            _ => self.tick_node(i, node),
        }
    }

    /// [`Exec::tick_full`] for a host leaf without decorators, in one pass: no decorator to
    /// check or run, no children to clear, one `ActionCtx` for enter, tick and exit. The
    /// order of slot updates, trace events and action calls is the general path's. A host
    /// leaf's slot only needs `running`: its cursor and start time are never read.
    /// Without `hooks` the action's `enter` and `exit` are the trait's empty defaults and
    /// are not called.
    #[inline(always)]
    fn tick_host(&mut self, i: u32, action: u32, state: u32, hooks: bool) -> Status {
        let action = &*self.tree.actions[action as usize];
        let st = &mut *self.st;
        let slot = &mut st.slots[i as usize];
        let mut cx = ActionCtx {
            agent: &mut *self.data,
            blackboard: &mut st.bb,
            node: NodeId(i),
            rng: &mut st.rng,
            state: host_state(&mut st.host, state),
        };
        if !slot.running {
            slot.running = true;
            self.obs.event(TraceEvent::Enter(NodeId(i)));
            if hooks {
                action.enter(&mut cx);
            }
        }
        let status = action.tick(&mut cx);
        self.obs.event(TraceEvent::Tick(NodeId(i), status));
        if status.is_done() {
            slot.running = false;
            if hooks {
                action.exit(&mut cx, status);
            }
            self.obs.event(TraceEvent::Exit(NodeId(i), Some(status)));
        }
        status
    }

    /// A node that is not a decorator-free host leaf. Without attached decorators there is
    /// nothing to check, no trigger to reset and no post-decorator, so a built-in node only
    /// marks its slot, runs its body and clears its slot; others take [`Exec::tick_full`].
    #[inline(never)]
    fn tick_node(&mut self, i: u32, node: &'a Node) -> Status {
        if !node.plain {
            return self.tick_full(i);
        }
        let st = &mut *self.st;
        let slot = &mut st.slots[i as usize];
        if !slot.running {
            slot.running = true;
            slot.cursor = 0;
            slot.start = st.bb.now();
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
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        if !self.st.slots[i as usize].running {
            if node.decorator_count > 0 && !self.check(i, Phase::Entry) {
                return Status::Failure;
            }
            if let Some(status) = attached::script::before_start(self, i) {
                return status;
            }
            self.enter(i);
        } else if node.self_abort && !self.check(i, Phase::SelfAbort) {
            self.abort(i);
            return Status::Failure;
        } else if let Some(status) = attached::script::while_running(self, i) {
            return status;
        }
        let cursor = self.st.slots[i as usize].cursor;
        let status = self.body(i, node, cursor);
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
        if let Kind::Host { action, state } = node.kind {
            if node.hooks {
                let action = &tree.actions[action as usize];
                let mut cx = self.action_ctx(i, state);
                action.abort(&mut cx);
                action.exit(&mut cx, Status::Failure);
            }
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
                // Rule 60: as BT.CPP's `_onHalted`; a key without a value stops it.
                let _ = program.run(&mut self.st.bb);
            }
        }
    }

    pub fn is_running(&self, i: u32) -> bool {
        self.st.slots[i as usize].running
    }

    #[inline]
    pub fn slot(&mut self, i: u32) -> &mut Slot {
        &mut self.st.slots[i as usize]
    }

    pub fn now(&self) -> f64 {
        self.st.bb.now()
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
        let now = self.now();
        let slot = &mut self.st.slots[i as usize];
        slot.running = true;
        slot.cursor = 0;
        slot.start = now;
        self.obs.event(TraceEvent::Enter(NodeId(i)));
        let node = &tree.nodes[i as usize];
        if let Kind::Host { action, state } = node.kind {
            if node.hooks {
                tree.actions[action as usize].enter(&mut self.action_ctx(i, state));
            }
        }
    }

    /// Completion (rule 3, step 4): the node becomes idle, then post-decorators run bottom to
    /// top and may change the status. The exit event carries the final status.
    fn exit(&mut self, i: u32, status: Status) -> Status {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        self.clear(i, node);
        if let Kind::Host { action, state } = node.kind {
            if node.hooks {
                tree.actions[action as usize].exit(&mut self.action_ctx(i, state), status);
            }
        }
        let mut status = status;
        for d in tree.decorators_of(i).iter().rev() {
            match d.kind {
                DecoratorKind::Inverter => status = status.inverted(),
                DecoratorKind::Script { role, ref program } => {
                    attached::script::after(&mut self.st.bb, role, program, status)
                }
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
        if let Kind::Parallel { .. } = node.kind {
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
            let passed = self.evaluate(i, &d.kind) != d.invert;
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

    /// A condition decorator's raw result, before `invert`.
    fn evaluate(&mut self, i: u32, kind: &DecoratorKind) -> bool {
        match kind {
            DecoratorKind::Host {
                action,
                state,
                hooks,
            } => {
                // One whole execution of the condition, as when it runs as a leaf: enter,
                // tick, exit. Only success passes (a condition that says running does not).
                let action = &self.tree.actions[*action as usize];
                let mut cx = self.action_ctx(i, *state);
                if *hooks {
                    action.enter(&mut cx);
                }
                let status = action.tick(&mut cx);
                if *hooks {
                    action.exit(&mut cx, status);
                }
                status == Status::Success
            }
            DecoratorKind::Condition { key, equals } => {
                let bb = &self.st.bb;
                equals.matches(bb.get(*key), bb)
            }
            DecoratorKind::CheckEvent { event } => self.st.event_visible(*event, i),
            DecoratorKind::CheckTrigger { trigger, .. } => self.st.triggers[*trigger as usize],
            DecoratorKind::Inverter | DecoratorKind::Script { .. } => true,
        }
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
            Kind::Random { probability } => action::random::tick(self, probability),
            Kind::Script { program, condition } => action::script::tick(self, program, *condition),
            Kind::Host { action, state } => {
                let action = &tree.actions[*action as usize];
                action.tick(&mut self.action_ctx(i, *state))
            }
        }
    }

    fn action_ctx(&mut self, i: u32, state: u32) -> ActionCtx<'_, C> {
        let st = &mut *self.st;
        ActionCtx {
            agent: self.data,
            blackboard: &mut st.bb,
            node: NodeId(i),
            rng: &mut st.rng,
            state: host_state(&mut st.host, state),
        }
    }
}

/// The host state at `index`, or none for a stateless action ([`NO_STATE`]).
#[inline(always)]
fn host_state(
    states: &mut [Box<dyn crate::host::HostState>],
    index: u32,
) -> Option<&mut (dyn crate::host::HostState + 'static)> {
    if index == NO_STATE {
        None
    } else {
        states.get_mut(index as usize).map(|s| &mut **s)
    }
}

impl<C> CompiledTree<C> {
    /// Children of node `i` as raw indices, borrowed from the tree (not from an `Exec`).
    #[inline]
    pub(crate) fn child_indices(&self, i: u32) -> &[u32] {
        self.children_of(&self.nodes[i as usize])
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
