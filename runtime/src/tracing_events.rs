//! `tracing` events for node transitions and `Log` nodes (the `tracing` feature).
//!
//! [`TracingObserver`] is an [`Observer`] that turns each trace event into a `tracing`
//! event with target `arbor`, carrying the agent and the node: `agent` (the agent's trace
//! id, [`crate::Agent::trace_id`]), `node` (its GUID), `name` and `type`, plus `status`
//! where there is one. Enter, tick, exit, abort and condition checks are `TRACE` events;
//! a `Log` node's message is an `INFO` event with a `message` field.
//!
//! With the feature on, [`crate::Agent::tick`] and [`crate::Agent::run`] tick through it
//! whenever a subscriber wants `arbor` events at `INFO` or finer, so a program sees its
//! trees in its usual logs without changing a line. With the feature off, none of this
//! code exists: ticking is exactly what it is without it.

use std::sync::Arc;

use crate::trace::{NodeId, Observer, TraceEvent};
use crate::tree::NodeInfo;

/// Emits every trace event of an agent's tick as a `tracing` event (see the module
/// documentation).
#[derive(Clone, Debug)]
pub struct TracingObserver {
    agent: u64,
    info: Arc<[NodeInfo]>,
}

impl TracingObserver {
    /// An observer for agent `agent` running `tree`.
    pub fn new<C>(agent: u64, tree: &crate::CompiledTree<C>) -> TracingObserver {
        TracingObserver {
            agent,
            info: tree.info.clone(),
        }
    }

    fn node(&self, node: NodeId) -> (&str, &str, &str) {
        self.info.get(node.index()).map_or(("", "", ""), |i| {
            (i.guid.as_str(), i.name.as_str(), i.kind.as_str())
        })
    }
}

impl Observer for TracingObserver {
    fn event(&mut self, event: TraceEvent<'_>) {
        let agent = self.agent;
        let (node, name, kind) = self.node(event.node());
        match event {
            TraceEvent::Enter(_) => {
                tracing::trace!(target: "arbor", agent, node, name, r#type = kind, "enter");
            }
            TraceEvent::Tick(_, status) => {
                let status = status.as_str();
                tracing::trace!(target: "arbor", agent, node, name, r#type = kind, status, "tick");
            }
            TraceEvent::Exit(_, status) => {
                let status = status.map_or("aborted", |s| s.as_str());
                tracing::trace!(target: "arbor", agent, node, name, r#type = kind, status, "exit");
            }
            TraceEvent::Abort(_) => {
                tracing::trace!(target: "arbor", agent, node, name, r#type = kind, "abort");
            }
            TraceEvent::Check {
                decorator, passed, ..
            } => {
                tracing::trace!(
                    target: "arbor", agent, node, name, r#type = kind, decorator, passed, "check"
                );
            }
            TraceEvent::Log { message, .. } => {
                tracing::info!(target: "arbor", agent, node, name, r#type = kind, "{message}");
            }
        }
    }
}

/// Whether a subscriber wants `arbor` events now (one cached callsite check).
#[inline]
pub(crate) fn wanted() -> bool {
    tracing::enabled!(target: "arbor", tracing::Level::INFO)
}
