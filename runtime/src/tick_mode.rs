//! How much one call of [`crate::Agent::tick`] or [`crate::Agent::run`] ticks: one root
//! tick (Arbor's semantics and BehaviorTree.CPP's `tickExactlyOnce`), or root ticks repeated
//! while a yielding node asks for one at once (BehaviorTree.CPP 4.8's `tickOnce`, rule 85).

/// Root ticks one call of [`crate::Agent::tick`] or [`crate::Agent::run`] makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TickMode {
    /// One root tick per call (rule 2); BehaviorTree.CPP's `tickExactlyOnce`.
    #[default]
    Once,
    /// After a root tick that returned `running` because a yielding node (rules 49, 50,
    /// 63) ended a run, the root is ticked again at the same time, up to
    /// [`MAX_RETICKS`] times (rule 85); BehaviorTree.CPP 4.8's `tickOnce`.
    RetickAfterYield,
}

/// Extra root ticks one call makes at most in [`TickMode::RetickAfterYield`]: a tree that
/// yields on every tick (an unbounded Repeat over an instant action) would otherwise never
/// return, as it does not in BehaviorTree.CPP.
pub const MAX_RETICKS: u32 = 1000;
