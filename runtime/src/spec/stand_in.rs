//! Stand-in behaviours: how a host control or decorator runs where its program is absent
//! (the editor's preview, `arbor run`, tests), declared in its manifest as `stand_in`
//! (docs/semantics.md rule 61). Without one, such a node is a leaf-like stand-in that never
//! ticks its children, so a preview of the branch below it shows nothing.

use serde::{Deserialize, Serialize};

use super::Category;

/// The built-in behaviour a host control or decorator borrows when no program provides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StandIn {
    /// As a Sequence.
    Sequence,
    /// As a Sequence with `dynamic: true` (BT.CPP's ReactiveSequence).
    ReactiveSequence,
    /// As a Sequence with `memory: true` (BT.CPP's SequenceWithMemory, rule 50).
    SequenceWithMemory,
    /// As a Selector (BT.CPP's Fallback).
    Fallback,
    /// As a Selector with `dynamic: true` (BT.CPP's ReactiveFallback).
    ReactiveFallback,
    /// As a Parallel that needs every child to succeed (BT.CPP's default thresholds).
    Parallel,
    /// Ticks its child and returns the child's status.
    PassThrough,
    /// As an Inverter.
    Inverter,
    /// As a Succeeder (BT.CPP's ForceSuccess).
    ForceSuccess,
    /// As a ForceFailure.
    ForceFailure,
}

impl StandIn {
    /// Every stand-in, for messages and the schema.
    pub const ALL: [StandIn; 10] = [
        StandIn::Sequence,
        StandIn::ReactiveSequence,
        StandIn::SequenceWithMemory,
        StandIn::Fallback,
        StandIn::ReactiveFallback,
        StandIn::Parallel,
        StandIn::PassThrough,
        StandIn::Inverter,
        StandIn::ForceSuccess,
        StandIn::ForceFailure,
    ];

    /// The name a manifest writes.
    pub fn as_str(self) -> &'static str {
        match self {
            StandIn::Sequence => "sequence",
            StandIn::ReactiveSequence => "reactive_sequence",
            StandIn::SequenceWithMemory => "sequence_with_memory",
            StandIn::Fallback => "fallback",
            StandIn::ReactiveFallback => "reactive_fallback",
            StandIn::Parallel => "parallel",
            StandIn::PassThrough => "pass_through",
            StandIn::Inverter => "inverter",
            StandIn::ForceSuccess => "force_success",
            StandIn::ForceFailure => "force_failure",
        }
    }

    /// Whether a node type of `category` may borrow this behaviour: the composite ones
    /// suit composites and decorators (one child is a list of one), the decorator ones
    /// only decorators; leaves have their own stand-ins (scripted statuses).
    pub fn fits(self, category: Category) -> bool {
        match self {
            StandIn::PassThrough
            | StandIn::Inverter
            | StandIn::ForceSuccess
            | StandIn::ForceFailure => category == Category::Decorator,
            _ => matches!(category, Category::Composite | Category::Decorator),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_serialised_form() {
        for s in StandIn::ALL {
            let json = serde_json::to_value(s).unwrap();
            assert_eq!(json, serde_json::Value::from(s.as_str()));
            assert_eq!(serde_json::from_value::<StandIn>(json).unwrap(), s);
        }
    }

    #[test]
    fn decorator_behaviours_do_not_fit_composites() {
        assert!(StandIn::Sequence.fits(Category::Decorator));
        assert!(StandIn::Sequence.fits(Category::Composite));
        assert!(!StandIn::PassThrough.fits(Category::Composite));
        assert!(!StandIn::Fallback.fits(Category::Action));
    }
}
