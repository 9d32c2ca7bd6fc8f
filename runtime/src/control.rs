//! Host composites and decorators: nodes with children whose body is the program's Rust
//! code (BehaviorTree.CPP's `ControlNode` and `DecoratorNode`), rules 73 to 75.
//!
//! A [`Control`] is made once per node of a loaded tree, from the node's parameters, and
//! shared by every agent running that tree, as an [`crate::Action`] is. What one agent's
//! node remembers is its [`Control::State`]: a small `Copy` value that the agent keeps
//! per node (created with the agent, so ticking allocates nothing), handed to every hook.
//! The node reaches its children only through its [`ControlCtx`], which ticks and aborts
//! them through the engine's own lifecycle (rules 3 and 28): their events, decorators,
//! traces and aborts are those of any other child.
//!
//! The built-in Cooldown, RandomSelector and UtilitySelector are written with this API
//! alone (`nodes/decorator/cooldown.rs`, `nodes/control/random_selector.rs`,
//! `nodes/control/utility_selector.rs`).

use crate::blackboard::Blackboard;
use crate::exec::Host;
use crate::host::{HostState, StateMaker};
use crate::port::{InPort, OutPort, PortType, ScalarPort};
use crate::rng::Rng;
use crate::status::Status;
use crate::trace::NodeId;

/// A composite's or decorator's behaviour. Only `tick` is required.
///
/// Lifecycle (rules 3, 28 and 74): `enter` when the node starts an execution, `tick` each
/// time its body runs, `exit` when it completes (after the runtime has aborted any child
/// still running). When the node is aborted (BehaviorTree.CPP's `halt`), its running
/// children are aborted first, then `abort` is called, then `exit` with `Failure`.
///
/// `State` is kept per agent per node and is **not** reset by the runtime: it starts as
/// `State::default()` when the agent is created (or reloaded) and keeps what the hooks
/// leave in it across executions, aborts and root restarts (rule 4's persistent state).
/// Reset in `enter` what belongs to one execution.
///
/// ```
/// use arbor_runtime::{Control, ControlCtx, Status};
///
/// /// Ticks its children left to right, as a Sequence does.
/// struct InOrder;
///
/// impl<C> Control<C> for InOrder {
///     type State = usize; // the current child
///     fn enter(&self, _cx: &mut ControlCtx<'_, C>, current: &mut usize) {
///         *current = 0;
///     }
///     fn tick(&self, cx: &mut ControlCtx<'_, C>, current: &mut usize) -> Status {
///         while *current < cx.child_count() {
///             match cx.tick_child(*current) {
///                 Status::Success => *current += 1,
///                 other => return other,
///             }
///         }
///         Status::Success
///     }
/// }
/// ```
pub trait Control<C>: Send + Sync {
    /// What one agent's node remembers: copied out for each hook and back after it, so it
    /// must be small and `Copy`.
    type State: Copy + Default + Send + 'static;
    /// Called when the node starts an execution (rule 3), before its first `tick`.
    fn enter(&self, _cx: &mut ControlCtx<'_, C>, _state: &mut Self::State) {}
    /// Runs the node's body once; ticks children through `cx`; returns the node's status.
    fn tick(&self, cx: &mut ControlCtx<'_, C>, state: &mut Self::State) -> Status;
    /// Called when the node completes, with its status, or after `abort` with `Failure`.
    fn exit(&self, _cx: &mut ControlCtx<'_, C>, _state: &mut Self::State, _status: Status) {}
    /// Called when the node is aborted (rule 28), after its children were, before `exit`.
    fn abort(&self, _cx: &mut ControlCtx<'_, C>, _state: &mut Self::State) {}
}

/// What a [`Control`] sees while it runs: its children, the clock, the blackboard, the
/// program's data and the agent's seeded random generator.
pub struct ControlCtx<'x, C> {
    x: &'x mut (dyn Engine<C> + 'x),
    node: u32,
    /// Whether children may be ticked: only during `tick` (rule 74).
    ticking: bool,
}

/// The tick's engine as a control sees it: one dynamic call per operation, so that a
/// control's code is the same whatever observer the tick has.
pub(crate) trait Engine<C> {
    fn tick_child(&mut self, node: u32, k: usize) -> Option<Status>;
    fn abort_child(&mut self, node: u32, k: usize);
    fn child_count(&self, node: u32) -> usize;
    fn child_running(&self, node: u32, k: usize) -> bool;
    fn blackboard(&self) -> &Blackboard;
    fn blackboard_mut(&mut self) -> &mut Blackboard;
    fn data(&mut self) -> &mut C;
    fn host(&mut self) -> &mut Host;
}

impl<'x, C> ControlCtx<'x, C> {
    pub(crate) fn new(x: &'x mut (dyn Engine<C> + 'x), node: u32, ticking: bool) -> Self {
        ControlCtx { x, node, ticking }
    }

    /// How many children the node has.
    pub fn child_count(&self) -> usize {
        self.x.child_count(self.node)
    }

    /// Ticks child `k` (from 0) through its whole lifecycle (rule 3) and returns what the
    /// node sees of it. A `k` that is not a child's index, or a call outside
    /// [`Control::tick`], ticks nothing and gives `Failure`.
    pub fn tick_child(&mut self, k: usize) -> Status {
        if !self.ticking {
            return Status::Failure;
        }
        self.x.tick_child(self.node, k).unwrap_or(Status::Failure)
    }

    /// Aborts child `k` if it is running (rule 28): its running descendants, hooks, abort
    /// decorators and trace events, as any abort. Nothing for an idle child or a `k` that
    /// is not a child's index.
    pub fn halt_child(&mut self, k: usize) {
        self.x.abort_child(self.node, k);
    }

    /// Aborts every running child, in child order.
    pub fn halt_children(&mut self) {
        for k in 0..self.child_count() {
            self.halt_child(k);
        }
    }

    /// Whether child `k` is in the middle of an execution.
    pub fn is_child_running(&self, k: usize) -> bool {
        self.x.child_running(self.node, k)
    }

    /// The node being run.
    pub fn node(&self) -> NodeId {
        NodeId(self.node)
    }

    /// The agent's clock, in seconds (rule 2).
    pub fn now(&self) -> f64 {
        self.x.blackboard().now()
    }

    /// This agent's blackboard.
    pub fn blackboard(&self) -> &Blackboard {
        self.x.blackboard()
    }

    /// This agent's blackboard, to write.
    pub fn blackboard_mut(&mut self) -> &mut Blackboard {
        self.x.blackboard_mut()
    }

    /// The program's own data for this agent.
    pub fn agent(&mut self) -> &mut C {
        self.x.data()
    }

    /// The agent's seeded random generator (rule 2): the same seed gives the same draws.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.x.host().rng
    }

    /// Reads an input port, as [`crate::ActionCtx::get`].
    pub fn get<'p, T: PortType + ?Sized>(&'p self, port: &'p InPort<T>) -> Option<T::Read<'p>> {
        port.read(self.x.blackboard())
    }

    /// Writes an output port's key, as [`crate::ActionCtx::set`].
    pub fn set<T: ScalarPort + ?Sized>(&mut self, port: &OutPort<T>, value: impl Into<T::Write>) {
        port.write(self.x.blackboard_mut(), value.into());
    }
}

/// A [`Control`] with its state type erased: what the tree's control table holds. Each
/// hook copies the node's state out of the agent's host states, runs, and copies it back,
/// so the state is not borrowed while the children (host actions among them) run.
pub(crate) trait Erased<C>: Send + Sync {
    fn enter(&self, cx: &mut ControlCtx<'_, C>, state: u32);
    fn tick(&self, cx: &mut ControlCtx<'_, C>, state: u32) -> Status;
    fn exit(&self, cx: &mut ControlCtx<'_, C>, state: u32, status: Status);
    fn abort(&self, cx: &mut ControlCtx<'_, C>, state: u32);
}

pub(crate) struct Typed<K>(pub K);

/// Runs `f` with node state `index` copied out of the agent's host states, then copies
/// it back.
fn with_state<C, S: Copy + 'static, R>(
    cx: &mut ControlCtx<'_, C>,
    index: u32,
    f: impl FnOnce(&mut ControlCtx<'_, C>, &mut S) -> R,
) -> R {
    let mut state = *slot::<S>(cx.x.host(), index);
    let result = f(cx, &mut state);
    *slot::<S>(cx.x.host(), index) = state;
    result
}

fn slot<S: 'static>(host: &mut Host, index: u32) -> &mut S {
    // `&mut **`: the boxed state itself, not the `Box` (which is a `HostState` too).
    let state: &mut dyn HostState = &mut **host
        .states
        .get_mut(index as usize)
        .expect("the loader gives every control node a state");
    state
        .as_any_mut()
        .downcast_mut::<S>()
        .expect("a node's state is made by its own factory's type")
}

impl<K: Control<C>, C> Erased<C> for Typed<K> {
    fn enter(&self, cx: &mut ControlCtx<'_, C>, state: u32) {
        with_state(cx, state, |cx, s| self.0.enter(cx, s));
    }
    fn tick(&self, cx: &mut ControlCtx<'_, C>, state: u32) -> Status {
        with_state(cx, state, |cx, s| self.0.tick(cx, s))
    }
    fn exit(&self, cx: &mut ControlCtx<'_, C>, state: u32, status: Status) {
        with_state(cx, state, |cx, s| self.0.exit(cx, s, status));
    }
    fn abort(&self, cx: &mut ControlCtx<'_, C>, state: u32) {
        with_state(cx, state, |cx, s| self.0.abort(cx, s));
    }
}

/// Builds one node's control from its checked parameters.
pub(crate) type MakeControl<C> =
    Box<dyn Fn(&crate::args::Args) -> Result<Box<dyn Erased<C>>, String> + Send + Sync>;

/// Makes a control node's behaviour and its per-agent state; an `Err` becomes a load
/// problem at that node.
pub(crate) struct ControlFactory<C> {
    pub make: MakeControl<C>,
    pub state: StateMaker,
}

impl<C: 'static> ControlFactory<C> {
    pub(crate) fn of<K, F>(factory: F) -> ControlFactory<C>
    where
        K: Control<C> + 'static,
        F: Fn(&crate::args::Args) -> Result<K, String> + Send + Sync + 'static,
    {
        ControlFactory {
            make: Box::new(move |args| {
                factory(args).map(|k| Box::new(Typed(k)) as Box<dyn Erased<C>>)
            }),
            state: StateMaker::of::<K::State>(),
        }
    }

    /// As [`ControlFactory::of`], for a control whose state agent snapshots save.
    pub(crate) fn saved<K, F>(factory: F) -> ControlFactory<C>
    where
        K: Control<C> + 'static,
        K::State: serde::Serialize + serde::de::DeserializeOwned,
        F: Fn(&crate::args::Args) -> Result<K, String> + Send + Sync + 'static,
    {
        ControlFactory {
            state: StateMaker::saved::<K::State>(),
            ..ControlFactory::of(factory)
        }
    }
}
