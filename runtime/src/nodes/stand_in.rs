//! The compiled kind of a host control or decorator that runs as its declared stand-in
//! (rule 61): the built-in kind whose behaviour it borrows, with that kind's defaults.

use crate::nodes::Kind;
use crate::spec::StandIn;

pub(crate) fn kind(stand_in: StandIn) -> Kind {
    let sequence = |dynamic, memory| Kind::Sequence {
        dynamic,
        memory,
        yields: false,
    };
    match stand_in {
        // A Sequence of one child returns the child's status: a pass-through.
        StandIn::Sequence | StandIn::PassThrough => sequence(false, false),
        StandIn::ReactiveSequence => sequence(true, false),
        StandIn::SequenceWithMemory => sequence(false, true),
        StandIn::Fallback => Kind::Selector {
            dynamic: false,
            yields: false,
        },
        StandIn::ReactiveFallback => Kind::Selector {
            dynamic: true,
            yields: false,
        },
        // `need` is clamped to the number of children: all must succeed.
        StandIn::Parallel => Kind::Parallel {
            need: u32::MAX,
            failures: None,
        },
        StandIn::Inverter => Kind::Inverter,
        StandIn::ForceSuccess => Kind::Succeeder,
        StandIn::ForceFailure => Kind::ForceFailure,
    }
}
