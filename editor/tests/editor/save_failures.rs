//! Saves that fail: a missing folder, a path through a file, a read-only folder,
//! a read-only file system, a full disk, a write that fails half-way. Each gives a clear
//! message, leaves the file on disk as it was (no temporary file either), and keeps the
//! document in memory, unsaved and unchanged, so a later save can succeed.
//!
//! Root ignores file permissions, so the `chmod` test only asserts when permissions are
//! enforced; the read-only and full file systems are real tmpfs mounts, made when the test
//! may mount (root with CAP_SYS_ADMIN) and skipped with a note otherwise. The half-way
//! failure uses a file size limit (`ulimit -f`), which needs no privileges.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{session_with, Harness};
use arbor_editor::Session;

/// An editor on a modified document saved at `path` before the change.
fn edited_at(path: &Path) -> (Harness, String) {
    let (mut session, _) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [0.0, 120.0])]);
    session.save_as(path).expect("first save");
    let mut h = Harness::new(Session::open(path).expect("opens"));
    h.app
        .session_mut()
        .add_node("Log", [200.0, 120.0])
        .expect("added");
    let doc = h.app.session().document().to_json();
    (h, doc)
}

/// The failed save's message, and checks that nothing was lost or left behind.
fn check_failed(h: &Harness, before_on_disk: Option<&str>, path: &Path, doc: &str) -> String {
    assert!(h.app.session().is_modified(), "still unsaved");
    assert_eq!(
        h.app.session().document().to_json(),
        doc,
        "document untouched"
    );
    match before_on_disk {
        Some(text) => assert_eq!(
            std::fs::read_to_string(path).expect("file still there"),
            text,
            "the file on disk is unchanged"
        ),
        None => assert!(!path.exists()),
    }
    if let Some(dir) = path.parent().filter(|d| d.is_dir()) {
        let temps: Vec<_> = std::fs::read_dir(dir)
            .expect("readable")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(temps.is_empty(), "temporary files left: {temps:?}");
    }
    let texts = h.app.toasts().texts();
    let message = texts.last().expect("a message").to_string();
    assert!(message.starts_with("Not saved: "), "{message}");
    assert!(message.contains("your changes are still here"), "{message}");
    message
}

#[test]
fn a_missing_folder_or_a_file_in_the_path_is_explained() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, doc) = edited_at(&dir.path().join("tree.json"));

    let missing = dir.path().join("no-such-folder").join("t.json");
    assert!(!h.app.save_to(&missing));
    let message = check_failed(&h, None, &missing, &doc);
    assert!(message.contains("the folder does not exist"), "{message}");

    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").expect("written");
    let through = file.join("t.json");
    assert!(!h.app.save_to(&through));
    let message = check_failed(&h, None, &through, &doc);
    assert!(message.contains("part of the path is a file"), "{message}");
    assert_eq!(
        h.app.session().path(),
        Some(dir.path().join("tree.json").as_path())
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_folder_is_explained() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("ro");
    std::fs::create_dir(&folder).expect("dir");
    let path = folder.join("tree.json");
    let (mut h, doc) = edited_at(&path);
    let before = std::fs::read_to_string(&path).expect("file");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    // Root ignores permissions: then there is nothing to test here (the read-only file
    // system test covers root).
    let probe = folder.join("probe");
    if std::fs::write(&probe, "x").is_ok() {
        let _ = std::fs::remove_file(&probe);
        eprintln!("skipped: permissions are not enforced for this user (root?)");
        return;
    }
    assert!(!h.app.save());
    let message = check_failed(&h, Some(&before), &path, &doc);
    assert!(message.contains("read-only"), "{message}");
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    assert!(h.app.save(), "saves once the folder is writable");
}

/// A small tmpfs mounted on a temporary folder, unmounted when dropped.
struct TinyFs {
    dir: tempfile::TempDir,
}

impl TinyFs {
    /// `None` (with a note) when this process may not mount.
    fn mount(size: &str) -> Option<TinyFs> {
        if !cfg!(target_os = "linux") {
            return None;
        }
        let dir = tempfile::tempdir().ok()?;
        let ok = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0777"),
                "tmpfs",
            ])
            .arg(dir.path())
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("skipped: cannot mount a tmpfs here (needs root)");
            return None;
        }
        Some(TinyFs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn remount(&self, options: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "remount {options}");
    }
}

impl Drop for TinyFs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[test]
fn a_read_only_file_system_is_explained() {
    let Some(fs) = TinyFs::mount("256k") else {
        return;
    };
    let path = fs.path().join("tree.json");
    let (mut h, doc) = edited_at(&path);
    let before = std::fs::read_to_string(&path).expect("file");
    fs.remount("ro");
    assert!(!h.app.save());
    let message = check_failed(&h, Some(&before), &path, &doc);
    assert!(message.contains("read-only"), "{message}");
    fs.remount("rw");
    assert!(h.app.save(), "saves once writable again");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), doc);
}

#[test]
fn a_full_disk_is_explained() {
    let Some(fs) = TinyFs::mount("64k") else {
        return;
    };
    let path = fs.path().join("tree.json");
    let (mut h, doc) = edited_at(&path);
    let before = std::fs::read_to_string(&path).expect("file");
    // Fill the disk.
    let filler: PathBuf = fs.path().join("filler");
    let chunk = vec![0u8; 4096];
    let mut data = Vec::new();
    loop {
        data.extend_from_slice(&chunk);
        if std::fs::write(&filler, &data).is_err() {
            break;
        }
        assert!(data.len() < 1 << 20, "the 64k file system never filled up");
    }
    assert!(!h.app.save());
    let message = check_failed(&h, Some(&before), &path, &doc);
    assert!(message.contains("the disk is full"), "{message}");
    std::fs::remove_file(&filler).expect("space freed");
    assert!(h.app.save(), "saves once there is room");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), doc);
}

/// Set in the child of `a_write_failing_half_way_leaves_the_file_intact`.
const CHILD: &str = "ARBOR_SAVE_LIMIT_CHILD";

#[cfg(unix)]
#[test]
fn a_write_failing_half_way_leaves_the_file_intact() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    // The child runs with a 4 or 8 KiB file size limit (`ulimit -f` counts 512- or 1024-byte
    // blocks depending on the shell) (SIGXFSZ ignored, so the write fails
    // with EFBIG instead of killing it): its save fails part-way through.
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new("sh")
        .arg("-c")
        .arg(r#"trap '' XFSZ; ulimit -f 8; exec "$0" --exact "$1" --nocapture --test-threads=1"#)
        .arg(exe)
        .arg(crate::test_name(
            module_path!(),
            "child_saves_under_a_file_size_limit",
        ))
        .env(CHILD, dir.path())
        .output()
        .expect("child ran");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("CHILD CHECKED"),
        "child: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The child of `a_write_failing_half_way_leaves_the_file_intact`; nothing otherwise.
#[test]
fn child_saves_under_a_file_size_limit() {
    let Some(dir) = std::env::var_os(CHILD) else {
        return;
    };
    let path = PathBuf::from(dir).join("tree.json");
    let (mut h, _) = edited_at(&path);
    let before = std::fs::read_to_string(&path).expect("file");
    assert!(before.len() < 4096, "the first save fits under the limit");
    for i in 0..60 {
        h.app
            .session_mut()
            .add_node("Log", [f64::from(i) * 10.0, 400.0])
            .expect("added");
    }
    let doc = h.app.session().document().to_json();
    assert!(doc.len() > 8192, "the document outgrew the limit");
    assert!(!h.app.save());
    let message = check_failed(&h, Some(&before), &path, &doc);
    assert!(
        message.contains("larger than this system or account allows"),
        "{message}"
    );
    println!("CHILD CHECKED: {message}");
}
