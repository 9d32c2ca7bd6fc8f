//! Inbox: the bounded queue between the link's thread and the editor's frame. The editor
//! empties it once per frame; while it draws nothing (minimised, or a long frame), the
//! program goes on ticking and the queue must not grow with it.
//!
//! Once [`CAPACITY`] events wait, new ones are coalesced rather than queued:
//! - a `tick` frame is folded into the newest waiting frame of its instance: its tick count,
//!   clock and root status, each node's latest status, and the blackboard changes of both
//!   (so no value is lost, only statuses of ticks nobody saw);
//! - an `instances` listing replaces the waiting one (the newest list is the whole truth);
//! - a `dropped` count is added to the waiting one of its instance.
//!
//! Everything else (replies, pauses, errors) comes at the pace of the user's requests. Only
//! a server that floods those makes the queue reach [`LIMIT`]; the link then drops the
//! connection rather than the memory.

use std::collections::VecDeque;

use arbor_runtime::debug::{ServerMessage, Tick};

use super::link::LinkEvent;

/// Events that wait before new ones are coalesced.
pub const CAPACITY: usize = 512;
/// Events that wait before the connection is given up.
pub const LIMIT: usize = 4 * CAPACITY;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Inbox {
    events: VecDeque<LinkEvent>,
}

/// The inbox is at [`LIMIT`]: the event was not queued.
#[derive(Debug, PartialEq)]
pub struct Overflow;

impl Inbox {
    /// Queues `event`, or folds it into a waiting one (see the module documentation).
    pub fn push(&mut self, event: LinkEvent) -> Result<(), Overflow> {
        let event = if self.events.len() >= CAPACITY {
            match self.coalesce(event) {
                None => return Ok(()),
                Some(event) => event,
            }
        } else {
            event
        };
        if self.events.len() >= LIMIT {
            return Err(Overflow);
        }
        self.events.push_back(event);
        Ok(())
    }

    /// Everything queued, oldest first.
    pub fn take(&mut self) -> Vec<LinkEvent> {
        self.events.drain(..).collect()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.events.len()
    }

    /// Folds `event` into a waiting one; gives it back when there is none to fold into.
    fn coalesce(&mut self, event: LinkEvent) -> Option<LinkEvent> {
        let LinkEvent::Message(message) = event else {
            return Some(event);
        };
        match message {
            ServerMessage::Tick(later) => {
                let instance = later.instance;
                match self.newest(|m| matches!(m, ServerMessage::Tick(t) if t.instance == instance))
                {
                    Some(ServerMessage::Tick(frame)) => {
                        fold(frame, later);
                        None
                    }
                    _ => Some(LinkEvent::Message(ServerMessage::Tick(later))),
                }
            }
            ServerMessage::Dropped { instance, frames } => {
                match self.newest(
                    |m| matches!(m, ServerMessage::Dropped { instance: i, .. } if *i == instance),
                ) {
                    Some(ServerMessage::Dropped {
                        frames: waiting, ..
                    }) => {
                        *waiting += frames;
                        None
                    }
                    _ => Some(LinkEvent::Message(ServerMessage::Dropped {
                        instance,
                        frames,
                    })),
                }
            }
            listing @ ServerMessage::Instances { .. } => {
                // Out of the queue, and queued again at the end: the new list comes after
                // whatever came between.
                self.events
                    .retain(|e| !matches!(e, LinkEvent::Message(ServerMessage::Instances { .. })));
                Some(LinkEvent::Message(listing))
            }
            other => Some(LinkEvent::Message(other)),
        }
    }

    fn newest(
        &mut self,
        wanted: impl Fn(&ServerMessage<'static>) -> bool,
    ) -> Option<&mut ServerMessage<'static>> {
        self.events.iter_mut().rev().find_map(|e| match e {
            LinkEvent::Message(m) if wanted(m) => Some(m),
            _ => None,
        })
    }
}

/// Folds `later` into `frame`, as if both ticks had been one.
fn fold(frame: &mut Tick<'static>, later: Tick<'static>) {
    frame.tick = later.tick;
    frame.time = later.time;
    frame.status = later.status;
    for (guid, status) in later.nodes {
        match frame.nodes.iter_mut().find(|(g, _)| *g == guid) {
            Some(slot) => slot.1 = status,
            None => frame.nodes.push((guid, status)),
        }
    }
    frame.blackboard.extend(later.blackboard);
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_runtime::debug::NodeStatus;
    use arbor_runtime::Status;
    use serde_json::{json, Map};

    fn tick(instance: u64, tick: u64, node: &str, key: &str) -> LinkEvent {
        let mut blackboard = Map::new();
        blackboard.insert(key.to_owned(), json!(tick));
        LinkEvent::Message(ServerMessage::Tick(Tick {
            instance,
            tick,
            time: tick as f64,
            status: Status::Running,
            nodes: vec![(node.to_owned().into(), NodeStatus::Success)],
            blackboard,
        }))
    }

    #[test]
    fn a_full_inbox_folds_frames_and_keeps_every_value() {
        let mut inbox = Inbox::default();
        for n in 0..CAPACITY as u64 {
            inbox.push(tick(1 + n % 2, n, "a", "x")).expect("room");
        }
        inbox.push(tick(1, 1000, "b", "y")).expect("folded");
        inbox.push(tick(2, 1001, "a", "x")).expect("folded");
        assert_eq!(inbox.len(), CAPACITY, "nothing was added");
        let events = inbox.take();
        let LinkEvent::Message(ServerMessage::Tick(last_of_1)) = &events[CAPACITY - 2] else {
            panic!("not a frame");
        };
        assert_eq!((last_of_1.instance, last_of_1.tick), (1, 1000));
        let nodes: Vec<&str> = last_of_1.nodes.iter().map(|(g, _)| &**g).collect();
        assert_eq!(nodes, ["a", "b"]);
        assert_eq!(last_of_1.blackboard["x"], json!(CAPACITY - 2));
        assert_eq!(last_of_1.blackboard["y"], json!(1000));
        assert!(inbox.take().is_empty());
    }

    #[test]
    fn listings_replace_each_other_and_floods_overflow() {
        let mut inbox = Inbox::default();
        let listing = |n: u64| {
            LinkEvent::Message(ServerMessage::Instances {
                id: Some(json!(n)),
                instances: Vec::new(),
            })
        };
        inbox.push(listing(0)).expect("room");
        for n in 1..CAPACITY as u64 {
            inbox.push(tick(n, n, "a", "x")).expect("room");
        }
        inbox.push(listing(1)).expect("replaced");
        assert_eq!(inbox.len(), CAPACITY);
        let unreadable = || LinkEvent::Unreadable("garbage".into());
        for _ in CAPACITY..LIMIT {
            inbox.push(unreadable()).expect("below the limit");
        }
        assert_eq!(inbox.push(unreadable()), Err(Overflow));
        let events = inbox.take();
        assert!(matches!(
            &events[CAPACITY - 1],
            LinkEvent::Message(ServerMessage::Instances { id: Some(id), .. }) if *id == json!(1)
        ));
    }
}
