//! DebugServer: binds the listening socket, accepts clients (two threads each, see
//! `connection.rs` and `writer.rs`) and registers instances. Dropping it closes every
//! connection and joins every thread it started.

use std::io::Write;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::Ordering;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::client::{ClientLink, Outgoing, QueueBytes};
use super::config::DebugConfig;
use super::error::DebugError;
use super::hub::{lock, Hub};
use super::instance::Instance;
use super::protocol::{Auth, ErrorCode, ServerMessage, PROTOCOL_VERSION};
use super::shared::InstanceShared;
use super::{connection, writer};
use crate::agent::Agent;
use crate::format::TreeFile;

/// How often the accept loop checks whether the server is stopping. The listener is
/// non-blocking so that shutting down needs no self-connection trick.
const ACCEPT_POLL: Duration = Duration::from_millis(20);

/// A writer blocked this long on a client that does not read is given up.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// One accepted connection: a handle on its socket (to shut it down) and its threads.
struct Connection {
    stream: TcpStream,
    link: Arc<ClientLink>,
    threads: Vec<JoinHandle<()>>,
}

impl Connection {
    fn is_finished(&self) -> bool {
        self.threads.iter().all(JoinHandle::is_finished)
    }

    fn end(self) {
        self.link.close();
        let _ = self.stream.shutdown(Shutdown::Both);
        for thread in self.threads {
            let _ = thread.join();
        }
    }
}

/// The debug server: listens for clients (the editor's **Attach…**, or any tool speaking
/// docs/debug-protocol.md) and lists the agents the host [registers](DebugServer::register).
/// Everything runs on the server's own threads (one accepting, two per client); the host's
/// part is to tick each registered agent through its [`Instance`]. Dropping the server (or
/// [`shutdown`](DebugServer::shutdown)) closes every connection and joins every thread.
///
/// A game loop with one agent, on a loopback port chosen by the system:
///
/// ```
/// use std::sync::Arc;
/// use arbor_runtime::builder::{node, TreeBuilder};
/// use arbor_runtime::debug::{DebugConfig, DebugServer};
/// use arbor_runtime::{Agent, Registry, Status, ValueType};
///
/// struct Guard { alert: bool } // the host's own data, passed to every tick
///
/// let registry = Registry::<Guard>::new();
/// let file = TreeBuilder::new("patrol")
///     .key("alert", ValueType::Bool, false)
///     .root(node("Wait").param("seconds", 1.0))
///     .to_file();
/// let mut agent = Agent::new(Arc::new(registry.loader().load_tree(&file, None)?), 1);
/// let mut guard = Guard { alert: false };
///
/// // Port 0 takes any free port; `local_addr` says which. The usual one is 7878.
/// let server = DebugServer::start(DebugConfig::new("127.0.0.1:0"))?;
/// println!("attach the editor to {}", server.local_addr());
///
/// // `file` is sent to clients that ask for the tree.
/// let mut instance = server.register("guard #1", &agent, &file);
/// for _frame in 0..3 {
///     // Instead of `agent.tick(&mut guard, 0.25)`: `None` while a client has it paused.
///     let status = instance.tick(&mut agent, &mut guard, 0.25);
///     assert_eq!(status, Some(Status::Running)); // no client here: it always ticks
/// }
/// // With inputs (rule 2): the closure runs after the clock moves, before the root ticks.
/// let alert = agent.blackboard().key("alert").expect("declared above");
/// instance.tick_with(&mut agent, &mut guard, 0.25, |agent, guard| {
///     let _ = agent.blackboard_mut().set(alert, guard.alert);
/// });
/// assert_eq!(agent.ticks(), 4);
///
/// drop(instance); // unlisted: clients get a new `instances` listing
/// drop(server); // closes every connection and joins the server's threads
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The other end of the same conversation is the example in the
/// [module documentation](super#a-client).
pub struct DebugServer {
    hub: Arc<Hub>,
    addr: SocketAddr,
    acceptor: Option<JoinHandle<()>>,
    connections: Arc<Mutex<Vec<Connection>>>,
}

impl DebugServer {
    /// Binds the configured address (loopback only, unless `allow_remote` and a token) and
    /// starts accepting clients on a background thread. Fails with a [`DebugError`] when
    /// the configuration's safety rules refuse the address or the socket cannot be bound;
    /// then nothing was started.
    pub fn start(config: DebugConfig) -> Result<DebugServer, DebugError> {
        let addrs = config.resolve()?;
        let bind_error = |source| DebugError::Bind {
            addr: config.addr.clone(),
            source,
        };
        let listener = TcpListener::bind(&addrs[..]).map_err(bind_error)?;
        listener.set_nonblocking(true).map_err(bind_error)?;
        let addr = listener.local_addr().map_err(bind_error)?;
        let hub = Arc::new(Hub::new(&config));
        let connections = Arc::new(Mutex::new(Vec::new()));
        let acceptor = {
            let hub = hub.clone();
            let connections = connections.clone();
            thread::Builder::new()
                .name("arbor-debug-accept".into())
                .spawn(move || accept_loop(listener, hub, connections))
                .map_err(bind_error)?
        };
        Ok(DebugServer {
            hub,
            addr,
            acceptor: Some(acceptor),
            connections,
        })
    }

    /// The address the server listens on (with the actual port when port 0 was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Clients connected now (handshake done or not); at most
    /// [`DebugConfig::max_clients`].
    pub fn clients(&self) -> usize {
        lock(&self.hub.clients).len()
    }

    /// The most bytes any client's queue has held so far (replies and tick frames waiting
    /// to be written): at most [`DebugConfig::queue_bytes`], or one message when a single
    /// message is larger. A host can read it to size the bound.
    pub fn peak_queue_bytes(&self) -> usize {
        self.hub.peak_queue_bytes.load(Ordering::Relaxed)
    }

    /// Lists `agent` to clients as `name` (e.g. "villager #3"); `file` is the tree file it
    /// was compiled from, sent to clients that ask for the tree. Tick the agent through the
    /// returned handle; dropping the handle unregisters it. Clients past the handshake get
    /// a new `instances` listing either way.
    ///
    /// The handle reads the agent's tree (its node GUIDs and blackboard keys) now, and
    /// holds no borrow: the agent stays the host's.
    pub fn register<C>(
        &self,
        name: impl Into<String>,
        agent: &Agent<C>,
        file: &TreeFile,
    ) -> Instance {
        let json = serde_json::to_value(file).unwrap_or_else(|e| {
            self.hub
                .log(&format!("cannot serialise tree `{}`: {e}", file.name));
            serde_json::Value::Null
        });
        self.register_json(name, agent, json)
    }

    /// As [`DebugServer::register`], with the tree file as a `serde_json::Value` (as read
    /// from disk, without parsing it into a [`TreeFile`]).
    pub fn register_json<C>(
        &self,
        name: impl Into<String>,
        agent: &Agent<C>,
        file: serde_json::Value,
    ) -> Instance {
        let id = self.hub.next_instance.fetch_add(1, Ordering::Relaxed);
        let shared = Arc::new(InstanceShared::new(
            id,
            name.into(),
            agent,
            file,
            self.hub.connected.clone(),
        ));
        // Listed first, then given its mode: a client connecting in between either finds
        // it listed or has set `connected` before this reads it.
        lock(&self.hub.instances).insert(id, shared.clone());
        shared.update_active(&shared.control());
        self.hub.instances_changed();
        Instance::new(shared, self.hub.clone())
    }

    /// Stops accepting, closes every connection and joins every thread (as dropping does).
    /// Handles it registered keep working as plain ticks: with no client left, nothing is
    /// paused or traced.
    pub fn shutdown(self) {}
}

impl Drop for DebugServer {
    fn drop(&mut self) {
        self.hub.stopping.store(true, Ordering::Release);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
        let connections = std::mem::take(&mut *lock(&self.connections));
        for connection in connections {
            connection.end();
        }
    }
}

impl std::fmt::Debug for DebugServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DebugServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

fn accept_loop(listener: TcpListener, hub: Arc<Hub>, connections: Arc<Mutex<Vec<Connection>>>) {
    let mut next_client = 1u64;
    while !hub.stopping.load(Ordering::Acquire) {
        match listener.accept() {
            Ok((stream, peer)) => {
                let id = next_client;
                next_client += 1;
                if let Some(connection) = serve(stream, peer, id, &hub) {
                    lock(&connections).push(connection);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                reap(&connections);
                thread::sleep(ACCEPT_POLL);
            }
            Err(e) => {
                hub.log(&format!("accept failed: {e}"));
                thread::sleep(ACCEPT_POLL);
            }
        }
    }
}

/// Joins the threads of connections that ended, so a long-running host does not collect
/// finished threads.
fn reap(connections: &Mutex<Vec<Connection>>) {
    let finished: Vec<Connection> = {
        let mut all = lock(connections);
        let (done, live) = std::mem::take(&mut *all)
            .into_iter()
            .partition(Connection::is_finished);
        *all = live;
        done
    };
    for connection in finished {
        connection.end();
    }
}

/// Starts serving one accepted client; `None` (after a log line) when it is refused.
fn serve(stream: TcpStream, peer: SocketAddr, id: u64, hub: &Arc<Hub>) -> Option<Connection> {
    let peer = peer.to_string();
    let setup = (|| {
        // Accepted sockets may inherit the listener's non-blocking mode.
        stream.set_nonblocking(false)?;
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        stream.try_clone()
    })();
    let write_half = match setup {
        Ok(s) => s,
        Err(e) => {
            hub.log(&format!(
                "client {id} ({peer}): cannot set up the socket: {e}"
            ));
            return None;
        }
    };
    if lock(&hub.clients).len() >= hub.max_clients {
        hub.log_refusal(&peer);
        let refusal = ServerMessage::Error {
            id: None,
            code: ErrorCode::Protocol,
            message: "too many clients".into(),
        };
        let _ = (&stream).write_all(refusal.to_line().as_bytes());
        let _ = stream.shutdown(Shutdown::Both);
        return None;
    }
    let (tx, rx) = sync_channel(hub.queue);
    let bytes = QueueBytes::new(hub.queue_bytes, hub.peak_queue_bytes.clone());
    let link = Arc::new(ClientLink::new(id, peer.clone(), tx, bytes));
    let hello = ServerMessage::Hello {
        protocol: PROTOCOL_VERSION,
        server: concat!("arbor-runtime ", env!("CARGO_PKG_VERSION")).into(),
        auth: if hub.token.is_some() {
            Auth::Token
        } else {
            Auth::None
        },
    };
    let _ = link.try_send(Outgoing::Line(hello.to_line()));
    hub.add_client(link.clone());
    let mut threads = Vec::with_capacity(2);
    let writer = {
        let (hub, link) = (hub.clone(), link.clone());
        thread::Builder::new()
            .name(format!("arbor-debug-write-{id}"))
            .spawn(move || writer::run(rx, write_half, hub, link))
    };
    let reader = writer.and_then(|writer| {
        threads.push(writer);
        let (hub, link) = (hub.clone(), link.clone());
        let read_half = stream.try_clone()?;
        thread::Builder::new()
            .name(format!("arbor-debug-read-{id}"))
            .spawn(move || connection::run(read_half, hub, link))
    });
    match reader {
        Ok(reader) => threads.push(reader),
        Err(e) => {
            hub.log(&format!(
                "client {id} ({peer}): cannot start its threads: {e}"
            ));
            hub.remove_client(id);
            // The connection ends below: its writer (if any) sees the link closed.
        }
    }
    let connection = Connection {
        stream,
        link,
        threads,
    };
    if connection.threads.len() < 2 {
        connection.end();
        return None;
    }
    Some(connection)
}
