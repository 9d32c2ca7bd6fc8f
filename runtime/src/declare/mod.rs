//! NodeDecl: one declaration per host node, its name, description, category, ports and
//! state next to its code.
//!
//! ```
//! use arbor_runtime::{NodeDecl, Registry, Status};
//!
//! struct Tank { fuel: f64 }
//!
//! let mut decl = NodeDecl::<Tank>::action("Burn", "Burns fuel at `rate` per second until empty.");
//! let rate = decl.input::<f64>("rate").doc("Litres per second.").default(0.5);
//! let left = decl.output::<f64>("left").doc("Fuel left.").optional();
//!
//! let mut registry = Registry::<Tank>::new();
//! registry.add(decl.tick(move |cx| {
//!     let Some(rate) = cx.get(&rate) else { return Status::Failure };
//!     cx.agent.fuel = (cx.agent.fuel - rate * cx.dt()).max(0.0);
//!     let fuel = cx.agent.fuel;
//!     cx.set(&left, fuel);
//!     if fuel > 0.0 { Status::Running } else { Status::Success }
//! }));
//! ```
//!
//! Ports are read and written through the handles their declaration returns, so the code
//! cannot name a port the node does not declare; a port declared twice is refused when it
//! is declared, naming the node and the port. The declaration becomes a [`NodeType`] (what
//! the editor's palette, manifests and the loader see) and the node's factory, registered
//! through the one path every host leaf takes (`Registry::register`).

mod context;
mod ports;
mod stub;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

pub use context::NodeCtx;
pub use ports::{InOut, Input, Output, PortDecl, Readable, Writable};
pub use stub::{node_stub, StubError};

use crate::host::{with_state, Action, ActionCtx};
use crate::port::PortType;
use crate::spec::{Direction, NodeType, ParamSpec};
use crate::status::Status;
use ports::{At, Handle, Resolved, Resolver};

/// Tells declarations apart, so that a handle used in another node's code reads nothing.
static NEXT_DECL: AtomicU32 = AtomicU32::new(0);

/// A host node being declared: its type (name, category, description), its ports and
/// its state. Finish it with [`NodeDecl::tick`] and register it with
/// [`crate::Registry::add`].
///
/// `C` is the program's data for one agent, as in [`crate::Registry`]`<C>`: name it when
/// declaring (`NodeDecl::<Tank>::action(…)`), so that the code's closures know what
/// `cx.agent` is.
pub struct NodeDecl<C, S = ()> {
    ty: NodeType,
    id: u32,
    resolvers: Vec<Resolver>,
    keep: bool,
    observes: Option<crate::observes::Observes>,
    _state: PhantomData<fn(&mut C) -> S>,
}

impl<C> NodeDecl<C> {
    /// A host action: a leaf that does something, and may run over several ticks.
    #[track_caller]
    pub fn action(name: &str, description: &str) -> NodeDecl<C> {
        NodeDecl::new(NodeType::action(name, description).here())
    }

    /// A host condition: a leaf that tests something, success or failure, never running.
    #[track_caller]
    pub fn condition(name: &str, description: &str) -> NodeDecl<C> {
        NodeDecl::new(NodeType::condition(name, description).here())
    }

    fn new(ty: NodeType) -> NodeDecl<C> {
        NodeDecl {
            ty,
            id: NEXT_DECL.fetch_add(1, Ordering::Relaxed),
            resolvers: Vec::new(),
            keep: false,
            observes: None,
            _state: PhantomData,
        }
    }
}

impl<C, S: Default + Clone + Send + 'static> NodeDecl<C, S> {
    /// Declares an input: a literal in the file, or a key the node reads.
    ///
    /// # Panics
    /// If the node already declares a port of that name.
    #[track_caller]
    pub fn input<T: PortType + ?Sized>(&mut self, name: &str) -> PortDecl<'_, Input<T>> {
        self.port(name, T::TYPE, Direction::In)
    }

    /// Declares an output: a key the node writes.
    ///
    /// # Panics
    /// As [`NodeDecl::input`].
    #[track_caller]
    pub fn output<T: PortType + ?Sized>(&mut self, name: &str) -> PortDecl<'_, Output<T>> {
        self.port(name, T::TYPE, Direction::Out)
    }

    /// Declares a port the node reads and writes through one key.
    ///
    /// # Panics
    /// As [`NodeDecl::input`].
    #[track_caller]
    pub fn in_out<T: PortType + ?Sized>(&mut self, name: &str) -> PortDecl<'_, InOut<T>> {
        self.port(name, T::TYPE, Direction::InOut)
    }

    #[track_caller]
    fn port<H: Handle>(
        &mut self,
        name: &str,
        ty: crate::value::ValueType,
        direction: Direction,
    ) -> PortDecl<'_, H> {
        assert!(
            self.ty.param_spec(name).is_none(),
            "node type `{}` declares port `{name}` twice",
            self.ty.name
        );
        assert!(
            !name.trim().is_empty(),
            "node type `{}` declares a port with an empty name",
            self.ty.name
        );
        let at = At {
            decl: self.id,
            index: self.resolvers.len() as u32,
        };
        self.resolvers.push(H::resolver(name.to_owned()));
        let mut spec = ParamSpec::typed(name, ty, "");
        spec.direction = direction;
        self.ty.params.push(spec);
        PortDecl {
            spec: self.ty.params.last_mut().expect("just pushed"),
            handle: H::at(at),
        }
    }

    /// Gives the node a state of type `S2`, one per agent per node, made when the agent
    /// is (no allocation while ticking): reset to `S2::default()` as each execution
    /// enters, unless [`NodeDecl::keep_state`].
    pub fn state<S2: Default + Clone + Send + 'static>(self) -> NodeDecl<C, S2> {
        NodeDecl {
            ty: self.ty,
            id: self.id,
            resolvers: self.resolvers,
            keep: self.keep,
            observes: self.observes,
            _state: PhantomData,
        }
    }

    /// The state lasts across executions: made once per agent per node, never reset (a
    /// count of uses, the last target chosen).
    pub fn keep_state(mut self) -> Self {
        self.keep = true;
        self
    }

    /// Also accepts `old`, the type's name before a rename: old files load with a
    /// warning and `arbor migrate` rewrites them ([`NodeType::alias`]).
    pub fn alias(mut self, old: &str) -> Self {
        self.ty.aliases.push(old.to_owned());
        self
    }

    /// Its nodes may return running by themselves: for a condition that waits for an
    /// answer, `check` then warns where it is used as a condition ([`NodeType::may_run`]).
    pub fn may_run(mut self) -> Self {
        self.ty.may_run = true;
        self
    }

    /// Says what the node reads (rule 98): a condition attached with an abort then lets
    /// its agent sleep while those inputs are unchanged ([`crate::Registry::observes`]).
    /// Without it a host condition reads the host world, every tick.
    pub fn observes(mut self, observes: crate::observes::Observes) -> Self {
        self.observes = Some(observes);
        self
    }

    /// The declaration so far, as the editor and the loader see it.
    pub fn node_type(&self) -> &NodeType {
        &self.ty
    }

    /// The node's code: runs each time its body does (rule 3), returns its status.
    pub fn tick<F>(self, tick: F) -> HostNode<C, S>
    where
        F: Fn(&mut NodeCtx<'_, C, S>) -> Status + Send + Sync + 'static,
    {
        HostNode {
            decl: self,
            body: Body {
                tick: Box::new(tick),
                enter: None,
                exit: None,
                abort: None,
            },
        }
    }
}

type Hook<C, S> = Box<dyn Fn(&mut NodeCtx<'_, C, S>) + Send + Sync>;
type TickFn<C, S> = Box<dyn Fn(&mut NodeCtx<'_, C, S>) -> Status + Send + Sync>;
type MakeNode<C, S> =
    Box<dyn Fn(&crate::args::Args) -> Result<Declared<C, S>, String> + Send + Sync>;
type ExitHook<C, S> = Box<dyn Fn(&mut NodeCtx<'_, C, S>, Status) + Send + Sync>;

/// The code of a declared node: shared by every node of its type in every tree.
struct Body<C, S> {
    tick: TickFn<C, S>,
    enter: Option<Hook<C, S>>,
    exit: Option<ExitHook<C, S>>,
    abort: Option<Hook<C, S>>,
}

/// A declared node with its code, ready for [`crate::Registry::add`]; add lifecycle
/// hooks (rule 3) with `on_enter`, `on_exit` and `on_abort`.
pub struct HostNode<C, S = ()> {
    decl: NodeDecl<C, S>,
    body: Body<C, S>,
}

impl<C, S> HostNode<C, S> {
    /// Runs when the node starts an execution, before its first tick (after its state,
    /// unless kept, is reset).
    pub fn on_enter(
        mut self,
        hook: impl Fn(&mut NodeCtx<'_, C, S>) + Send + Sync + 'static,
    ) -> Self {
        self.body.enter = Some(Box::new(hook));
        self
    }

    /// Runs whenever the node becomes idle, with the status it ends with (`Failure` after
    /// an abort).
    pub fn on_exit(
        mut self,
        hook: impl Fn(&mut NodeCtx<'_, C, S>, Status) + Send + Sync + 'static,
    ) -> Self {
        self.body.exit = Some(Box::new(hook));
        self
    }

    /// Runs when the node is aborted (rule 28), before `on_exit`.
    pub fn on_abort(
        mut self,
        hook: impl Fn(&mut NodeCtx<'_, C, S>) + Send + Sync + 'static,
    ) -> Self {
        self.body.abort = Some(Box::new(hook));
        self
    }
}

/// What [`crate::Registry::add`] registers: the type, the factory's ingredients and
/// whether the engine must call the hooks.
pub(crate) struct Parts<C, S> {
    pub ty: NodeType,
    pub make: MakeNode<C, S>,
    pub hooks: bool,
    pub stateful: bool,
    pub observes: Option<crate::observes::Observes>,
}

impl<C: 'static, S: Default + Clone + Send + 'static> HostNode<C, S> {
    pub(crate) fn into_parts(self) -> Parts<C, S> {
        let HostNode { decl, body } = self;
        // A state of no size is no state: nothing to make, store or reset.
        let stateful = std::mem::size_of::<S>() != 0;
        let reset = stateful && !decl.keep;
        let hooks = reset || body.enter.is_some() || body.exit.is_some() || body.abort.is_some();
        let body = Arc::new(body);
        let resolvers = decl.resolvers;
        let id = decl.id;
        let keep = decl.keep;
        let observes = decl.observes;
        Parts {
            observes,
            ty: decl.ty,
            make: Box::new(move |args| {
                let ports = resolvers
                    .iter()
                    .map(|resolve| resolve(args))
                    .collect::<Result<Box<[Resolved]>, String>>()?;
                Ok(Declared {
                    ports,
                    body: body.clone(),
                    decl: id,
                    stateful,
                    keep,
                })
            }),
            hooks,
            stateful,
        }
    }
}

/// One node of a declared type in a loaded tree: its ports, resolved, and the type's code.
pub(crate) struct Declared<C, S> {
    ports: Box<[Resolved]>,
    body: Arc<Body<C, S>>,
    decl: u32,
    stateful: bool,
    keep: bool,
}

impl<C, S: Default + 'static> Declared<C, S> {
    /// Runs `f` with this node's context: its state taken from the agent's host states
    /// (or, for a node without state, a value of no size).
    #[inline(always)]
    fn run<R>(&self, cx: &mut ActionCtx<'_, C>, f: impl FnOnce(&mut NodeCtx<'_, C, S>) -> R) -> R {
        if self.stateful {
            with_state(cx, |cx, state: &mut S| f(&mut self.context(cx, state)))
        } else {
            let mut none = S::default();
            f(&mut self.context(cx, &mut none))
        }
    }

    #[inline(always)]
    fn context<'a>(&'a self, cx: &'a mut ActionCtx<'_, C>, state: &'a mut S) -> NodeCtx<'a, C, S> {
        NodeCtx {
            agent: &mut *cx.agent,
            blackboard: &mut *cx.blackboard,
            state,
            host: &mut *cx.host,
            site: cx.site,
            ports: &self.ports,
            decl: self.decl,
        }
    }
}

impl<C, S: Default + Send + 'static> Action<C> for Declared<C, S> {
    fn enter(&self, cx: &mut ActionCtx<'_, C>) {
        self.run(cx, |cx| {
            if !self.keep {
                *cx.state = S::default();
            }
            if let Some(enter) = &self.body.enter {
                enter(cx);
            }
        });
    }

    fn tick(&self, cx: &mut ActionCtx<'_, C>) -> Status {
        self.run(cx, |cx| (self.body.tick)(cx))
    }

    fn exit(&self, cx: &mut ActionCtx<'_, C>, status: Status) {
        if let Some(exit) = &self.body.exit {
            self.run(cx, |cx| exit(cx, status));
        }
    }

    fn abort(&self, cx: &mut ActionCtx<'_, C>) {
        if let Some(abort) = &self.body.abort {
            self.run(cx, |cx| abort(cx));
        }
    }
}

impl<C, S> std::fmt::Debug for NodeDecl<C, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeDecl").field("ty", &self.ty).finish()
    }
}
