//! Host nodes: the actions and conditions a program registers, with their lifecycle.
//!
//! An action is created once per node of a loaded tree (by its factory, from the node's
//! parameters) and shared by every agent running that tree; per-agent state belongs in the
//! agent's own data (`C`) or its blackboard. That keeps agents small and lets one
//! `CompiledTree` serve thousands of them.

use crate::args::Args;
use crate::blackboard::Blackboard;
use crate::status::Status;
use crate::trace::NodeId;

/// What a host node sees while it runs.
pub struct ActionCtx<'a, C> {
    /// The program's own data for this agent.
    pub agent: &'a mut C,
    /// This agent's blackboard.
    pub blackboard: &'a mut Blackboard,
    pub(crate) node: NodeId,
    pub(crate) rng: &'a mut fastrand::Rng,
}

impl<C> ActionCtx<'_, C> {
    /// The agent's clock, in seconds.
    pub fn now(&self) -> f64 {
        self.blackboard.now()
    }

    /// The node being run.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The agent's seeded random generator: use it, not a global one, to stay reproducible.
    pub fn rng(&mut self) -> &mut fastrand::Rng {
        self.rng
    }
}

/// A host node's behaviour. Only `tick` is required.
///
/// Lifecycle (rule 3): `enter` when the node starts an execution, `tick` each time its body
/// runs, `exit` whenever it becomes idle. When the node is aborted (rule 28), `abort` is
/// called first, then `exit` with `Failure`.
pub trait Action<C>: Send + Sync {
    fn enter(&self, _cx: &mut ActionCtx<'_, C>) {}
    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status;
    fn exit(&self, _cx: &mut ActionCtx<'_, C>, _status: Status) {}
    fn abort(&self, _cx: &mut ActionCtx<'_, C>) {}
}

/// An action made of a closure that runs on every tick.
pub struct ActionFn<F>(pub F);

impl<C, F> Action<C> for ActionFn<F>
where
    F: Fn(&mut ActionCtx<'_, C>) -> Status + Send + Sync,
{
    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status {
        (self.0)(cx)
    }
}

/// A condition made of a closure: `true` is success, `false` failure, never running.
pub struct ConditionFn<F>(pub F);

impl<C, F> Action<C> for ConditionFn<F>
where
    F: Fn(&mut ActionCtx<'_, C>) -> bool + Send + Sync,
{
    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status {
        Status::from_bool((self.0)(cx))
    }
}

/// Builds one node's action from its checked parameters.
pub(crate) type MakeAction<C> =
    Box<dyn Fn(&Args) -> Result<Box<dyn Action<C>>, String> + Send + Sync>;

/// Makes a node's action from its checked parameters; an `Err` becomes a load problem at
/// that node.
pub(crate) struct Factory<C> {
    pub make: MakeAction<C>,
    /// Whether the actions it makes may have `enter`, `exit` or `abort` of their own. False
    /// only for [`ActionFn`] and [`ConditionFn`] (`Registry::action` and
    /// `Registry::condition`), which keep the trait's empty defaults: the engine then skips
    /// those calls, as they would do nothing.
    pub hooks: bool,
}
