//! DebugError: why a debug server could not start.

/// A debug server that could not start: the address is refused by the configuration's
/// safety rules, or the socket could not be bound. Every variant names the configured
/// address ([`DebugConfig::addr`](super::DebugConfig::addr)).
#[derive(Debug, thiserror::Error)]
pub enum DebugError {
    /// The address is not a valid `host:port`, or its host name could not be looked up.
    #[error("cannot resolve debug server address `{addr}`")]
    Resolve {
        /// The configured address.
        addr: String,
        /// Why resolving it failed.
        #[source]
        source: std::io::Error,
    },
    /// The host name resolved, but to no address at all.
    #[error("debug server address `{addr}` resolves to no address")]
    NoAddress {
        /// The configured address.
        addr: String,
    },
    /// The address is not loopback and the configuration does not set
    /// [`allow_remote`](super::DebugConfig::allow_remote()): anyone who can reach the port
    /// could pause agents and write their blackboards.
    #[error("debug server address `{addr}` is not loopback: set `allow_remote` to listen on it")]
    RemoteNotAllowed {
        /// The configured address.
        addr: String,
    },
    /// The address is not loopback and `allow_remote` is set, but the configuration has no
    /// [`token`](super::DebugConfig::token()) (or an empty one) for clients to present.
    #[error("debug server address `{addr}` is not loopback: a token is required")]
    RemoteWithoutToken {
        /// The configured address.
        addr: String,
    },
    /// The socket could not be bound or set up (the port is taken, the interface does not
    /// exist, ...), or the server's accept thread could not be started.
    #[error("cannot listen on `{addr}`")]
    Bind {
        /// The configured address.
        addr: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}
