//! The `arbor` command-line tool: check, run, manifest.
