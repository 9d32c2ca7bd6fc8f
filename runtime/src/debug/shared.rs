//! InstanceShared: what the network threads know about one registered instance, and the
//! control state (pause, steps, breakpoints, queued writes, subscribers) through which they
//! steer it. Only the host's tick call touches the agent; it reads this state when the
//! `mode` says something needs it.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value as Json;

use super::client::{ClientLink, Outgoing, Refused};
use super::protocol::NodeStatus;
use crate::agent::Agent;
use crate::blackboard::KeyInfo;
use crate::status::Status;
use crate::trace::NodeId;
use crate::value::Value;

/// One tick of an instance, as sent to its subscribers. Nodes and keys are indices into
/// `guids` and `keys`, resolved to strings by each client's writer thread.
#[derive(Debug)]
pub(crate) struct TickFrame {
    pub instance: u64,
    pub tick: u64,
    pub time: f64,
    pub status: Status,
    pub nodes: Vec<(u32, NodeStatus)>,
    pub blackboard: Vec<(u32, Value)>,
    pub guids: Arc<[Arc<str>]>,
    pub keys: Arc<[KeyInfo]>,
}

impl TickFrame {
    /// The bytes the frame keeps alive while it waits in a queue (its names are shared).
    pub fn weight(&self) -> usize {
        64 + self.nodes.len() * std::mem::size_of::<(u32, NodeStatus)>()
            + self.blackboard.len() * std::mem::size_of::<(u32, Value)>()
    }
}

/// A client subscribed to an instance.
pub(crate) struct Subscriber {
    pub link: Arc<ClientLink>,
    /// Its next frame must carry every key: it has not had one yet, or frames it missed
    /// carried changes it never saw.
    pub fresh: bool,
    /// Frames that did not fit since the last `dropped` report.
    pub dropped: u64,
}

/// Requests waiting for the host's next tick call, and the subscribers.
#[derive(Default)]
pub(crate) struct Control {
    pub paused: bool,
    /// The client whose `pause` or `step` holds the instance; its disconnect releases it.
    pub held_by: Option<u64>,
    /// Ticks to run despite `paused` (each pauses again after it).
    pub steps: u32,
    /// Node indices (every node with a breakpoint GUID).
    pub breakpoints: BTreeSet<u32>,
    /// `breakpoints` changed since the tick copied them.
    pub breakpoints_changed: bool,
    /// Blackboard writes (key name, value already checked against the key's type).
    pub writes: Vec<(String, Json)>,
    /// What `writes` holds, in bytes (bounded by `DebugConfig::pending_writes`).
    pub writes_bytes: usize,
    pub subscribers: Vec<Subscriber>,
}

impl Control {
    /// Whether the host's tick must look at this state (or trace) at all.
    fn needs_attention(&self) -> bool {
        self.paused
            || self.steps > 0
            || self.breakpoints_changed
            || !self.breakpoints.is_empty()
            || !self.writes.is_empty()
            || !self.subscribers.is_empty()
    }

    /// Queues `frame` (or `full()`, every key, for fresh subscribers) to every subscriber
    /// without waiting; a full queue drops the frame and counts it, and the subscriber's
    /// next frame is a full one, so its blackboard is whole again. A gone client is
    /// removed. `full` is called only when some subscriber needs it.
    pub fn publish(
        &mut self,
        instance: u64,
        frame: &Arc<TickFrame>,
        mut full: impl FnMut() -> Arc<TickFrame>,
    ) {
        self.subscribers.retain_mut(|sub| {
            if sub.dropped > 0 {
                match sub.link.try_send(Outgoing::Dropped {
                    instance,
                    frames: sub.dropped,
                }) {
                    Ok(()) => sub.dropped = 0,
                    Err(Refused::Full) => {
                        sub.dropped += 1;
                        return true;
                    }
                    Err(Refused::Gone) => return false,
                }
            }
            let chosen = if sub.fresh { full() } else { frame.clone() };
            match sub.link.try_send(Outgoing::Tick(chosen)) {
                Ok(()) => {
                    sub.fresh = false;
                    true
                }
                Err(Refused::Full) => {
                    sub.dropped += 1;
                    sub.fresh = true;
                    true
                }
                Err(Refused::Gone) => false,
            }
        });
    }
}

/// What the host's tick call does besides ticking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    /// No client connected: nothing at all.
    Idle = 0,
    /// Clients connected, none interested in this instance: publish the tick count.
    Count = 1,
    /// Requests to apply, subscribers or breakpoints: take the control lock.
    Attend = 2,
}

pub(crate) struct InstanceShared {
    pub id: u64,
    pub name: String,
    pub tree_guid: String,
    pub tree_name: String,
    /// The tree file as registered, for `tree` replies.
    pub file: Json,
    /// Node GUIDs by node index.
    pub guids: Arc<[Arc<str>]>,
    pub keys: Arc<[KeyInfo]>,
    /// What the host's tick call must do besides ticking, as one of the `Mode`s: derived
    /// from the control state and `connected`, so that an unwatched tick reads one atomic
    /// and takes no lock.
    mode: AtomicU8,
    /// Whether any client is connected (shared by every instance of the server).
    connected: Arc<AtomicBool>,
    /// The agent's tick count after the host's last tick call while a client was connected,
    /// for listings.
    pub ticks: AtomicU64,
    control: Mutex<Control>,
}

impl InstanceShared {
    /// Describes `agent`'s tree (node GUIDs by index, keys) for the network threads.
    pub fn new<C>(
        id: u64,
        name: String,
        agent: &Agent<C>,
        file: Json,
        connected: Arc<AtomicBool>,
    ) -> InstanceShared {
        let tree = agent.tree();
        let guids = (0..tree.len())
            .map(|i| Arc::from(tree.info(NodeId::from_index(i)).guid.as_str()))
            .collect();
        InstanceShared {
            id,
            name,
            tree_guid: tree.guid().to_owned(),
            tree_name: tree.name().to_owned(),
            file,
            guids,
            keys: tree.keys.clone(),
            mode: AtomicU8::new(Mode::Idle as u8),
            connected,
            ticks: AtomicU64::new(agent.ticks()),
            control: Mutex::new(Control::default()),
        }
    }

    /// Locks the control state. A panic while it was held (in a host action on the host's
    /// thread, say) leaves it consistent, so poisoning is ignored rather than spread.
    pub fn control(&self) -> MutexGuard<'_, Control> {
        self.control.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Call with the lock held, after every change (and after `connected` changed). The
    /// flag is read under the lock, so of two racing updates the later one wins.
    pub fn update_active(&self, control: &Control) {
        let mode = if control.needs_attention() {
            Mode::Attend
        } else if self.connected.load(Ordering::Acquire) {
            Mode::Count
        } else {
            Mode::Idle
        };
        self.mode.store(mode as u8, Ordering::Relaxed);
    }

    /// The host's one atomic load per tick.
    #[inline(always)]
    pub fn mode(&self) -> Mode {
        match self.mode.load(Ordering::Relaxed) {
            0 => Mode::Idle,
            1 => Mode::Count,
            _ => Mode::Attend,
        }
    }

    /// Node indices carrying this GUID (a subtree used twice has its GUIDs twice).
    pub fn nodes_with_guid(&self, guid: &str) -> Vec<u32> {
        self.guids
            .iter()
            .enumerate()
            .filter(|(_, g)| &***g == guid)
            .map(|(i, _)| i as u32)
            .collect()
    }
}
