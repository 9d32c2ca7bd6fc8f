//! The `arbor` tool's output: a standard output that fails never panics (a closed pipe
//! ends the command quietly with 0, any other failure says why and exits 1), and files
//! written with `-o` replace the previous file atomically rather than overwrite it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::scratch;
use crate::common::{arbor, text};

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cli")
        .join(name)
        .display()
        .to_string()
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_arbor")
}

/// Commands that print on stdout, each with enough output to fill a pipe's buffer where
/// that matters (`run` with many ticks).
fn printing_commands() -> Vec<Vec<String>> {
    let counting = data("counting.json");
    let args = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    vec![
        args(&["run", &counting, "--ticks", "200000"]),
        args(&["run", &counting, "--ticks", "50000", "--trace"]),
        args(&["manifest"]),
        args(&["check", &counting]),
        args(&["export", &counting]),
        args(&["codegen", &counting]),
    ]
}

#[cfg(unix)]
#[test]
fn a_full_standard_output_is_an_error_with_a_message_not_a_panic() {
    if !Path::new("/dev/full").exists() {
        eprintln!("note: no /dev/full; not checked");
        return;
    }
    for args in printing_commands() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let out = Command::new(exe())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("arbor runs");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("arbor: cannot write the output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    for args in printing_commands() {
        let mut child = Command::new(exe())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbor runs");
        // The reader goes away before reading anything (`| head -0`).
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("arbor ends");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("cannot write"),
            "nothing to say about a reader that left: {args:?}: {stderr}"
        );
    }
}

/// Writes `old` at `path` and a hard link to it: a file replaced atomically leaves the
/// link with the old text; a file overwritten in place changes both.
fn previous(dir: &Path, path: &Path) -> PathBuf {
    std::fs::write(path, "previous").expect("write");
    let link = dir.join("previous-link");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(path, &link).expect("hard link");
    link
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

#[test]
fn export_codegen_and_import_replace_their_output_files_atomically() {
    let dir = scratch("atomic-outputs");
    let counting = data("counting.json");
    for (command, name) in [("export", "out.xml"), ("codegen", "out.rs")] {
        let path = dir.join(name);
        let link = previous(&dir, &path);
        let out = arbor(&[command, &counting, "-o", &path.display().to_string()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_ne!(std::fs::read_to_string(&path).expect("read"), "previous");
        assert_eq!(
            std::fs::read_to_string(&link).expect("read"),
            "previous",
            "`{command} -o` wrote into the previous file instead of replacing it"
        );
    }
    let xml = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/btcpp/library.xml");
    let path = dir.join("imported.json");
    let link = previous(&dir, &path);
    let out = arbor(&[
        "import",
        &xml.display().to_string(),
        "-o",
        &path.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&link).expect("read"), "previous");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
}

#[test]
fn a_failed_atomic_write_leaves_the_target_and_no_temporary_file() {
    let dir = scratch("atomic-fail");
    // The target is a folder: the final rename fails, after the text was written.
    let target = dir.join("taken");
    std::fs::create_dir_all(target.join("inside")).expect("folder");
    let err = arbor_runtime::files::write_atomic(&target, b"new").expect_err("cannot replace");
    assert!(!err.to_string().is_empty());
    assert!(target.join("inside").is_dir(), "the folder is untouched");
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    // A missing folder: nothing is created anywhere.
    let err = arbor_runtime::files::write_atomic(&dir.join("missing/x.json"), b"new");
    assert!(err.is_err());
    assert!(leftovers(&dir).is_empty());
}
