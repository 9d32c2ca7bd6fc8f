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
    config::{DebugConfig, LogFn},
    error::DebugError,
    instance::Instance,
    server::DebugServer,
};
