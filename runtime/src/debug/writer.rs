//! The writer thread of one client: drains the client's queue onto the socket, serialises
//! tick frames (off the host's thread) and sends `instances` listings when they are due.
//! It ends on `Close`, when the link is closed, or when a write fails or times out; then it
//! shuts the socket down, which also ends the client's reader.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Map;

use super::client::{ClientLink, Outgoing};
use super::hub::Hub;
use super::protocol::{ServerMessage, Tick};
use super::shared::TickFrame;

/// How often an idle writer checks whether its connection is ending.
const POLL: Duration = Duration::from_millis(50);

pub(crate) fn run(rx: Receiver<Outgoing>, stream: TcpStream, hub: Arc<Hub>, link: Arc<ClientLink>) {
    let mut out = BufWriter::new(&stream);
    let result = pump(&rx, &mut out, &hub, &link).and_then(|()| out.flush());
    if let Err(e) = result {
        if !link.closed.load(Ordering::Acquire) {
            hub.log(&format!(
                "client {} ({}): cannot write, disconnecting: {e}",
                link.id, link.peer
            ));
        }
    }
    link.closed.store(true, Ordering::Release);
    drop(out);
    let _ = stream.shutdown(Shutdown::Both);
}

fn pump(
    rx: &Receiver<Outgoing>,
    out: &mut impl Write,
    hub: &Hub,
    link: &ClientLink,
) -> io::Result<()> {
    loop {
        let first = match rx.recv_timeout(POLL) {
            Ok(item) => item,
            Err(RecvTimeoutError::Timeout) if link.closed.load(Ordering::Acquire) => return Ok(()),
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        if !write_item(first, out, link)? {
            return Ok(());
        }
        while let Ok(item) = rx.try_recv() {
            if !write_item(item, out, link)? {
                return Ok(());
            }
        }
        if link.instances_dirty.swap(false, Ordering::AcqRel) {
            out.write_all(hub.listing(None).as_bytes())?;
        }
        out.flush()?;
    }
}

/// Writes one item, then gives its bytes back to the queue's bound; false for `Close`.
fn write_item(item: Outgoing, out: &mut impl Write, link: &ClientLink) -> io::Result<bool> {
    let weight = item.weight();
    let written = write_one(item, out);
    link.bytes.release(weight);
    written
}

fn write_one(item: Outgoing, out: &mut impl Write) -> io::Result<bool> {
    match item {
        Outgoing::Line(line) => out.write_all(line.as_bytes())?,
        Outgoing::Tick(frame) => out.write_all(tick_line(&frame).as_bytes())?,
        Outgoing::Dropped { instance, frames } => out.write_all(
            ServerMessage::Dropped { instance, frames }
                .to_line()
                .as_bytes(),
        )?,
        Outgoing::Wake => {}
        Outgoing::Close => return Ok(false),
    }
    Ok(true)
}

fn tick_line(frame: &TickFrame) -> String {
    let nodes = frame
        .nodes
        .iter()
        .filter_map(|&(n, status)| {
            frame
                .guids
                .get(n as usize)
                .map(|g| (Cow::Borrowed(&**g), status))
        })
        .collect();
    let blackboard: Map<String, serde_json::Value> = frame
        .blackboard
        .iter()
        .filter_map(|(k, value)| {
            frame
                .keys
                .get(*k as usize)
                .map(|info| (info.name.clone(), value.to_json()))
        })
        .collect();
    ServerMessage::Tick(Tick {
        instance: frame.instance,
        tick: frame.tick,
        time: frame.time,
        status: frame.status,
        nodes,
        blackboard,
    })
    .to_line()
}
