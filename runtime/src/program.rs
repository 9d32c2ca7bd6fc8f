//! The hook through which a tree compiled to Rust runs in place of the interpreter: the
//! core defines it, code generation (`crate::codegen`) implements it, and the core never
//! names code generation.
//!
//! A [`CompiledTree`] may carry one [`Program`] (installed after its shape was checked);
//! an [`crate::Agent`] of that tree calls it for every root tick instead of interpreting
//! the tree. While a program ticks, the interpreter may reach a node whose walk the
//! program emitted (below a node the interpreter ticks itself, such as a Repeat's
//! Sequence): the tick's `Exec` carries the program's [`Loops`] and hands such a node
//! back. Everything else (blackboard, clock, events, triggers, halt, reload, tracing) is
//! the agent's as usual.

use crate::exec::{Exec, State};
use crate::status::Status;
use crate::trace::{Observer, TraceEvent};
use crate::tree::CompiledTree;

/// A tree compiled to Rust, run by an [`crate::Agent`] in place of the interpreter when its
/// tree carries one. Two entry points, so that `Agent::tick` pays no dynamic call per
/// trace event: `tick` is instantiated with the no-op observer `()`, `tick_traced` with
/// `dyn Observer`.
pub trait Program<C>: Send + Sync {
    /// One root tick of the agent whose tree and state these are, without an observer,
    /// after moving the clock by `dt` if given (`Agent::tick`; `Agent::run` without): the
    /// whole tick in the program's own function.
    fn tick(
        &self,
        tree: &CompiledTree<C>,
        state: &mut State,
        data: &mut C,
        dt: Option<f64>,
    ) -> Status;
    /// One root tick reporting every trace event.
    fn tick_traced<'a>(&self, run: &mut Run<'a, '_, C, dyn Observer + 'a>) -> Status;
    /// The program's nodes the interpreter hands back during a traced tick ([`Loops`]).
    fn loops_traced<'o>(&self) -> &dyn Loops<C, dyn Observer + 'o>;
}

/// The nodes of a program whose walk it emitted, by node index: the interpreter hands such
/// a node it reaches below a node it ticks itself (a Repeat's child, say) back to the program through this, so that the whole tree's emitted
/// nodes run as the program's code, not only those reached from the root through them.
pub trait Loops<C, O: ?Sized> {
    /// Ticks node `node` if it is one of the program's; `None` if it is not.
    fn tick_loop(&self, x: &mut Reentry<'_, '_, '_, C, O>, node: u32) -> Option<Status>;
}

/// The interpreter's tick, lent to a program for one of its nodes ([`Loops`]).
pub struct Reentry<'r, 'a, 'c, C, O: ?Sized>(pub(crate) &'r mut Exec<'a, 'c, C, O>);

/// One agent's state borrowed for one traced root tick ([`Program::tick_traced`]).
pub struct Run<'a, 'c, C, O: ?Sized>(pub(crate) Exec<'a, 'c, C, O>);

/// An observer behind any pointer, seen as `dyn Observer` (an unsized observer cannot be
/// coerced to one directly): what a traced tick hands a program.
pub(crate) struct Forward<'o, O: ?Sized>(pub &'o mut O);

impl<O: Observer + ?Sized> Observer for Forward<'_, O> {
    #[inline]
    fn event(&mut self, event: TraceEvent<'_>) {
        self.0.event(event)
    }
}
