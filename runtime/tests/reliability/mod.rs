//! Reliability (docs/reliability.md): work that stays linear in every input,
//! files read with a cap and only when regular, files written atomically, output that
//! fails without a panic, messages that escape what they quote, located errors (repeated
//! JSON keys among them), BT.CPP files that keep their names and text, the CLI's usage
//! codes, scripts within their limits, and bounded fuzzing on the stable toolchain.
#![allow(dead_code)]

mod cli_output;
mod cli_usage;
mod escaping;
mod fuzz;
mod fuzz_scripts;
mod interop;
mod json_inputs;
mod linear;
mod located;
mod scripts;
mod special_files;
mod tick_budget;

use std::path::{Path, PathBuf};

/// A fresh, empty scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-rel-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The CLI tests' counting tree (tests/data/cli/counting.json), as a path argument.
pub fn counting() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cli/counting.json")
        .display()
        .to_string()
}

/// Writes `value` as a tree file at `dir/name` and returns its path.
pub fn write_json(dir: &Path, name: &str, value: &serde_json::Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(value).expect("JSON")).expect("write");
    path
}

/// Makes a FIFO (named pipe) with `mkfifo`; `None` where that is not possible.
pub fn fifo(dir: &Path, name: &str) -> Option<PathBuf> {
    let path = dir.join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        Some(path)
    } else {
        eprintln!("note: mkfifo is not available; the FIFO case is not checked");
        None
    }
}

/// Whether the work grew at most `factor` times when the input grew 4 times.
pub fn grows_linearly(small: u64, large: u64, factor: u64) -> bool {
    large <= small.max(1) * factor
}
