//! Hub: the server state every thread shares: the registered instances, the connected
//! clients, the configuration and the log.
//!
//! Lock order: an instance's control lock may be held while taking `clients` (the host's
//! tick broadcasting `paused`); nothing takes a control lock while holding `clients` or
//! `instances`, so the two cannot deadlock.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::client::ClientLink;
use super::config::{DebugConfig, LogFn};
use super::protocol::{InstanceEntry, ServerMessage, TreeRef};
use super::shared::InstanceShared;

pub(crate) struct Hub {
    pub token: Option<String>,
    pub queue: usize,
    pub queue_bytes: usize,
    pub pending_writes: usize,
    /// The most bytes any client's queue has held.
    pub peak_queue_bytes: Arc<AtomicUsize>,
    pub max_clients: usize,
    log: Option<LogFn>,
    pub instances: Mutex<BTreeMap<u64, Arc<InstanceShared>>>,
    pub clients: Mutex<Vec<Arc<ClientLink>>>,
    /// `clients` is not empty; written under the `clients` lock, read by every instance.
    pub connected: Arc<AtomicBool>,
    pub next_instance: AtomicU64,
    pub stopping: AtomicBool,
    pub hello_timeout: Duration,
    pub idle_timeout: Duration,
    refusals: Mutex<Refusals>,
}

/// Refused connections are logged at most once per [`REFUSAL_LOG_EVERY`]: a client
/// reconnecting in a loop cost one stderr line per attempt (37,306 in one probe).
#[derive(Default)]
struct Refusals {
    /// When the last refusal line was written.
    logged: Option<Instant>,
    /// Refusals since then, not logged.
    unlogged: u64,
}

/// The shortest time between two "refused" log lines.
pub(crate) const REFUSAL_LOG_EVERY: Duration = Duration::from_secs(10);

/// Locks ignoring poison: every critical section leaves the data consistent.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Hub {
    pub fn new(config: &DebugConfig) -> Hub {
        Hub {
            token: config.token.clone().filter(|t| !t.is_empty()),
            queue: config.queue.max(4),
            queue_bytes: config.queue_bytes,
            pending_writes: config.pending_writes,
            peak_queue_bytes: Arc::new(AtomicUsize::new(0)),
            max_clients: config.max_clients.max(1),
            log: config.log.clone(),
            hello_timeout: config.hello_timeout,
            idle_timeout: config.idle_timeout,
            refusals: Mutex::new(Refusals::default()),
            instances: Mutex::new(BTreeMap::new()),
            clients: Mutex::new(Vec::new()),
            connected: Arc::new(AtomicBool::new(false)),
            next_instance: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
        }
    }

    /// Logs a refused connection, or counts it if a refusal was logged less than
    /// [`REFUSAL_LOG_EVERY`] ago; the next line says how many went unlogged.
    pub fn log_refusal(&self, peer: &str) {
        let line = {
            let mut r = lock(&self.refusals);
            let now = Instant::now();
            if r.logged
                .is_some_and(|t| now.duration_since(t) < REFUSAL_LOG_EVERY)
            {
                r.unlogged += 1;
                return;
            }
            let more = std::mem::take(&mut r.unlogged);
            r.logged = Some(now);
            let also = if more > 0 {
                format!(" ({more} more refused since the last such line)")
            } else {
                String::new()
            };
            format!(
                "{peer}: refused, {} clients already connected{also}",
                self.max_clients
            )
        };
        self.log(&line);
    }

    /// One log line, to the host's callback or stderr.
    pub fn log(&self, message: &str) {
        match &self.log {
            Some(log) => log(message),
            None => eprintln!("arbor debug: {message}"),
        }
    }

    pub fn instance(&self, id: u64) -> Option<Arc<InstanceShared>> {
        lock(&self.instances).get(&id).cloned()
    }

    /// A snapshot of the connected clients (the lock is not held while sending).
    pub fn clients(&self) -> Vec<Arc<ClientLink>> {
        lock(&self.clients).clone()
    }

    pub fn add_client(&self, link: Arc<ClientLink>) {
        {
            let mut clients = lock(&self.clients);
            clients.push(link);
            self.connected.store(true, Ordering::Release);
        }
        self.refresh_modes();
    }

    pub fn remove_client(&self, id: u64) {
        {
            let mut clients = lock(&self.clients);
            clients.retain(|c| c.id != id);
            self.connected.store(!clients.is_empty(), Ordering::Release);
        }
        self.refresh_modes();
    }

    /// Recomputes every instance's mode after `connected` changed: ticks start (or stop)
    /// publishing their count for listings.
    fn refresh_modes(&self) {
        let instances: Vec<Arc<InstanceShared>> = lock(&self.instances).values().cloned().collect();
        for shared in instances {
            let control = shared.control();
            shared.update_active(&control);
        }
    }

    /// Sends an unasked message to every greeted client, without waiting.
    pub fn broadcast(&self, message: &ServerMessage<'_>) {
        let line = message.to_line();
        for client in self.clients() {
            client.notify(&line);
        }
    }

    /// Tells every greeted client that the instance list changed.
    pub fn instances_changed(&self) {
        for client in self.clients() {
            client.refresh_instances();
        }
    }

    /// The `instances` message (the reply to `list` when `id` is given).
    pub fn listing(&self, id: Option<&serde_json::Value>) -> String {
        let instances: Vec<Arc<InstanceShared>> = lock(&self.instances).values().cloned().collect();
        let entries = instances
            .iter()
            .map(|i| InstanceEntry {
                instance: i.id,
                name: i.name.clone(),
                tree: TreeRef {
                    guid: i.tree_guid.clone(),
                    name: i.tree_name.clone(),
                },
                paused: i.control().paused,
                ticks: i.ticks.load(Ordering::Relaxed),
            })
            .collect();
        ServerMessage::Instances {
            id: id.cloned(),
            instances: entries,
        }
        .to_line()
    }
}
