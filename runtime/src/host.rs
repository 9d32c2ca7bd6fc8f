//! Host nodes: the actions and conditions a program registers, with their lifecycle.
//!
//! An action is created once per node of a loaded tree (by its factory, from the node's
//! parameters) and shared by every agent running that tree. What one agent's run of one
//! node needs to remember lives in that node's *host state* ([`StatefulAction`]): the
//! runtime keeps one per agent per node, so two nodes of the same type, or two agents,
//! never share it. The program's own per-agent data is `C`.

use std::any::Any;

use crate::blackboard::{Blackboard, BlackboardError};
use crate::exec::Host;
use crate::port::{InPort, OutPort, PortType, ScalarPort};
use crate::status::Status;
use crate::trace::NodeId;
use crate::value::Value;

/// What a host node sees while it runs.
pub struct ActionCtx<'a, C> {
    /// The program's own data for this agent.
    pub agent: &'a mut C,
    /// This agent's blackboard.
    pub blackboard: &'a mut Blackboard,
    /// The node being run and its host state.
    pub(crate) site: Site,
    /// The agent's RNG and host states (for [`StatefulAction`]s).
    pub(crate) host: &'a mut Host,
}

/// The node an action context is lent for and that node's index among the agent's host
/// states (`exec::NO_STATE` for a stateless action): one 8-byte value, so that generated
/// code sets both with one store.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(8))]
pub(crate) struct Site {
    pub node: NodeId,
    pub state: u32,
}

/// What every context lent to a host node's code offers about the run itself: the clock,
/// `dt`, the node, the agent's RNG and sleeping (rule 83). One body for [`ActionCtx`] and
/// [`crate::NodeCtx`], whose `blackboard`, `host` and `site` fields are the same, so that a
/// declared node can do all that a registered action can.
macro_rules! run_accessors {
    () => {
        /// The agent's clock, in seconds.
        pub fn now(&self) -> f64 {
            self.blackboard.now()
        }

        /// Seconds since the agent's previous root tick (since its creation, on the first).
        pub fn dt(&self) -> f64 {
            self.host.dt()
        }

        /// The node being run (for a host condition attached as a decorator: the node it is
        /// attached to).
        pub fn node(&self) -> $crate::trace::NodeId {
            self.site.node
        }

        /// The name of the node being run, as the tree file gives it (the type's name when
        /// the file gives none).
        pub fn name(&self) -> &str {
            self.host.label(self.site.node).0
        }

        /// The GUID of the node being run, as in the tree file.
        pub fn guid(&self) -> &str {
            self.host.label(self.site.node).1
        }

        /// The agent's seeded random generator: use it, not a global one, to stay reproducible.
        pub fn rng(&mut self) -> &mut $crate::rng::Rng {
            &mut self.host.rng
        }

        /// Says that, running, this node needs no tick before the agent's clock reaches
        /// `time` (rule 83): until then each tick of it would return `running` and change
        /// nothing, unless the agent's inputs change (a blackboard write, event or trigger from
        /// outside, or [`crate::Population::wake`]). A [`crate::Population`] then leaves the
        /// agent unticked until the first frame at or after `time` (rule 82). Valid for the
        /// tick it is said in; a node that says nothing keeps its agent awake. `f64::INFINITY`:
        /// until an input changes.
        pub fn sleep_until(&mut self, time: f64) {
            let node = self.site.node.0;
            match self.host.sleeps.last_mut() {
                Some(last) if last.0 == node => last.1 = time,
                _ => self.host.sleeps.push((node, time)),
            }
        }
    };
}
pub(crate) use run_accessors;

impl<C> ActionCtx<'_, C> {
    run_accessors!();

    /// Reads an input port: its literal, or the bound key's valid value. `None` when the
    /// key has no valid value (never written, or expired) or, for a `json` key, holds
    /// another shape. An array access for a bound port; no allocation.
    #[inline(always)]
    pub fn get<'p, T: PortType + ?Sized>(&'p self, port: &'p InPort<T>) -> Option<T::Read<'p>> {
        port.read(self.blackboard)
    }

    /// Writes an output port's key (valid forever); nothing when the output is unbound.
    /// The key's type was checked against the port's when the tree loaded.
    #[inline]
    pub fn set<T: ScalarPort + ?Sized>(&mut self, port: &OutPort<T>, value: impl Into<T::Write>) {
        port.write(self.blackboard, value.into());
    }

    /// As [`ActionCtx::set`], valid for `ttl` seconds only (rule 33): the key then has no
    /// value until written again.
    pub fn set_with_ttl<T: ScalarPort + ?Sized>(
        &mut self,
        port: &OutPort<T>,
        value: impl Into<T::Write>,
        ttl: f64,
    ) {
        port.write_with_ttl(self.blackboard, value.into(), ttl);
    }

    /// Writes a list, map or any other value to an output port, checked against the key's
    /// type now (its shape is not known when the tree loads).
    pub fn set_value(
        &mut self,
        port: &OutPort<Value>,
        value: Value,
    ) -> Result<(), BlackboardError> {
        port.write_value(self.blackboard, value)
    }
}

/// A host node's behaviour. Only `tick` is required.
///
/// Lifecycle (rule 3): `enter` when the node starts an execution, `tick` each time its body
/// runs, `exit` whenever it becomes idle. When the node is aborted (rule 28), `abort` is
/// called first, then `exit` with `Failure`.
pub trait Action<C>: Send + Sync {
    /// Called when the node starts an execution (rule 3), before its first `tick`.
    fn enter(&self, _cx: &mut ActionCtx<'_, C>) {}
    /// Runs the node's body once; returns its status.
    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status;
    /// Called whenever the node becomes idle, with the status it ends with (`Failure` after an abort).
    fn exit(&self, _cx: &mut ActionCtx<'_, C>, _status: Status) {}
    /// Called when the node is aborted (rule 28), before `exit`.
    fn abort(&self, _cx: &mut ActionCtx<'_, C>) {}
}

/// A host node with state of its own: one `State` per agent per node, a fresh
/// `State::default()` as each execution enters (or, when [`StatefulAction::keeps_state`],
/// kept from one execution to the next), passed to every hook.
///
/// The runtime creates every state when the agent is created (sized when the tree loads;
/// [`crate::CompiledTree::state_size`] counts it), so ticking allocates nothing for it.
/// Register with [`crate::Registry::register_stateful`].
///
/// ```
/// use arbor_runtime::{ActionCtx, InPort, StatefulAction, Status};
///
/// /// Runs for `seconds`, measured from its own start: each node, each agent has its own.
/// struct Hold { seconds: InPort<f64> }
///
/// impl<C> StatefulAction<C> for Hold {
///     type State = f64; // when this execution started
///     fn enter(&self, cx: &mut ActionCtx<'_, C>, started: &mut f64) {
///         *started = cx.now();
///     }
///     fn tick(&self, cx: &mut ActionCtx<'_, C>, started: &mut f64) -> Status {
///         match cx.get(&self.seconds) {
///             Some(s) if cx.now() - *started >= s => Status::Success,
///             Some(_) => Status::Running,
///             None => Status::Failure,
///         }
///     }
/// }
/// ```
pub trait StatefulAction<C>: Send + Sync {
    /// What one execution of one node remembers. `Clone` so that agents can be cloned.
    type State: Default + Clone + Send + 'static;
    /// As [`Action::enter`]; `state` was just reset to `State::default()`.
    fn enter(&self, _cx: &mut ActionCtx<'_, C>, _state: &mut Self::State) {}
    /// As [`Action::tick`], with this node's state for this agent.
    fn tick(&self, cx: &mut ActionCtx<'_, C>, state: &mut Self::State) -> Status;
    /// As [`Action::exit`].
    fn exit(&self, _cx: &mut ActionCtx<'_, C>, _state: &mut Self::State, _status: Status) {}
    /// As [`Action::abort`].
    fn abort(&self, _cx: &mut ActionCtx<'_, C>, _state: &mut Self::State) {}
    /// Whether the state lasts across executions: when true it is made once per agent
    /// per node and not reset as an execution enters (a count of uses, a last target).
    fn keeps_state(&self) -> bool {
        false
    }
}

/// A [`StatefulAction`] as an [`Action`]: finds its state in the context.
pub(crate) struct Stateful<A>(pub A);

impl<C, A: StatefulAction<C>> Action<C> for Stateful<A> {
    fn enter(&self, cx: &mut ActionCtx<'_, C>) {
        with_state(cx, |cx, state: &mut A::State| {
            if !self.0.keeps_state() {
                *state = A::State::default();
            }
            self.0.enter(cx, state);
        });
    }
    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status {
        with_state(cx, |cx, state| self.0.tick(cx, state))
    }
    fn exit(&self, cx: &mut ActionCtx<'_, C>, status: Status) {
        with_state(cx, |cx, state| self.0.exit(cx, state, status));
    }
    fn abort(&self, cx: &mut ActionCtx<'_, C>) {
        with_state(cx, |cx, state| self.0.abort(cx, state));
    }
}

/// Runs `f` with the node's state taken out of the context (so both can be borrowed),
/// then puts it back for the next hook of the same pass.
pub(crate) fn with_state<'a, C, S: 'static, R>(
    cx: &mut ActionCtx<'a, C>,
    f: impl FnOnce(&mut ActionCtx<'a, C>, &mut S) -> R,
) -> R {
    let mut states = std::mem::take(&mut cx.host.states);
    // `&mut **`: the boxed state itself, not the `Box` (which is a `HostState` too).
    let state: &mut dyn HostState = &mut **states
        .get_mut(cx.site.state as usize)
        .expect("the loader gives every stateful host node a state");
    let typed = state
        .as_any_mut()
        .downcast_mut::<S>()
        .expect("a node's state is made by its own factory's type");
    let result = f(cx, typed);
    cx.host.states = states;
    result
}

/// A node's host state behind a pointer: any `Clone + Send` type.
pub(crate) trait HostState: Send {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn clone_box(&self) -> Box<dyn HostState>;
}

impl<T: Any + Clone + Send> HostState for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn HostState> {
        Box::new(self.clone())
    }
}

impl std::fmt::Debug for dyn HostState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostState")
    }
}

impl Clone for Box<dyn HostState> {
    fn clone(&self) -> Self {
        (**self).clone_box()
    }
}

/// Makes one node's initial host state, and says how large it is.
#[derive(Clone, Copy)]
pub(crate) struct StateMaker {
    pub make: fn() -> Box<dyn HostState>,
    /// Bytes per agent: the state and its pointer.
    pub bytes: usize,
    /// How snapshots save and restore the state, for states that opted in
    /// ([`crate::Registry::register_stateful_saved`]); `None`: a restored agent restarts
    /// the node.
    pub saved: Option<SavedState>,
}

/// Saves a host state to JSON and makes one from JSON (agent snapshots).
#[derive(Clone, Copy)]
pub(crate) struct SavedState {
    pub save: fn(&dyn HostState) -> serde_json::Value,
    pub load: fn(&serde_json::Value) -> Result<Box<dyn HostState>, String>,
}

impl StateMaker {
    pub(crate) fn of<S: Default + Clone + Send + 'static>() -> StateMaker {
        fn make<S: Default + Clone + Send + 'static>() -> Box<dyn HostState> {
            Box::new(S::default())
        }
        StateMaker {
            make: make::<S>,
            bytes: std::mem::size_of::<S>() + std::mem::size_of::<Box<dyn HostState>>(),
            saved: None,
        }
    }

    /// As [`StateMaker::of`], for a state that snapshots save (serde).
    pub(crate) fn saved<S>() -> StateMaker
    where
        S: Default + Clone + Send + serde::Serialize + serde::de::DeserializeOwned + 'static,
    {
        fn save<S: serde::Serialize + 'static>(state: &dyn HostState) -> serde_json::Value {
            let state = state
                .as_any()
                .downcast_ref::<S>()
                .expect("a node's state is made by its own factory's type");
            // A state whose `Serialize` fails (a map with non-string keys) saves as null,
            // which its `Deserialize` then refuses: the restore reports it.
            serde_json::to_value(state).unwrap_or(serde_json::Value::Null)
        }
        fn load<S: serde::de::DeserializeOwned + Clone + Send + 'static>(
            json: &serde_json::Value,
        ) -> Result<Box<dyn HostState>, String> {
            S::deserialize(json)
                .map(|s| Box::new(s) as Box<dyn HostState>)
                .map_err(|e| e.to_string())
        }
        StateMaker {
            saved: Some(SavedState {
                save: save::<S>,
                load: load::<S>,
            }),
            ..StateMaker::of::<S>()
        }
    }
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
    Box<dyn Fn(&crate::args::Args) -> Result<Box<dyn Action<C>>, String> + Send + Sync>;

/// Makes a node's action from its checked parameters; an `Err` becomes a load problem at
/// that node.
pub(crate) struct Factory<C> {
    pub make: MakeAction<C>,
    /// Whether the actions it makes may have `enter`, `exit` or `abort` of their own. False
    /// only for [`ActionFn`] and [`ConditionFn`] (`Registry::action` and
    /// `Registry::condition`), which keep the trait's empty defaults: the engine then skips
    /// those calls, as they would do nothing.
    pub hooks: bool,
    /// For stateful actions: how to make each node's state.
    pub state: Option<StateMaker>,
}
