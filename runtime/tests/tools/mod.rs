//! The `arbor` command-line tool (docs/cli.md), run as a subprocess.

mod cli;
mod refactoring;
mod state;
