//! AbortType (rule 22) and CheckTrigger's Reset mode (rule 32).

/// When a condition decorator is re-evaluated while something runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AbortType {
    None,
    /// While the owner runs, re-check each tick; false aborts the owner (rule 23).
    SelfOnly,
    /// While a later sibling runs, re-check each tick of the parent (rules 24, 25).
    LowerPriority,
    /// Self and LowerPriority (rule 26).
    Both,
}

impl AbortType {
    pub const NAMES: [&'static str; 4] = ["None", "Self", "LowerPriority", "Both"];

    pub fn parse(name: &str) -> Option<AbortType> {
        match name {
            "None" => Some(AbortType::None),
            "Self" => Some(AbortType::SelfOnly),
            "LowerPriority" => Some(AbortType::LowerPriority),
            "Both" => Some(AbortType::Both),
            _ => None,
        }
    }

    pub fn includes_self(self) -> bool {
        matches!(self, AbortType::SelfOnly | AbortType::Both)
    }

    pub fn includes_lower_priority(self) -> bool {
        matches!(self, AbortType::LowerPriority | AbortType::Both)
    }
}

/// When a CheckTrigger clears its trigger (rule 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reset {
    /// On a successful check (the default).
    Immediate,
    /// When the owner node enters.
    EnterNode,
    /// When the owner node exits or is aborted.
    LeaveNode,
}

impl Reset {
    pub const NAMES: [&'static str; 3] = ["Immediate", "EnterNode", "LeaveNode"];

    pub fn parse(name: &str) -> Option<Reset> {
        match name {
            "Immediate" => Some(Reset::Immediate),
            "EnterNode" => Some(Reset::EnterNode),
            "LeaveNode" => Some(Reset::LeaveNode),
            _ => None,
        }
    }
}
