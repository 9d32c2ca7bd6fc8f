//! Remote debugging: a small TCP server (feature `debug-server`) that lets clients (the
//! editor's **Attach…**, or any tool) watch and steer the tree instances a host registers,
//! and the protocol both ends speak (feature `debug-protocol`, implied by `debug-server`).
//! The wire protocol is docs/debug-protocol.md; docs/embedding.md shows the host side.
//!
//! # Brief overview
//! - The protocol, one definition for both ends: [`ServerMessage`] (server to client),
//!   [`Request`] (client to server), [`PROTOCOL_VERSION`], [`DEFAULT_ADDR`], and the
//!   framing: one JSON message per line, read by [`LineReader`] with one limit,
//!   [`MAX_LINE`].
//! - [`DebugServer`] listens on the address of a [`DebugConfig`] (loopback unless the host
//!   opts in *and* sets a token) and serves each client on two threads: a reader that
//!   answers requests, and a writer that drains the client's bounded queue.
//! - [`DebugServer::register`] lists an agent under a name and returns an [`Instance`]: the
//!   host ticks through [`Instance::tick`] (or [`Instance::tick_with`]) instead of
//!   [`crate::Agent::tick`]. Dropping the handle unregisters the instance.
//!
//! Invariants that keep the game safe:
//! - The network threads never touch an agent. Requests that change one (pause, step,
//!   breakpoints, blackboard writes) are queued and applied by the host's next tick call.
//! - With no client connected, a tick costs one relaxed atomic load on top of
//!   `Agent::tick`; with clients connected but none subscribed to the instance and nothing
//!   queued for it, a relaxed store of the tick count as well. Nothing is traced then.
//! - Ticking never waits for the network: frames go to each client's bounded queue with
//!   `try_send`; a full queue drops frames and counts them (`dropped`).
//! - A misbehaving client (garbage, a huge line, a stall, a disconnect) costs a log line and
//!   its own connection, never a panic; dropping the server ends and joins every thread.
//!
//! The host side, a game loop that can be debugged, is the example of [`DebugServer`] (and
//! docs/embedding.md, "Remote debugging"); [`DebugConfig`] shows what it takes to listen
//! beyond this machine.
//!
//! # A client
//!
//! A tool that watches a game needs only the protocol (feature `debug-protocol`): connect,
//! answer the server's `hello`, then send requests and read messages, one line each. Here
//! both ends run in one thread, so the host's tick call is made between the client's reads;
//! in practice the game ticks on its own and the client sees its frames as they come.
//!
//! ```
//! # #[cfg(feature = "debug-server")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::io::{BufReader, Write};
//! use std::net::TcpStream;
//! use std::time::Duration;
//! use arbor_runtime::debug::{
//!     Auth, DebugConfig, DebugServer, Framed, LineReader, NodeStatus, PauseReason, Request,
//!     ServerMessage,
//! };
//! # use std::sync::Arc;
//! # use arbor_runtime::builder::{node, TreeBuilder};
//! # use arbor_runtime::{Agent, Registry, ValueType};
//! # let file = TreeBuilder::new("patrol")
//! #     .key("alert", ValueType::Bool, false)
//! #     .root(node("Wait").param("seconds", 1.0))
//! #     .to_file();
//! # let mut agent = Agent::new(Arc::new(Registry::<()>::new().loader().load_tree(&file, None)?), 1);
//!
//! // The host: a server that asks for a token, and one agent (a `Wait` at the root).
//! let server = DebugServer::start(DebugConfig::new("127.0.0.1:0").token("s3cret"))?;
//! let mut instance = server.register("guard #1", &agent, &file);
//!
//! // The client.
//! let socket = TcpStream::connect(server.local_addr())?;
//! socket.set_read_timeout(Some(Duration::from_secs(10)))?;
//! let mut writer = socket.try_clone()?;
//! let mut reader = LineReader::new(BufReader::new(socket));
//! let mut next = move || -> Result<ServerMessage<'static>, Box<dyn std::error::Error>> {
//!     match reader.read()? {
//!         Framed::Line(line) => Ok(ServerMessage::from_line(line)?),
//!         Framed::Eof | Framed::TooLong => Err("the server closed the connection".into()),
//!     }
//! };
//! let mut send = move |request: Request| writer.write_all(request.to_line().as_bytes());
//!
//! // The handshake: the server speaks first, and says that it wants the token.
//! let ServerMessage::Hello { auth: Auth::Token, .. } = next()? else { panic!() };
//! send(Request::hello("my-tool 1.0", Some("s3cret".into())))?;
//! assert_eq!(next()?, ServerMessage::Welcome);
//!
//! // What runs there?
//! send(Request::List)?;
//! let ServerMessage::Instances { instances, .. } = next()? else { panic!() };
//! assert_eq!(instances[0].name, "guard #1");
//! assert_eq!(instances[0].tree.name, "patrol");
//! let id = instances[0].instance;
//!
//! // Watch it: every tick after the `ok` comes as a `tick` message.
//! send(Request::Subscribe { instances: vec![id] })?;
//! assert!(matches!(next()?, ServerMessage::Ok { .. }));
//! instance.tick(&mut agent, &mut (), 0.25); // the host's frame
//! let ServerMessage::Tick(tick) = next()? else { panic!() };
//! assert_eq!((tick.tick, tick.time), (1, 0.25));
//! assert_eq!(tick.nodes[0].1, NodeStatus::Running); // the root, a `Wait`
//! assert_eq!(tick.blackboard["alert"], false); // the first frame carries every key
//!
//! // Pause it: from now on the host's tick calls do nothing.
//! send(Request::Pause { instance: id })?;
//! assert!(matches!(next()?, ServerMessage::Ok { .. }));
//! let ServerMessage::Paused { reason, .. } = next()? else { panic!() };
//! assert_eq!(reason, PauseReason::Request);
//! assert_eq!(instance.tick(&mut agent, &mut (), 0.25), None);
//! assert_eq!(agent.ticks(), 1);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "debug-server"))]
//! # fn main() {}
//! ```
//!
// Without `debug-server` the server's items do not exist: their names above then point to
// the crate's feature list rather than nowhere (which `cargo doc` would warn about).
#![cfg_attr(
    not(feature = "debug-server"),
    doc = "[`DebugServer`]: crate#features
[`DebugServer::register`]: crate#features
[`DebugConfig`]: crate#features
[`Instance`]: crate#features
[`Instance::tick`]: crate#features
[`Instance::tick_with`]: crate#features"
)]

// The protocol: what a client needs too (feature `debug-protocol`).
mod line;
mod protocol;

pub use line::{is_timeout, Framed, LineReader, MAX_LINE};
pub use protocol::{
    Auth, ErrorCode, InstanceEntry, NodeStatus, PauseReason, Request, ServerMessage, Tick, TreeRef,
    DEFAULT_ADDR, PROTOCOL_VERSION,
};

// The server (feature `debug-server`).
#[cfg(feature = "debug-server")]
mod blackboard_diff;
#[cfg(feature = "debug-server")]
mod client;
#[cfg(feature = "debug-server")]
mod collector;
#[cfg(feature = "debug-server")]
mod config;
#[cfg(feature = "debug-server")]
mod connection;
#[cfg(feature = "debug-server")]
mod error;
#[cfg(feature = "debug-server")]
mod hub;
#[cfg(feature = "debug-server")]
mod instance;
#[cfg(feature = "debug-server")]
mod requests;
#[cfg(feature = "debug-server")]
mod server;
#[cfg(feature = "debug-server")]
mod shared;
#[cfg(feature = "debug-server")]
mod writer;

#[cfg(feature = "debug-server")]
pub use self::{
    config::{DebugConfig, LogFn, DEFAULT_PENDING_WRITES, DEFAULT_QUEUE_BYTES},
    error::DebugError,
    instance::Instance,
    server::DebugServer,
};
