//! Attached decorators: the `decorators` list on any node (rules 21–23, 29, 30, 32).
//!
//! Four roles (rule 21): *condition* (Condition, Precondition, CheckEvent, CheckTrigger),
//! evaluated top to bottom before a node runs; *pre* (CheckTrigger with reset EnterNode),
//! run as the node enters; *post* (Inverter, CheckTrigger with reset LeaveNode), run bottom
//! to top after it completes; *abort* (CheckTrigger with reset LeaveNode), run bottom to top
//! after it is aborted. The engine in `exec` applies them; this module holds their
//! declarations and compiled form.

mod abort_type;
mod lower;
pub(crate) mod script;

pub(crate) use abort_type::{AbortType, Reset};
pub(crate) use lower::{builtin_types, host_condition, lower};

use crate::blackboard::Key;
use crate::nodes::Operand;

/// The observation index of a host condition that reads the host world (rule 98).
pub(crate) const NO_OBSERVATION: u32 = u32::MAX;

/// A compiled attached decorator.
#[derive(Clone, Debug)]
pub(crate) struct Decorator {
    pub kind: DecoratorKind,
    pub invert: bool,
    pub abort: AbortType,
}

#[derive(Clone, Debug)]
pub(crate) enum DecoratorKind {
    /// Condition and Precondition (which is a Condition whose abort is always Self).
    Condition {
        key: Key,
        equals: Operand,
    },
    CheckEvent {
        event: u32,
    },
    CheckTrigger {
        trigger: u32,
        reset: Reset,
    },
    /// The post-decorator of rule 29.
    Inverter,
    /// A host condition attached as a decorator: indices into the tree's action table and
    /// the agent's host states, and whether the action has lifecycle hooks (as for
    /// `Kind::Host`), and its observation among the tree's (`NO_OBSERVATION`: it reads
    /// the host world, rule 98). The indices are placeholders until the emitter builds
    /// the action.
    Host {
        action: u32,
        state: u32,
        hooks: bool,
        observes: u32,
    },
    /// A script decorator (rules 54 to 60): a pre- or post-script by its role.
    Script {
        role: script::Role,
        program: std::sync::Arc<crate::script::Program>,
    },
}

impl DecoratorKind {
    /// A condition decorator's raw result (before `invert`) on node `i`, for the kinds
    /// that read only the agent's inputs (blackboard, events, triggers); a host condition
    /// is the engine's to run and reads as `true` here, as an Inverter or a script does.
    pub(crate) fn evaluate_inputs(
        &self,
        bb: &crate::blackboard::Blackboard,
        st: &crate::exec::Nodes,
        i: u32,
    ) -> bool {
        match self {
            DecoratorKind::Condition { key, equals } => equals.matches(bb.get(*key), bb),
            DecoratorKind::CheckEvent { event } => st.event_visible(*event, i),
            DecoratorKind::CheckTrigger { trigger, .. } => st.triggers[*trigger as usize],
            DecoratorKind::Host { .. } | DecoratorKind::Inverter | DecoratorKind::Script { .. } => {
                true
            }
        }
    }
}

impl Decorator {
    pub fn is_condition(&self) -> bool {
        !matches!(
            self.kind,
            DecoratorKind::Inverter | DecoratorKind::Script { .. }
        )
    }

    /// A host condition, whose action the emitter still has to build.
    pub fn is_host(&self) -> bool {
        matches!(self.kind, DecoratorKind::Host { .. })
    }

    pub(crate) fn map_keys(&mut self, map: &impl Fn(Key) -> Key) {
        match &mut self.kind {
            DecoratorKind::Condition { key, equals } => {
                *key = map(*key);
                equals.map_keys(map);
            }
            DecoratorKind::Script { program, .. } => {
                std::sync::Arc::make_mut(program).map_keys(map)
            }
            _ => {}
        }
    }
}
