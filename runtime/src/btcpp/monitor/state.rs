//! [`NodeState`]: one BT.CPP status byte.

use crate::Status;

/// A node's status as BT.CPP encodes it in one byte: `NodeStatus` (0 idle, 1 running,
/// 2 success, 3 failure, 4 skipped) and, in the Groot2 status buffer only, 10 + the status
/// a node had before it was reset to idle (so a finished node still tells how it ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// Not running (not ticked yet, or reset after it finished).
    Idle,
    /// Ticked and running.
    Running,
    /// Finished with success.
    Success,
    /// Finished with failure.
    Failure,
    /// Skipped by a pre-condition (BT.CPP's SKIPPED; Arbor has no such status).
    Skipped,
    /// Idle again after this status (Groot2's `IDLE_FROM_*`).
    IdleAfter(Status),
}

impl NodeState {
    /// Reads one byte; `None` for a value BT.CPP never writes.
    pub fn from_byte(byte: u8) -> Option<NodeState> {
        Some(match byte {
            0 => NodeState::Idle,
            1 => NodeState::Running,
            2 => NodeState::Success,
            3 => NodeState::Failure,
            4 => NodeState::Skipped,
            11 => NodeState::IdleAfter(Status::Running),
            12 => NodeState::IdleAfter(Status::Success),
            13 => NodeState::IdleAfter(Status::Failure),
            _ => return None,
        })
    }

    /// The status a view draws: the current one, or for an idle node the one it ended
    /// with (`None`: never ran, or skipped).
    pub fn status(self) -> Option<Status> {
        match self {
            NodeState::Running => Some(Status::Running),
            NodeState::Success => Some(Status::Success),
            NodeState::Failure => Some(Status::Failure),
            NodeState::IdleAfter(status) => Some(status),
            NodeState::Idle | NodeState::Skipped => None,
        }
    }

    /// Whether the node is in the current tick's active path (running, or just finished
    /// and not yet reset), as opposed to remembered from an earlier one.
    pub fn is_current(self) -> bool {
        matches!(
            self,
            NodeState::Running | NodeState::Success | NodeState::Failure
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_bt_cpp_writes_is_read_and_no_other() {
        let known: Vec<u8> = (0..=255u8)
            .filter(|b| NodeState::from_byte(*b).is_some())
            .collect();
        assert_eq!(known, vec![0, 1, 2, 3, 4, 11, 12, 13]);
        assert_eq!(
            NodeState::from_byte(13).and_then(NodeState::status),
            Some(Status::Failure)
        );
        assert!(!NodeState::IdleAfter(Status::Success).is_current());
        assert_eq!(NodeState::Skipped.status(), None);
    }
}
