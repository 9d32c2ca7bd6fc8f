//! Attaching to BehaviorTree.CPP programs: the protocol of BT.CPP 4's `Groot2Publisher`
//! (what Groot2 speaks), so any BT.CPP program that publishes can be watched and debugged
//! without changing it.
//!
//! # Brief overview
//! - protocol.rs: the wire format (headers, status buffer, hook JSON), UI-free and
//!   unit-tested.
//! - [`Client`](client.rs): ZeroMQ on its own thread (zmq.rs, pure Rust); polls statuses
//!   and blackboards, carries out hooks, reconnects.
//! - [`Groot2`] (state.rs): what the editor knows of the program; a
//!   [`crate::live::LiveSource`], so the canvas draws it as it draws Arbor programs.
//! - panel.rs: the Groot2 panel (connection, waiting node, forced results, blackboards).
//!
//! The program's tree arrives as BT.CPP XML and is imported by the runtime's importer
//! (`arbor_runtime::btcpp::MonitoredTree`, which also maps BT.CPP node UIDs to the
//! imported GUIDs through the `_uid` attribute each reported node carries).
//!
//! Nothing listens: the editor connects out, to the address the user typed (the dialog
//! offers `groot2://127.0.0.1:1667`); a host that is not this machine is the user's
//! explicit choice and is logged as such, since the protocol has no encryption or
//! authentication.

mod client;
mod panel;
mod protocol;
mod state;

use std::fmt;
use std::net::IpAddr;

pub use client::{Command, Event};
pub use panel::Groot2Panel;
pub use state::{Groot2, NodeHook};

/// The scheme that marks a BT.CPP address in the Attach dialog.
pub const SCHEME: &str = "groot2://";
/// BT.CPP's default server port.
pub const DEFAULT_PORT: u16 = 1667;

/// Where a BT.CPP program's Groot2 server listens (its publisher is on `port + 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub host: String,
    pub port: u16,
}

impl Address {
    /// Reads `groot2://host[:port]`; `None` when `text` is not a Groot2 address (then it
    /// is an Arbor one), `Some(Err)` when it is one but malformed.
    pub fn parse(text: &str) -> Option<Result<Address, String>> {
        let rest = text.trim().strip_prefix(SCHEME)?;
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            // An IPv6 literal is bracketed: [::1]:1667.
            Some((host, port)) if !host.contains(':') || host.ends_with(']') => (host, Some(port)),
            _ => (rest, None),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c == '/') {
            return Some(Err(format!(
                "`{text}`: no host (write {SCHEME}127.0.0.1:{DEFAULT_PORT})"
            )));
        }
        let port = match port {
            None => DEFAULT_PORT,
            Some(p) => match p.parse::<u16>() {
                // The publisher is on the next port, so the last port cannot be used.
                Ok(p) if p > 0 && p < u16::MAX => p,
                _ => return Some(Err(format!("`{text}`: the port must be 1 to 65534"))),
            },
        };
        Some(Ok(Address {
            host: host.to_owned(),
            port,
        }))
    }

    /// This machine: `localhost` or a loopback IP.
    pub fn is_loopback(&self) -> bool {
        self.host.eq_ignore_ascii_case("localhost")
            || self.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "{SCHEME}[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{SCHEME}{}:{}", self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_groot2_urls() {
        assert_eq!(Address::parse("127.0.0.1:7000"), None);
        let a = Address::parse("groot2://127.0.0.1:1777").and_then(Result::ok);
        assert_eq!(
            a.as_ref().map(|a| (a.host.as_str(), a.port)),
            Some(("127.0.0.1", 1777))
        );
        assert!(a.is_some_and(|a| a.is_loopback()));
        let d = Address::parse(" groot2://robot.local ").and_then(Result::ok);
        assert_eq!(d.as_ref().map(|a| a.port), Some(DEFAULT_PORT));
        assert!(!d.is_some_and(|a| a.is_loopback()));
        let v6 = Address::parse("groot2://[::1]:1667").and_then(Result::ok);
        assert!(v6.as_ref().is_some_and(Address::is_loopback));
        assert_eq!(
            v6.map(|a| a.to_string()).as_deref(),
            Some("groot2://[::1]:1667")
        );
        for bad in [
            "groot2://",
            "groot2://:1667",
            "groot2://h:0",
            "groot2://h:65535",
            "groot2://h:x",
        ] {
            assert!(matches!(Address::parse(bad), Some(Err(_))), "{bad}");
        }
    }
}
