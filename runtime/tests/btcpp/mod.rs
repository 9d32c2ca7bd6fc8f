//! BehaviorTree.CPP interop (docs/interop.md): import, export round trips, running imported
//! trees, and `arbor import` / `arbor export`.
#![cfg(feature = "btcpp")]

mod cli;
mod differential;
mod import;
mod roundtrip;
mod run;
mod scripts;
mod support;
mod venv;
