//! The Python with BehaviorTree.CPP 4 (`behaviortreepy` from PyPI) that tests run real
//! BT.CPP programs with: a virtual environment `target/btcpp-venv`, created and filled on
//! first use, so CI installs it by itself. One implementation, shared by the runtime's
//! differential test and the editor's Groot2 tests (which include this file by path).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Tests in one binary run in parallel; only one of them may build the venv.
static CREATING: Mutex<()> = Mutex::new(());

/// The venv's python with `behaviortreepy` importable. `Err` (with why) only when this
/// machine has no Python or no pip to build the venv with; then a test skips. A failed
/// install (PyPI unreachable, no wheel) panics with pip's output: that is a failure.
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
    assert!(
        out.status.success(),
        "pip install behaviortreepy failed (BT.CPP tests need it from PyPI):\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        importable(&py),
        "behaviortreepy installed but not importable"
    );
    Ok(py)
}
