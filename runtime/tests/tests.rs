//! The runtime's integration tests, gathered in one test binary (as ripgrep's
//! `tests/tests.rs`): the crate and its dependencies are linked once, not once per file.
//! One module per group of rules of docs/semantics.md, then the loader, the engine as a host
//! sees it, the `arbor` tool and BehaviorTree.CPP interop. Test names start with the rule
//! they check (`rule10_…`) where there is one.
//!
//! `cargo test -p arbor-runtime --test tests composites::parallel` runs one module.
//! tests/debug_server.rs stays a binary of its own: it needs the `debug-server` feature.

mod common;
/// The engine the helpers' trees run on (runtime/codegen-semantics swaps in generated code).
#[path = "common/interpreter.rs"]
mod engine_under_test;

mod attached;
mod btcpp;
mod builder;
mod composites;
mod decorators;
mod engine;
mod examples;
mod execution;
mod guides;
mod leaves;
mod loading;
mod merging;
mod ports;
mod reliability;
mod signals;
mod tools;
