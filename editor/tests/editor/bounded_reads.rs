//! Every file the editor reads goes through the bounded reader: `/dev/zero` (endless, size
//! 0) and a FIFO (whose open blocks until a writer comes) given as the tree, as a
//! manifest, as a Subtree path or swapped in for the open file are refused with an error,
//! promptly, instead of reading until memory runs out or hanging.
//!
//! Each open runs on a thread of its own; the generous `recv_timeout` only turns a hang
//! into a failure instead of a test that never ends, it measures nothing.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use arbor_editor::document::io;
use arbor_editor::document::DiskChange;
use arbor_editor::Session;
use serde_json::json;

/// Runs `f` on a thread and returns its result; fails if it never returns.
fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("{what} never returned: an unbounded read"))
}

/// A FIFO at `dir/name`, nobody writing to it.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).expect("no NUL");
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo {}", path.display());
    path
}

/// The hostile files: `/dev/zero` and a FIFO.
fn hostile(dir: &Path) -> [PathBuf; 2] {
    [PathBuf::from("/dev/zero"), fifo(dir, "pipe.json")]
}

fn guid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

#[test]
fn opening_a_device_or_fifo_as_the_tree_is_an_error() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for path in hostile(dir.path()) {
        let shown = path.display().to_string();
        let p = path.clone();
        let result = bounded(&shown, move || Session::open(&p).map(|_| ()));
        let err = result.expect_err("refused");
        assert!(
            err.to_string().contains("not a regular file"),
            "{shown}: {err}"
        );
    }
    let xml = fifo(dir.path(), "pipe.xml");
    let result = bounded("a FIFO named .xml", move || Session::open(&xml).map(|_| ()));
    assert!(result.is_err());
}

#[test]
fn a_device_or_fifo_as_a_manifest_is_reported_and_skipped() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let [zero, pipe] = hostile(dir.path());
    let tree = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "t",
        "root": guid(2),
        "nodes": [{"guid": guid(2), "name": "w", "type": "Wait", "params": {"seconds": 1.0}}],
        "editor": {"manifests": [zero.display().to_string(), "pipe.json"]}
    });
    let path = dir.path().join("tree.json");
    std::fs::write(&path, tree.to_string()).expect("written");
    let session = bounded("manifests", move || {
        Session::open(&path).map_err(|e| e.to_string())
    })
    .expect("the tree opens");
    let errors: Vec<String> = session
        .manifest_errors()
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors.iter().all(|e| e.contains("not a regular file")),
        "{errors:?}"
    );
    let _ = pipe;
}

#[test]
fn a_device_or_fifo_as_a_subtree_path_is_an_error() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let [zero, pipe] = hostile(dir.path());
    for (n, target) in [zero.display().to_string(), "pipe.json".to_owned()]
        .into_iter()
        .enumerate()
    {
        let tree = json!({
            "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "t",
            "root": guid(2),
            "nodes": [{"guid": guid(2), "name": "s", "type": "Subtree", "params": {"path": target}}]
        });
        let path = dir.path().join(format!("tree{n}.json"));
        std::fs::write(&path, tree.to_string()).expect("written");
        let result = bounded(&target, move || {
            let mut session = Session::open(&path).map_err(|e| e.to_string())?;
            session.inline_subtree(&guid(2)).map_err(|e| e.to_string())
        });
        let err = result.expect_err("refused");
        assert!(err.contains("not a regular file"), "{target}: {err}");
    }
    let _ = pipe;
}

#[test]
fn a_device_or_fifo_swapped_in_for_the_open_file_is_not_read() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("tree.json");
    let tree = json!({
        "format": "arbor-tree", "version": 1, "guid": guid(1), "name": "t",
        "root": guid(2),
        "nodes": [{"guid": guid(2), "name": "w", "type": "Wait", "params": {"seconds": 1.0}}]
    });
    std::fs::write(&path, tree.to_string()).expect("written");
    let session = Session::open(&path).expect("opens");
    let stamp = session.disk_stamp().expect("stamped");
    std::fs::remove_file(&path).expect("removed");
    let pipe = fifo(dir.path(), "tree.json");
    let change = bounded("the disk check", move || stamp.compare(&pipe));
    assert_eq!(change, DiskChange::Missing);
    std::fs::remove_file(&path).expect("removed");
    std::os::unix::fs::symlink("/dev/zero", &path).expect("linked");
    let p = path.clone();
    let reload = bounded("reloading", move || io::load(&p).map(|_| ()));
    assert!(reload.is_err());
}
