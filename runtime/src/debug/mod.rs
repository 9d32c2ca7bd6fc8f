//! Remote debugging (feature `debug-server`): a small TCP server that lets clients (the
//! editor's **Attach…**, or any tool) watch and steer the tree instances a host registers.
//! The wire protocol is docs/debug-protocol.md; docs/embedding.md shows the host side.
//!
//! # Brief overview
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

mod blackboard_diff;
mod client;
mod collector;
mod config;
mod connection;
mod error;
mod hub;
mod instance;
mod line;
mod protocol;
mod requests;
mod server;
mod shared;
mod writer;

pub use config::{DebugConfig, LogFn, DEFAULT_ADDR};
pub use error::DebugError;
pub use instance::Instance;
pub use protocol::PROTOCOL_VERSION;
pub use server::DebugServer;
