//! The Python with BehaviorTree.CPP 4 (`behaviortreepy` from PyPI) that tests run real
//! BT.CPP programs with: a virtual environment `target/btcpp-venv`, created and filled on
//! first use, so CI installs it by itself. One implementation, shared by the runtime's
//! differential test and the editor's Groot2 tests (which include this file by path).
//!
//! Without the peer (no Python, or PyPI out of reach) these tests skip with a message
//! saying why, so `cargo test --workspace` passes offline. CI sets `ARBOR_REQUIRE_PEERS=1`,
//! which turns every such skip into a failure: there the peer must be installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Tests in one binary run in parallel; only one of them may build the venv.
static CREATING: Mutex<()> = Mutex::new(());

/// The venv's python with `behaviortreepy` importable, or `None` after printing why the
/// calling test (`what`) skips. With `ARBOR_REQUIRE_PEERS=1` a missing peer panics instead.
pub fn btcpp_python_or_skip(workspace: &Path, what: &str) -> Option<PathBuf> {
    match btcpp_python(workspace) {
        Ok(py) => Some(py),
        Err(why) if peers_required() => {
            panic!("{what} needs BehaviorTree.CPP (ARBOR_REQUIRE_PEERS=1): {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED {what}: BehaviorTree.CPP is not available here: {why}");
            println!("SKIPPED {what}: BehaviorTree.CPP is not available here (see stderr)");
            None
        }
    }
}

/// Whether the environment demands the peers (`ARBOR_REQUIRE_PEERS=1`, as `.ci/run` sets).
pub fn peers_required() -> bool {
    std::env::var("ARBOR_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// The venv's python with `behaviortreepy` importable, or why it cannot be had: no Python,
/// no venv module, or pip could not install the package (PyPI unreachable, no wheel).
pub fn btcpp_python(workspace: &Path) -> Result<PathBuf, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    let venv = target.join("btcpp-venv");
    let py = venv.join("bin").join("python");
    let importable = |py: &Path| {
        Command::new(py)
            .args(["-c", "import behaviortreepy"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if importable(&py) {
        return Ok(py);
    }
    // A test that panicked while holding it leaves the venv half made; pip repairs that.
    let _one_at_a_time = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    if importable(&py) {
        return Ok(py); // made by the test that held the lock
    }
    if !py.exists() {
        let out = Command::new("python3")
            .arg("-m")
            .arg("venv")
            .arg(&venv)
            .output()
            .map_err(|e| format!("python3 cannot be started: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "python3 -m venv failed (no venv/pip module?): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    let out = Command::new(&py)
        .args(["-m", "pip", "install", "--quiet", "behaviortreepy"])
        .output()
        .map_err(|e| format!("the venv's python cannot be started: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "pip install behaviortreepy failed (is PyPI reachable?):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout).trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    if !importable(&py) {
        return Err("behaviortreepy installed but not importable".to_string());
    }
    Ok(py)
}
