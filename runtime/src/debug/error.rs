//! DebugError: why a debug server could not start.

/// A debug server that could not start: the address is refused by the configuration's
/// safety rules, or the socket could not be bound.
#[derive(Debug, thiserror::Error)]
pub enum DebugError {
    #[error("cannot resolve debug server address `{addr}`")]
    Resolve {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("debug server address `{addr}` resolves to no address")]
    NoAddress { addr: String },
    /// Anyone who can reach the port could pause agents and write their blackboards.
    #[error("debug server address `{addr}` is not loopback: set `allow_remote` to listen on it")]
    RemoteNotAllowed { addr: String },
    #[error("debug server address `{addr}` is not loopback: a token is required")]
    RemoteWithoutToken { addr: String },
    #[error("cannot listen on `{addr}`")]
    Bind {
        addr: String,
        #[source]
        source: std::io::Error,
    },
}
