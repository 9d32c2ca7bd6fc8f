//! When a running agent next needs a tick (rules 82, 83, 98 and 99): [`WakeCondition`], read from
//! the running nodes after a tick.
//!
//! An agent may go unticked while its next tick would be *idle*: the root returns
//! `running`, the trace holds only `Tick(_, Running)` and `Check` events, and no host
//! action is called, no blackboard value, trigger, event, slot or timer changes. That holds
//! when every node on the running path is one of the kinds below, in the state given, and
//! the agent's inputs do not change:
//! - a Wait, or a Delay before its deadline: until the deadline (the comparison is the
//!   node's own, `now >= deadline - TIME_EPSILON`, so the wake frame is the completing one);
//! - a Timeout: until its deadline, and its running child until its own wake;
//! - a host action that said [`crate::ActionCtx::sleep_until`] in the last tick (any
//!   input may matter to it), or [`crate::ActionCtx::sleep_until_written`] for a key not
//!   written since (rule 99);
//! - a Sequence or Selector (neither `dynamic` nor `yield`), Repeat, Retry, Inverter,
//!   Succeeder, ForceFailure, KeepRunningUntilFailure or Subtree whose running child is
//!   asleep: each of them only resumes that child.
//!
//! Conditions evaluated on the way must give the same result on the next tick: the
//! Self-abort conditions of running nodes and the LowerPriority conditions of a running
//! Sequence's earlier children must hold, a running Selector's earlier children with a
//! LowerPriority condition must fail their entry check, and each of those conditions must
//! read inputs only (Condition, CheckEvent, CheckTrigger that does not reset on a passing
//! check, a host condition that says what it observes, rule 98, whose inputs are unchanged
//! since it gave its last result). Any other host condition there, a `While` script, a Parallel, a reactive composite or
//! any other kind keeps the agent awake. So do events that are visible in the last or the
//! next run (their visibility changes with the run, rule 31), and blackboard values with a
//! ttl wake it at their deadline (rule 33).

use crate::blackboard::TIME_EPSILON;
use crate::exec::{Promise, State};
use crate::nodes::attached::{DecoratorKind, Reset};
use crate::nodes::Kind;
use crate::tree::CompiledTree;

/// When an agent that went unticked needs its next tick (rule 82): at the first frame
/// whose time is at least [`WakeCondition::at`], or as soon as its inputs change (a
/// blackboard write, an event or a trigger from outside), whichever comes first. Ticking
/// it earlier is always allowed: the ticks it skipped would have been idle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WakeCondition {
    /// The earliest agent-clock time at which a tick can change something;
    /// `f64::INFINITY` when only an input can.
    pub at: f64,
    /// Whether any input ends the sleep: a running host action slept by time (rule 83),
    /// and may read any key. When false, only a write that changes what the running path
    /// reads does (rules 98 and 99): [`crate::Population::set`] asks again after a write
    /// and leaves the agent asleep if its next tick is still idle.
    pub any_input: bool,
}

/// The agent's next wake after the tick it just made; `None` when its next tick may do
/// something (it stays awake).
pub(crate) fn next_wake<C>(tree: &CompiledTree<C>, st: &State) -> Option<WakeCondition> {
    if !st.nodes.slots.first()?.running || events_live(st) {
        return None;
    }
    let mut walk = Walk {
        tree,
        st,
        at: st.bb.next_expiry().unwrap_or(f64::INFINITY),
        any_input: false,
    };
    walk.node(0)?;
    Some(WakeCondition {
        at: walk.at,
        any_input: walk.any_input,
    })
}

/// Whether an event is visible in the last run or may be in the next (rule 31).
fn events_live(st: &State) -> bool {
    let run = st.nodes.run;
    st.nodes
        .events
        .iter()
        .any(|e| e.external.is_some_and(|r| r >= run) || e.sent.is_some_and(|(r, _)| r + 1 >= run))
}

/// A walk down the running path, keeping the earliest wake time.
struct Walk<'a, C> {
    tree: &'a CompiledTree<C>,
    st: &'a State,
    at: f64,
    /// A host action on the path slept by time: it may read any input.
    any_input: bool,
}

impl<C> Walk<'_, C> {
    /// `Some` when running node `i` sleeps (the earliest time kept in `self.at`).
    fn node(&mut self, i: u32) -> Option<()> {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        let slot = &self.st.nodes.slots[i as usize];
        if !slot.running {
            return None;
        }
        if node.decorator_count > 0 {
            let decorators = tree.decorators_of(i);
            if decorators.iter().any(|d| {
                matches!(
                    d.kind,
                    DecoratorKind::Script {
                        role: crate::nodes::attached::script::Role::While(_),
                        ..
                    }
                )
            }) {
                return None;
            }
        }
        // The running path first, the conditions on the way after: all must allow sleep,
        // so the order changes nothing but the cost, and an awake leaf (the commonest
        // reason to stay awake) is found before any condition is evaluated.
        self.kind(i)?;
        if node.self_abort {
            self.checks(i, |d| d.abort.includes_self(), true)?;
        }
        Some(())
    }

    /// Node `i`'s own part of [`Walk::node`]: its kind, its running child, and the
    /// conditions its kind re-checks.
    fn kind(&mut self, i: u32) -> Option<()> {
        let tree = self.tree;
        let node = &tree.nodes[i as usize];
        let slot = &self.st.nodes.slots[i as usize];
        let children = tree.child_indices(i);
        match &node.kind {
            Kind::Sequence {
                dynamic: false,
                yields: false,
                ..
            } => {
                let current = slot.cursor as usize;
                self.node(*children.get(current)?)?;
                if node.rescan {
                    for &earlier in children.get(..current)? {
                        if tree.nodes[earlier as usize].lower_priority {
                            self.checks(earlier, |d| d.abort.includes_lower_priority(), true)?;
                        }
                    }
                }
                Some(())
            }
            Kind::Selector {
                dynamic: false,
                yields: false,
            } => {
                let current = slot.cursor as usize;
                self.node(*children.get(current)?)?;
                if node.rescan {
                    for &earlier in children.get(..current)? {
                        if tree.nodes[earlier as usize].lower_priority {
                            // Ticked afresh each tick (rule 24): idle only if its entry
                            // check fails, before any script or body could run.
                            self.checks(earlier, |_| true, false)?;
                        }
                    }
                }
                Some(())
            }
            Kind::Repeat { .. }
            | Kind::Retry { .. }
            | Kind::Inverter
            | Kind::Succeeder
            | Kind::ForceFailure
            | Kind::KeepRunningUntilFailure
            | Kind::Subtree => self.node(*children.first()?),
            Kind::Wait { seconds } => self.until(seconds.timer),
            Kind::Timeout { seconds } => {
                self.until(seconds.timer)?;
                self.node(*children.first()?)
            }
            Kind::Delay { seconds } => {
                let child = *children.first()?;
                if self.st.nodes.slots[child as usize].running {
                    self.node(child)
                } else {
                    // Before its deadline the child is not ticked; at it, it starts.
                    self.until(seconds.timer)
                }
            }
            Kind::Host { .. } => {
                let mut promised = false;
                for promise in &self.st.host.sleeps {
                    match *promise {
                        Promise::Until { node, until } if node == i => {
                            self.at = self.at.min(until);
                            self.any_input = true;
                        }
                        Promise::Written { node, key, updates } if node == i => {
                            // Written later in the same tick: the promise is spent.
                            if self.st.bb.updates(key) != updates {
                                return None;
                            }
                        }
                        _ => continue,
                    }
                    promised = true;
                }
                promised.then_some(())
            }
            _ => None,
        }
    }

    /// A timed node's deadline, read as the node reads it (`nodes::deadline`).
    fn until(&mut self, timer: u32) -> Option<()> {
        let deadline = *self.st.nodes.timers.get(timer as usize)?;
        self.at = self.at.min(deadline - TIME_EPSILON);
        Some(())
    }

    /// Node `i`'s condition decorators that `wanted` selects, evaluated top to bottom as
    /// `Exec::check` does: `Some` when they read inputs only and come out as `pass` says
    /// (all hold, or one fails, with no Immediate trigger consumed before it).
    fn checks(
        &self,
        i: u32,
        wanted: impl Fn(&crate::nodes::attached::Decorator) -> bool,
        pass: bool,
    ) -> Option<()> {
        for (k, d) in self.tree.decorators_of(i).iter().enumerate() {
            if !d.is_condition() || !wanted(d) {
                continue;
            }
            let raw = match d.kind {
                DecoratorKind::Host { observes, .. } => self.seen(i, k as u32, observes)?,
                _ => self.holds(i, &d.kind),
            };
            let passed = raw != d.invert;
            if !passed {
                return (!pass).then_some(());
            }
            if let DecoratorKind::CheckTrigger {
                reset: Reset::Immediate,
                ..
            } = d.kind
            {
                // A passing check consumes the trigger (rule 32): the next tick differs.
                return None;
            }
        }
        pass.then_some(())
    }

    /// What host condition `k` of node `i` gives at the next tick (rule 98): the result
    /// of its last evaluation, in the last tick, if it says what it observes and that is
    /// unchanged since; `None` when that is not known (it reads the host world).
    fn seen(&self, i: u32, k: u32, observes: u32) -> Option<bool> {
        let observation = self.tree.observations.get(observes as usize)?;
        let now = observation.stamp(&self.st.bb, &self.st.nodes.triggers);
        self.st.host.sleeps.iter().rev().find_map(|p| match *p {
            Promise::Seen {
                node,
                decorator,
                passed,
                stamp,
            } if node == i && decorator == k => Some((stamp == now).then_some(passed)),
            _ => None,
        })?
    }

    /// A condition's raw result now; with no event live (`events_live`), the same in the
    /// next run.
    fn holds(&self, i: u32, kind: &DecoratorKind) -> bool {
        kind.evaluate_inputs(&self.st.bb, &self.st.nodes, i)
    }
}
