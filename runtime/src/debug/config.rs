//! DebugConfig: where the debug server listens and who may talk to it.
//!
//! Safe by default: loopback only and no token. Listening on another interface needs both
//! `allow_remote` and a token, because a client can pause agents and write blackboards.

use std::fmt;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use super::error::DebugError;
use super::protocol::DEFAULT_ADDR;

/// [`DebugConfig::queue_bytes`] by default: 4 MiB.
pub const DEFAULT_QUEUE_BYTES: usize = 4 << 20;
/// [`DebugConfig::pending_writes`] by default: 1 MiB.
pub const DEFAULT_PENDING_WRITES: usize = 1 << 20;

/// Where the server's log lines go (one line per call, no newline): a client's connection
/// closing and why (a disconnect, a write that failed, a missed deadline), its malformed
/// requests (the first few), refused connections (at most one line every 10 seconds), a
/// client's blackboard write the host could not apply, and rarer failures (a socket that
/// cannot be set up, a tree file that cannot be serialised). Set it with
/// [`DebugConfig::log`]; it is called from the server's threads and from the host's tick
/// calls, so it should not block for long.
pub type LogFn = Arc<dyn Fn(&str) + Send + Sync>;

/// How a [`DebugServer`](super::DebugServer) is set up: where it listens, who may talk to
/// it, and how much it holds for each client. Build it with [`DebugConfig::new`] (or
/// `default()`, which listens on [`DEFAULT_ADDR`]) and the builder methods (the fields
/// are public as well).
///
/// Safe by default: loopback only and no token. Listening on another interface needs both
/// [`allow_remote(true)`](DebugConfig::allow_remote()) and a
/// [`token`](DebugConfig::token()), because any client can pause agents and write their
/// blackboards; otherwise [`DebugServer::start`](super::DebugServer::start) refuses with a
/// [`DebugError`] and binds nothing.
///
/// ```
/// use arbor_runtime::debug::{DebugConfig, DebugError, DebugServer};
///
/// // This machine only, any free port (`server.local_addr()` says which).
/// let local = DebugConfig::new("127.0.0.1:0");
/// # drop(DebugServer::start(local)?);
///
/// // Every interface, e.g. to debug a game running on a console or another PC.
/// let everywhere = DebugConfig::new("0.0.0.0:0");
/// let refused = DebugServer::start(everywhere.clone());
/// assert!(matches!(refused, Err(DebugError::RemoteNotAllowed { .. })));
/// let refused = DebugServer::start(everywhere.clone().allow_remote(true));
/// assert!(matches!(refused, Err(DebugError::RemoteWithoutToken { .. })));
///
/// // Opted in, with a token that clients present in their `hello`
/// // (the editor's Attach… dialog asks for it).
/// let config = everywhere
///     .allow_remote(true)
///     .token("s3cret")
///     .max_clients(2)
///     .log(|line| eprintln!("[debugger] {line}"));
/// let server = DebugServer::start(config)?;
/// assert!(server.local_addr().ip().is_unspecified());
/// # Ok::<(), DebugError>(())
/// ```
#[derive(Clone)]
pub struct DebugConfig {
    /// `host:port`; port 0 picks a free port (see `DebugServer::local_addr`).
    pub addr: String,
    /// Permits non-loopback addresses (a token is then required as well).
    pub allow_remote: bool,
    /// When set, clients must present it in their `hello`.
    pub token: Option<String>,
    /// Messages each client's queue holds before tick frames are dropped.
    pub queue: usize,
    /// Bytes each client's queue holds (replies and tick frames waiting to be written);
    /// see [`DebugConfig::queue_bytes`].
    pub queue_bytes: usize,
    /// Bytes of blackboard writes (`set`) each instance holds until the host's next tick
    /// call; see [`DebugConfig::pending_writes`].
    pub pending_writes: usize,
    /// Connections served at once; more are refused with an error.
    pub max_clients: usize,
    /// Where log lines go; `None` prints them to stderr.
    pub log: Option<LogFn>,
    /// A connection must complete its `hello` within this time of connecting, however its
    /// bytes trickle in (default 10 s).
    pub hello_timeout: Duration,
    /// A handshaken client that is subscribed to nothing and sends nothing for this long
    /// is disconnected, so silent clients cannot hold the slots (default 60 s).
    pub idle_timeout: Duration,
}

impl Default for DebugConfig {
    fn default() -> Self {
        DebugConfig {
            addr: DEFAULT_ADDR.to_owned(),
            allow_remote: false,
            token: None,
            queue: 256,
            queue_bytes: DEFAULT_QUEUE_BYTES,
            pending_writes: DEFAULT_PENDING_WRITES,
            max_clients: 8,
            log: None,
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

impl fmt::Debug for DebugConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the token: configurations end up in logs.
        f.debug_struct("DebugConfig")
            .field("addr", &self.addr)
            .field("allow_remote", &self.allow_remote)
            .field("token", &self.token.as_ref().map(|_| "…"))
            .field("queue", &self.queue)
            .field("queue_bytes", &self.queue_bytes)
            .field("pending_writes", &self.pending_writes)
            .field("max_clients", &self.max_clients)
            .field("hello_timeout", &self.hello_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .finish_non_exhaustive()
    }
}

impl DebugConfig {
    /// The defaults, listening on `addr` (`host:port`, e.g. `127.0.0.1:7878`; port 0 takes
    /// any free port).
    pub fn new(addr: impl Into<String>) -> DebugConfig {
        DebugConfig {
            addr: addr.into(),
            ..DebugConfig::default()
        }
    }

    /// Clients must present `token` in their `hello` (the server's `hello` says
    /// `"auth":"token"`); a missing or wrong one is refused (`auth`). Required, and must not
    /// be empty, for a non-loopback address; allowed on loopback too.
    pub fn token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Permits a non-loopback address (`false` by default). A [`token`](Self::token()) is
    /// required as well.
    pub fn allow_remote(mut self, allow: bool) -> Self {
        self.allow_remote = allow;
        self
    }

    /// Messages each client's queue on the server holds (default 256). When it is full,
    /// tick frames for that client are dropped and counted (`dropped`); replies are never
    /// dropped, but a client whose queue stays full of them for 2 seconds is disconnected.
    pub fn queue(mut self, messages: usize) -> Self {
        self.queue = messages;
        self
    }

    /// Bytes each client's queue on the server holds (default 4 MiB): replies, and tick
    /// frames counted by the memory they keep alive. One message of any size is admitted
    /// into an empty queue (a `tree` reply can be larger than the bound), so a queue never
    /// holds more than this or one message, whichever is larger. When a reply does not fit,
    /// the server stops reading that client's requests until its queue drains; a client
    /// whose queue does not drain for 2 seconds gets a last `error` (`busy`) and is
    /// disconnected. Tick frames that do not fit are dropped and counted, as when the queue
    /// is full in messages.
    pub fn queue_bytes(mut self, bytes: usize) -> Self {
        self.queue_bytes = bytes;
        self
    }

    /// Bytes of blackboard writes (`set` requests) an instance holds until the host's next
    /// tick call applies them (default 1 MiB; each write counts its key and its value as
    /// held in memory). A `set` beyond that is refused with an `error` (`busy`): the client
    /// may send it again after the host's next tick.
    pub fn pending_writes(mut self, bytes: usize) -> Self {
        self.pending_writes = bytes;
        self
    }

    /// Clients served at once (default 8); a connection beyond that gets an `error`
    /// (`too many clients`) instead of the `hello`, and is closed.
    pub fn max_clients(mut self, clients: usize) -> Self {
        self.max_clients = clients;
        self
    }

    /// How long a new connection has to complete its `hello` (default 10 s), however its
    /// bytes trickle in; after that it gets an `error` and is disconnected.
    pub fn hello_timeout(mut self, timeout: Duration) -> Self {
        self.hello_timeout = timeout;
        self
    }

    /// How long a client past the handshake that is subscribed to nothing may send nothing
    /// before it is disconnected (default 60 s), so that silent connections cannot hold
    /// every client slot. A subscribed client may stay silent.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Sends the server's log lines to `log` instead of stderr (see [`LogFn`] for what is
    /// logged), e.g. to the game's own logger.
    pub fn log(mut self, log: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = Some(Arc::new(log));
        self
    }

    /// Resolves the address and applies the safety rules.
    pub(crate) fn resolve(&self) -> Result<Vec<SocketAddr>, DebugError> {
        let addrs: Vec<SocketAddr> = self
            .addr
            .to_socket_addrs()
            .map_err(|source| DebugError::Resolve {
                addr: self.addr.clone(),
                source,
            })?
            .collect();
        if addrs.is_empty() {
            return Err(DebugError::NoAddress {
                addr: self.addr.clone(),
            });
        }
        if addrs.iter().any(|a| !a.ip().is_loopback()) {
            if !self.allow_remote {
                return Err(DebugError::RemoteNotAllowed {
                    addr: self.addr.clone(),
                });
            }
            if self.token.as_deref().is_none_or(str::is_empty) {
                return Err(DebugError::RemoteWithoutToken {
                    addr: self.addr.clone(),
                });
            }
        }
        Ok(addrs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_addresses_need_opt_in_and_token() {
        assert!(DebugConfig::new("127.0.0.1:0").resolve().is_ok());
        assert!(DebugConfig::new("[::1]:0").resolve().is_ok());
        let remote = DebugConfig::new("0.0.0.0:0");
        assert!(matches!(
            remote.resolve(),
            Err(DebugError::RemoteNotAllowed { .. })
        ));
        assert!(matches!(
            remote.clone().allow_remote(true).resolve(),
            Err(DebugError::RemoteWithoutToken { .. })
        ));
        assert!(matches!(
            remote.clone().allow_remote(true).token("").resolve(),
            Err(DebugError::RemoteWithoutToken { .. })
        ));
        assert!(remote.allow_remote(true).token("s3cret").resolve().is_ok());
    }

    #[test]
    fn debug_output_hides_the_token() {
        let text = format!("{:?}", DebugConfig::default().token("s3cret"));
        assert!(!text.contains("s3cret"), "{text}");
    }
}
