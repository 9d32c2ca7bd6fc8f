//! The runtime's semantic test suite on generated code: the runtime's test modules
//! (runtime/tests), included unchanged — same test bodies, same assertions — with the
//! runtime's `common` helpers, whose engine hook is `engine_under_test` here: every tree a
//! helper compiles is loaded as its generated module (built from `trees/` by build.rs).
//! Tests that build their own `Registry` or read files keep running the interpreter;
//! `engine_checks` counts how many ran on generated code.
//!
//! `cargo test -p arbor-codegen-semantics composites::parallel` runs one module.

#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "semantics/engine.rs"]
mod engine_under_test;

#[path = "semantics/checks.rs"]
mod engine_checks;

// The groups of docs/semantics.md whose trees go through the helpers (dump.sh lists the
// same groups); the loader, CLI, BT.CPP and tool groups need files or processes.
#[path = "../../tests/attached/mod.rs"]
mod attached;
#[path = "../../tests/composites/mod.rs"]
mod composites;
#[path = "../../tests/decorators/mod.rs"]
mod decorators;
#[path = "../../tests/examples/mod.rs"]
mod examples;
#[path = "../../tests/execution/mod.rs"]
mod execution;
#[path = "../../tests/leaves/mod.rs"]
mod leaves;
#[path = "../../tests/ports/mod.rs"]
mod ports;
#[path = "../../tests/signals/mod.rs"]
mod signals;

/// The engine group's tests whose trees go through the helpers.
#[path = "semantics/engine_group.rs"]
mod engine;
