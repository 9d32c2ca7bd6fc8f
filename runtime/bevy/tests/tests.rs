//! arbor-bevy's integration tests, one binary: a module per subject.

mod common;
mod debug;
mod pacing;
mod plugin;
mod subtrees;
mod viewer;
