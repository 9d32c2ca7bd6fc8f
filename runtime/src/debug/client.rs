//! ClientLink: the sending side of one client's bounded queue, shared by the client's
//! reader thread (replies), the host's tick (frames) and broadcasts (instance changes).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::shared::TickFrame;

/// How long a reply may wait for room in a full queue before the client is given up.
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

/// Why a queue refused an item.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    Full,
    Gone,
}

pub(crate) struct ClientLink {
    pub id: u64,
    /// `ip:port`, for log lines.
    pub peer: String,
    tx: SyncSender<Outgoing>,
    /// Completed the handshake: receives unasked `instances`, `paused` and `resumed`.
    pub greeted: AtomicBool,
    /// The instance list changed (or a broadcast did not fit): send a fresh `instances`.
    pub instances_dirty: AtomicBool,
    /// The connection is ending; the writer stops once it sees this.
    pub closed: AtomicBool,
}

impl ClientLink {
    pub fn new(id: u64, peer: String, tx: SyncSender<Outgoing>) -> ClientLink {
        ClientLink {
            id,
            peer,
            tx,
            greeted: AtomicBool::new(false),
            instances_dirty: AtomicBool::new(false),
            closed: AtomicBool::new(false),
        }
    }

    /// Queues without waiting: what the host's tick uses.
    pub fn try_send(&self, item: Outgoing) -> Result<(), Refused> {
        match self.tx.try_send(item) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(Refused::Full),
            Err(TrySendError::Disconnected(_)) => Err(Refused::Gone),
        }
    }

    /// Queues a reply, waiting a little for room: replies are never dropped, so a client
    /// that leaves its queue full for [`REPLY_PATIENCE`] is disconnected instead (`Err`).
    /// Only network threads call this, never the host's tick.
    pub fn reply(&self, line: String) -> Result<(), Refused> {
        let deadline = Instant::now() + REPLY_PATIENCE;
        let mut item = Outgoing::Line(line);
        loop {
            match self.tx.try_send(item) {
                Ok(()) => return Ok(()),
                Err(TrySendError::Disconnected(_)) => return Err(Refused::Gone),
                Err(TrySendError::Full(back)) => {
                    if Instant::now() >= deadline {
                        return Err(Refused::Full);
                    }
                    item = back;
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
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
