//! NodeCtx: what a declared host node's code sees while it runs.
//!
//! The same as [`crate::ActionCtx`] (the agent's data, its blackboard, clock, `dt`, RNG,
//! the node's name and GUID), plus the node's declared ports, read and written through
//! their handles, and its state. Its fields are public and disjoint, so the code can hold
//! `cx.agent` and `cx.state` at once.

use crate::blackboard::Blackboard;
use crate::exec::Host;
use crate::host::Site;
use crate::port::{PortType, ScalarPort};

use super::ports::{Readable, Resolved, Writable};

/// What a node declared with [`crate::NodeDecl`] sees while it runs; `S` is its state
/// (`()` when it declares none).
pub struct NodeCtx<'a, C, S = ()> {
    /// The program's own data for this agent.
    pub agent: &'a mut C,
    /// This agent's blackboard.
    pub blackboard: &'a mut Blackboard,
    /// This node's state for this agent ([`crate::NodeDecl::state`]).
    pub state: &'a mut S,
    pub(crate) host: &'a mut Host,
    pub(crate) site: Site,
    pub(crate) ports: &'a [Resolved],
    pub(crate) decl: u32,
}

impl<C, S> NodeCtx<'_, C, S> {
    /// Reads an input (or in-out) port: its literal, or the bound key's valid value.
    /// `None` when the key has no valid value, or for an optional port the file leaves
    /// out. An array access; no allocation.
    #[inline]
    pub fn get<'p, T: PortType + ?Sized, P: Readable<T>>(
        &'p self,
        port: &P,
    ) -> Option<T::Read<'p>> {
        let resolved = self.resolved_in(self.ports, port.at())?;
        P::in_port(resolved)?.read(self.blackboard)
    }

    /// Writes an output (or in-out) port's key; nothing when the output is unbound.
    #[inline]
    pub fn set<T: ScalarPort + ?Sized, P: Writable<T>>(
        &mut self,
        port: &P,
        value: impl Into<T::Write>,
    ) {
        let ports = self.ports;
        if let Some(out) = self.resolved_in(ports, port.at()).and_then(P::out_port) {
            out.write(self.blackboard, value.into());
        }
    }

    crate::host::run_accessors!();

    /// The resolved port a handle names, if the handle is this declaration's.
    #[inline(always)]
    fn resolved_in<'p>(
        &self,
        ports: &'p [Resolved],
        (decl, index): (u32, u32),
    ) -> Option<&'p (dyn std::any::Any + Send + Sync)> {
        // A handle from another declaration would name another node's port.
        debug_assert_eq!(decl, self.decl, "a port handle used in another node's code");
        if decl != self.decl {
            return None;
        }
        ports.get(index as usize).map(|p| &**p)
    }
}
