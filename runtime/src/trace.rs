//! Tracing: observers receive every lifecycle event of a tick, for the editor's preview,
//! the CLI's `--trace`, debugging and tests (as BT.CPP's `TreeObserver`).
//!
//! The engine is generic over the observer, so ticking with `()` compiles the tracing away:
//! no branch, no call, no cost.

use crate::status::Status;

/// A node of a compiled tree: its index in depth-first pre-order (the root is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The node's position in the tree's pre-order (the root is 0).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The node at pre-order `index`; check it against `CompiledTree::len`.
    pub fn from_index(index: usize) -> NodeId {
        NodeId(index as u32)
    }
}

/// One thing that happened during a tick, in execution order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceEvent<'a> {
    /// The node entered (rule 3, step 2).
    Enter(NodeId),
    /// The node's body ran and produced a status (rule 3, step 3).
    Tick(NodeId, Status),
    /// The node became idle: `Some(status)` after completing (the status its parent
    /// receives, after post-decorators), `None` when aborted (rule 28).
    Exit(NodeId, Option<Status>),
    /// The node was aborted (rule 28); its exit follows.
    Abort(NodeId),
    /// A condition decorator was evaluated: the node, the decorator's position in the
    /// node's list, and its result (after `invert`).
    Check {
        /// The decorated node.
        node: NodeId,
        /// The decorator's position in the node's list (0 = outermost).
        decorator: u32,
        /// Its result, after `invert`.
        passed: bool,
    },
    /// A `Log` leaf ran, or a script of the node stopped (a key without a value, rule 86;
    /// a string longer than `script::MAX_STRING_LEN` or a non-finite number stored, rule
    /// 51), with the located message of `script::Program::stop_message`.
    Log {
        /// The `Log` node, or the node whose script (its own or a script decorator's)
        /// stopped; a pre-script (rule 54) stops before its node enters.
        node: NodeId,
        /// The message, with its placeholders filled in.
        message: &'a str,
    },
}

impl TraceEvent<'_> {
    /// The node the event concerns.
    pub fn node(&self) -> NodeId {
        match *self {
            TraceEvent::Enter(n)
            | TraceEvent::Tick(n, _)
            | TraceEvent::Exit(n, _)
            | TraceEvent::Abort(n)
            | TraceEvent::Check { node: n, .. }
            | TraceEvent::Log { node: n, .. } => n,
        }
    }
}

/// Receives trace events.
pub trait Observer {
    /// Called for each event, in execution order.
    fn event(&mut self, event: TraceEvent<'_>);
}

/// No observer: tracing compiles to nothing.
impl Observer for () {
    #[inline(always)]
    fn event(&mut self, _: TraceEvent<'_>) {}
}

impl<F: FnMut(TraceEvent<'_>)> Observer for F {
    fn event(&mut self, event: TraceEvent<'_>) {
        self(event)
    }
}

/// An owned trace event, as kept by [`Recorder`].
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    /// [`TraceEvent::Enter`].
    Enter(NodeId),
    /// [`TraceEvent::Tick`].
    Tick(NodeId, Status),
    /// [`TraceEvent::Exit`].
    Exit(NodeId, Option<Status>),
    /// [`TraceEvent::Abort`].
    Abort(NodeId),
    /// [`TraceEvent::Check`].
    Check {
        /// The decorated node.
        node: NodeId,
        /// The decorator's position in the node's list.
        decorator: u32,
        /// Its result, after `invert`.
        passed: bool,
    },
    /// [`TraceEvent::Log`], with the message owned.
    Log(NodeId, String),
}

/// Keeps every event it observes, in order, **across ticks**: the events accumulate until
/// [`Recorder::clear`], which empties the list and keeps its buffer (so a recorder cleared
/// before each tick holds that tick's events and stops allocating once warm).
///
/// ```
/// use std::sync::Arc;
/// use arbor_runtime::builder::{node, TreeBuilder};
/// use arbor_runtime::{Agent, Recorded, Recorder, Registry};
///
/// let tree = TreeBuilder::new("t").root(node("Wait").param("seconds", 0.0));
/// let mut agent = Agent::new(Arc::new(tree.build(&Registry::<()>::new())?), 1);
/// let mut recorder = Recorder::default();
/// agent.tick_traced(&mut (), 0.1, &mut recorder);
/// agent.tick_traced(&mut (), 0.1, &mut recorder);
/// let enters = recorder.events.iter().filter(|e| matches!(e, Recorded::Enter(_)));
/// assert_eq!(enters.count(), 2, "both ticks are kept");
/// recorder.clear();
/// assert!(recorder.events.is_empty());
/// # Ok::<(), arbor_runtime::LoadError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// Every event observed since the last [`Recorder::clear`], in execution order.
    pub events: Vec<Recorded>,
}

impl Recorder {
    /// Forgets the events recorded so far, keeping the buffer's capacity.
    pub fn clear(&mut self) {
        self.events.clear();
    }
}

impl Observer for Recorder {
    fn event(&mut self, event: TraceEvent<'_>) {
        self.events.push(match event {
            TraceEvent::Enter(n) => Recorded::Enter(n),
            TraceEvent::Tick(n, s) => Recorded::Tick(n, s),
            TraceEvent::Exit(n, s) => Recorded::Exit(n, s),
            TraceEvent::Abort(n) => Recorded::Abort(n),
            TraceEvent::Check {
                node,
                decorator,
                passed,
            } => Recorded::Check {
                node,
                decorator,
                passed,
            },
            TraceEvent::Log { node, message } => Recorded::Log(node, message.to_owned()),
        });
    }
}
