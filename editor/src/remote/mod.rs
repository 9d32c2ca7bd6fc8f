//! Remote debugging: the editor attached to a program that runs trees with the runtime's
//! debug server (docs/debug-protocol.md).
//!
//! # Brief overview
//! - The protocol's messages and framing are the runtime's (`arbor_runtime::debug`, feature
//!   `debug-protocol`): the same types the server writes.
//! - [`Link`] (link.rs): the TCP connection on a background thread; reconnects when the
//!   program restarts. Its [`Inbox`](inbox.rs) is bounded: it coalesces tick frames while
//!   the editor draws nothing.
//! - [`Remote`] (state.rs): the attachment, UI-free: listed and attached instances (by
//!   name), the focus, and the requests for pause/step/breakpoints/values.
//! - [`InstanceView`] (instance.rs): one instance's statuses and blackboard, read by the
//!   canvas through [`crate::live::LiveSource`] as the local preview is.
//! - panel.rs: the Attach… dialog and the Remote panel.
//!
//! - groot2/: the same for BehaviorTree.CPP programs, over the protocol Groot2 speaks.
//!
//! The app draws the focused instance's statuses on the open document whose tree GUID
//! matches; when none does, it opens the tree the server sent in a read-only tab.

pub mod groot2;
mod inbox;
mod instance;
mod link;
pub(crate) mod panel;
mod state;

pub use instance::{InstanceView, Pause};
pub use link::{Link, LinkEvent};
pub use panel::{AttachDialog, RemoteAction, RemotePanel};
pub use state::{Connection, Remote};
