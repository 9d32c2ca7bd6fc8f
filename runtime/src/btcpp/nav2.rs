//! The controls and decorators of Nav2 (`nav2_behavior_tree`), the navigation stack whose
//! trees are the commonest BT.CPP trees, and the stand-in each is imported with (rule 61),
//! so that a navigation tree previews and runs its branches without the Nav2 plugins.
//! docs/interop.md prints this table and says where each stand-in differs from Nav2.

use crate::spec::StandIn;

/// Nav2 node IDs and their stand-ins.
pub(crate) const STAND_INS: &[(&str, StandIn)] = &[
    // Ticks every child up to the running one again each tick, as a ReactiveSequence
    // does (it does not halt a running later child when an earlier one runs).
    ("PipelineSequence", StandIn::ReactiveSequence),
    // Ticks its first child; on failure the second (the recovery), then retries the
    // first up to `number_of_retries` times. As a Fallback: one recovery, no retry.
    ("RecoveryNode", StandIn::Fallback),
    // Ticks one child per tick in turn until one succeeds: as a Fallback.
    ("RoundRobin", StandIn::Fallback),
    // A Sequence that keeps its place in a blackboard key: as SequenceWithMemory.
    ("PersistentSequence", StandIn::SequenceWithMemory),
    // Decorators that tick their child only now and then (at a rate, every so many
    // metres, on a new goal, once) or update a goal first: pass their child through.
    ("RateController", StandIn::PassThrough),
    ("DistanceController", StandIn::PassThrough),
    ("SpeedController", StandIn::PassThrough),
    ("GoalUpdater", StandIn::PassThrough),
    ("GoalUpdatedController", StandIn::PassThrough),
    ("PathLongerOnApproach", StandIn::PassThrough),
    ("SingleTrigger", StandIn::PassThrough),
];

/// The stand-in of the Nav2 node `id`, if it is one.
pub(crate) fn stand_in(id: &str) -> Option<StandIn> {
    STAND_INS.iter().find(|(n, _)| *n == id).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_is_listed_once() {
        for (i, (id, _)) in STAND_INS.iter().enumerate() {
            assert!(
                STAND_INS[i + 1..].iter().all(|(other, _)| other != id),
                "{id} twice"
            );
        }
        assert_eq!(stand_in("RateController"), Some(StandIn::PassThrough));
        assert_eq!(stand_in("Sequence"), None);
    }
}
