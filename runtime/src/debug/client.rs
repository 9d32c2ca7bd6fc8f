//! ClientLink: the sending side of one client's bounded queue, shared by the client's
//! reader thread (replies), the host's tick (frames) and broadcasts (instance changes).
//!
//! The queue is bounded twice: in items (`DebugConfig::queue`) and in bytes
//! (`DebugConfig::queue_bytes`, counted from each item's [`Outgoing::weight`] when it is
//! queued until the writer has written it). The byte bound admits any one item into an
//! empty queue, so a reply larger than the bound can still be sent; the queue therefore
//! never holds more than the bound or one item, whichever is larger.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::shared::TickFrame;

/// How long a reply may wait for room in a full queue, while the writer makes no progress
/// (nothing is taken off the queue), before the client is given up.
const REPLY_PATIENCE: Duration = Duration::from_secs(2);

/// One item of a client's queue, written out by its writer thread.
pub(crate) enum Outgoing {
    /// A ready NDJSON line (replies, `paused`, `resumed`, `hello`).
    Line(String),
    /// A tick frame, serialised by the writer so that the host's tick does not pay for it.
    Tick(Arc<TickFrame>),
    /// Frames of `instance` that did not fit.
    Dropped { instance: u64, frames: u64 },
    /// Look at the flags (an `instances` listing is due).
    Wake,
    /// Write what is queued, then close the connection.
    Close,
}

impl Outgoing {
    /// The bytes the item holds while it waits: a line's length; for a tick frame, its
    /// nodes and blackboard values (an estimate of the memory it keeps alive; frames are
    /// shared between clients, so this counts a frame once per client that holds it).
    pub fn weight(&self) -> usize {
        match self {
            Outgoing::Line(line) => line.len(),
            Outgoing::Tick(frame) => frame.weight(),
            Outgoing::Dropped { .. } => 64,
            Outgoing::Wake | Outgoing::Close => 0,
        }
    }
}

/// Why a queue refused an item.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Full,
    Gone,
}

/// The byte bound of one client's queue, and what it holds.
pub(crate) struct QueueBytes {
    /// Most bytes queued at once (one item of any size is admitted into an empty queue).
    pub limit: usize,
    /// Bytes queued and not yet written.
    pub held: AtomicUsize,
    /// The most any client's queue has held (shared by the server's clients).
    pub peak: Arc<AtomicUsize>,
}

impl QueueBytes {
    pub fn new(limit: usize, peak: Arc<AtomicUsize>) -> QueueBytes {
        QueueBytes {
            limit,
            held: AtomicUsize::new(0),
            peak,
        }
    }

    /// Takes `weight` bytes of the bound, or refuses.
    fn reserve(&self, weight: usize) -> bool {
        let mut held = self.held.load(Ordering::Acquire);
        loop {
            if weight != 0 && held != 0 && held.saturating_add(weight) > self.limit {
                return false;
            }
            let next = held + weight;
            match self
                .held
                .compare_exchange_weak(held, next, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    self.peak.fetch_max(next, Ordering::Relaxed);
                    return true;
                }
                Err(now) => held = now,
            }
        }
    }

    /// Gives `weight` bytes back: the item was written, or could not be queued.
    pub fn release(&self, weight: usize) {
        self.held.fetch_sub(weight, Ordering::AcqRel);
    }
}

pub(crate) struct ClientLink {
    pub id: u64,
    /// `ip:port`, for log lines.
    pub peer: String,
    tx: SyncSender<Outgoing>,
    /// The queue's byte bound; the writer releases what it has written.
    pub bytes: QueueBytes,
    /// Completed the handshake: receives unasked `instances`, `paused` and `resumed`.
    pub greeted: AtomicBool,
    /// The instance list changed (or a broadcast did not fit): send a fresh `instances`.
    pub instances_dirty: AtomicBool,
    /// The connection is ending; the writer stops once it sees this.
    pub closed: AtomicBool,
}

impl ClientLink {
    pub fn new(id: u64, peer: String, tx: SyncSender<Outgoing>, bytes: QueueBytes) -> ClientLink {
        ClientLink {
            id,
            peer,
            tx,
            bytes,
            greeted: AtomicBool::new(false),
            instances_dirty: AtomicBool::new(false),
            closed: AtomicBool::new(false),
        }
    }

    /// Queues without waiting: what the host's tick uses. Refused when the queue is full
    /// in items or in bytes.
    pub fn try_send(&self, item: Outgoing) -> Result<(), Refused> {
        self.try_send_back(item).map_err(|(refused, _)| refused)
    }

    /// As [`ClientLink::try_send`], handing a refused item back.
    fn try_send_back(&self, item: Outgoing) -> Result<(), (Refused, Outgoing)> {
        let weight = item.weight();
        if !self.bytes.reserve(weight) {
            return Err((Refused::Full, item));
        }
        match self.tx.try_send(item) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(back)) => {
                self.bytes.release(weight);
                Err((Refused::Full, back))
            }
            Err(TrySendError::Disconnected(back)) => {
                self.bytes.release(weight);
                Err((Refused::Gone, back))
            }
        }
    }

    /// Queues a reply, waiting for room: replies are never dropped. While the queue is
    /// full the client's requests are not read (so a client cannot queue more replies than
    /// the bound); a client whose writer takes nothing off the queue for
    /// [`REPLY_PATIENCE`] is disconnected instead (`Err`). Only network threads call this,
    /// never the host's tick.
    pub fn reply(&self, line: String) -> Result<(), Refused> {
        let mut deadline = Instant::now() + REPLY_PATIENCE;
        let mut held = self.bytes.held.load(Ordering::Acquire);
        let mut item = Outgoing::Line(line);
        loop {
            match self.try_send_back(item) {
                Ok(()) => return Ok(()),
                Err((Refused::Gone, _)) => return Err(Refused::Gone),
                Err((Refused::Full, back)) => {
                    let now = self.bytes.held.load(Ordering::Acquire);
                    if now < held {
                        // The writer is draining: a slow reader is not a stalled one.
                        deadline = Instant::now() + REPLY_PATIENCE;
                    }
                    held = now;
                    if Instant::now() >= deadline {
                        return Err(Refused::Full);
                    }
                    item = back;
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
    }

    /// Queues a last line past the byte bound (still within the item bound), for a client
    /// about to be disconnected: it then learns why if it ever reads again.
    pub fn last_word(&self, line: String) {
        let item = Outgoing::Line(line);
        let weight = item.weight();
        self.bytes.held.fetch_add(weight, Ordering::AcqRel);
        if self.tx.try_send(item).is_err() {
            self.bytes.release(weight);
        }
    }

    /// Asks for an `instances` listing; if the wake-up does not fit, the writer is busy and
    /// will see the flag after its current item anyway.
    pub fn refresh_instances(&self) {
        if self.greeted.load(Ordering::Acquire) {
            self.instances_dirty.store(true, Ordering::Release);
            let _ = self.try_send(Outgoing::Wake);
        }
    }

    /// Sends an unasked state change (`paused`, `resumed`). If it does not fit, the client
    /// gets an `instances` listing later instead, which carries the same `paused` flag.
    pub fn notify(&self, line: &str) {
        if !self.greeted.load(Ordering::Acquire) {
            return;
        }
        if self.try_send(Outgoing::Line(line.to_owned())) == Err(Refused::Full) {
            self.instances_dirty.store(true, Ordering::Release);
        }
    }

    /// Ends the connection: the writer flushes what is queued and closes the socket.
    pub fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let _ = self.try_send(Outgoing::Close);
    }
}
