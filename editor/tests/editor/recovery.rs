//! Autosave and recovery: an editor killed with SIGKILL loses nothing, the next
//! start offers the unsaved document back, and a panic inside a frame is caught with the
//! documents copied to the recovery folder.
//!
//! The crash test runs this same test binary again as a child process
//! (`ARBOR_RECOVERY_CHILD` set, only `child_edits_then_waits_to_be_killed` selected): the
//! child drives the editor headlessly, edits, waits for autosave, and is then killed by the
//! parent with SIGKILL; no clean-up code of the child can run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{session_with, Harness, CTRL};
use arbor_editor::app::{Action, Recovery, RecoveryFile};
use arbor_editor::document::io;
use arbor_editor::Session;

/// Set (to a work folder) in the child process of the crash test.
const CHILD: &str = "ARBOR_RECOVERY_CHILD";

/// The recovery copies in the recovery folder (not the running editors' lock files).
fn copies(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|f| f.extension().is_none_or(|x| x != "lock"));
    files.sort();
    files
}

/// A saved tree with a few nodes, at `dir/tree.json`.
fn tree_file(dir: &Path) -> PathBuf {
    let (mut session, _) = session_with(&[
        ("Sequence", [0.0, 0.0]),
        ("Wait", [0.0, 120.0]),
        ("Log", [200.0, 120.0]),
    ]);
    let path = dir.join("tree.json");
    session.save_as(&path).expect("tree written");
    path
}

#[test]
fn a_killed_editor_loses_nothing() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let work = tempfile::tempdir().expect("temp dir");
    let recovery = work.path().join("recovery");
    let tree = tree_file(work.path());
    let on_disk = std::fs::read_to_string(&tree).expect("tree readable");
    let expected = work.path().join("expected.json");

    let exe = std::env::current_exe().expect("the test binary");
    let mut child = Command::new(exe)
        .args([
            "--exact",
            &crate::test_name(module_path!(), "child_edits_then_waits_to_be_killed"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, work.path())
        .env("ARBOR_RECOVERY_DIR", &recovery)
        .stdout(Stdio::null())
        .spawn()
        .expect("child started");
    let began = Instant::now();
    while !expected.exists() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the child ended before it was killed: {status}");
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the child never autosaved"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Give the child's `expected.json` write time to finish, then kill -9.
    std::thread::sleep(Duration::from_millis(100));
    child.kill().expect("SIGKILL sent");
    let status = child.wait().expect("child reaped");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status}");
    }
    assert!(!status.success());
    let expected = std::fs::read_to_string(&expected).expect("the child's document");
    assert_eq!(
        std::fs::read_to_string(&tree).expect("tree readable"),
        on_disk,
        "the file itself was never written"
    );
    let left = copies(&recovery);
    assert_eq!(left.len(), 1, "{left:?}");

    // The next start: the copy is offered, and restoring gives the edited document with
    // its path, unsaved.
    let mut h = Harness::new(Session::default());
    h.app.set_recovery(Recovery::at(&recovery));
    assert_eq!(h.app.recovery().offer.len(), 1);
    assert_eq!(
        h.app.recovery().offer[0].contents.path.as_deref(),
        Some(tree.as_path())
    );
    h.frame();
    h.app.restore_recovered();
    assert!(h.app.recovery().offer.is_empty());
    let doc = h.app.session().document();
    assert_eq!(doc.to_json(), expected);
    assert_eq!(doc.node_count(), 4);
    assert_eq!(h.app.session().path(), Some(tree.as_path()));
    assert!(h.app.session().is_modified());
    // The dead process's copy was replaced by one of ours.
    let now = copies(&recovery);
    assert_eq!(now.len(), 1);
    assert_ne!(now, left);

    // Save writes back to the original file, and the copy goes.
    h.key(egui::Key::S, CTRL);
    assert!(
        !h.app.session().is_modified(),
        "{:?}",
        h.app.toasts().texts()
    );
    assert_eq!(std::fs::read_to_string(&tree).expect("saved"), expected);
    h.frame();
    assert!(copies(&recovery).is_empty());
}

/// The child of `a_killed_editor_loses_nothing`; does nothing in a normal test run.
#[test]
fn child_edits_then_waits_to_be_killed() {
    let Some(work) = std::env::var_os(CHILD) else {
        return;
    };
    let work = PathBuf::from(work);
    let session = Session::open(&work.join("tree.json")).expect("tree opens");
    let mut h = Harness::new(session);
    // The standard folder, which the parent pointed at its temp dir through the env var.
    h.app.set_recovery(Recovery::standard());
    let root = h.app.session().document().root().map(str::to_owned);
    let added = h
        .app
        .session_mut()
        .add_node("Wait", [300.0, 120.0])
        .expect("added");
    if let Some(root) = root {
        h.app
            .session_mut()
            .connect(&root, &added)
            .expect("connected");
    }
    let file = h
        .app
        .recovery()
        .file_for(h.app.session())
        .expect("autosave on");
    for _ in 0..100 {
        if file.exists() {
            break;
        }
        h.wait(0.5);
    }
    assert!(file.exists(), "autosaved");
    io::write_atomic(
        &work.join("expected.json"),
        h.app.session().document().to_json().as_bytes(),
    )
    .expect("expected written");
    // Keep running frames until killed; give up after a minute so an orphan cannot
    // linger if the parent died.
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(60) {
        h.frame();
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("never killed");
}

#[test]
fn autosave_waits_for_a_pause_and_saving_or_closing_removes_the_copy() {
    let work = tempfile::tempdir().expect("temp dir");
    let tree = tree_file(work.path());
    let mut h = Harness::new(Session::open(&tree).expect("opens"));
    h.app
        .set_recovery(Recovery::at(work.path().join("recovery")));
    let dir = work.path().join("recovery");
    h.frame();
    assert!(copies(&dir).is_empty(), "nothing unsaved, nothing copied");

    h.app
        .session_mut()
        .add_node("Wait", [0.0, 300.0])
        .expect("added");
    h.frames(3);
    assert!(copies(&dir).is_empty(), "copied before a pause");
    h.wait(2.5);
    let file = h
        .app
        .recovery()
        .file_for(h.app.session())
        .expect("autosave on");
    assert_eq!(copies(&dir), std::slice::from_ref(&file));

    // A second document, never saved, gets its own copy.
    h.app.act(&h.ctx.clone(), Action::New);
    assert_eq!(h.app.tabs().len(), 2);
    h.app
        .session_mut()
        .add_node("Wait", [0.0, 0.0])
        .expect("added");
    h.frame();
    h.wait(2.5);
    assert_eq!(copies(&dir).len(), 2);

    // Undoing the tree back to its saved state removes its copy.
    h.app.switch_to(0);
    assert_eq!(h.app.session().path(), Some(tree.as_path()));
    assert!(h.app.session_mut().undo());
    assert!(!h.app.session().is_modified());
    h.frame();
    assert!(!file.exists());
    assert_eq!(copies(&dir).len(), 1);

    // Closing the other one (its changes discarded) removes the last copy.
    h.app.discard_tab(1);
    h.frame();
    assert!(copies(&dir).is_empty());
}

#[test]
fn discard_deletes_the_offered_copies() {
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path().join("recovery");
    std::fs::create_dir_all(&dir).expect("dir");
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let contents = RecoveryFile {
        format: "arbor-recovery".to_owned(),
        version: 1,
        pid: u32::MAX,
        name: "lost".to_owned(),
        document: session.document().to_json(),
        ..Default::default()
    };
    let file = dir.join("x.json");
    std::fs::write(&file, serde_json::to_string(&contents).expect("json")).expect("written");
    let mut h = Harness::new(Session::default());
    h.app.set_recovery(Recovery::at(&dir));
    assert_eq!(h.app.recovery().offer.len(), 1);
    h.frame();
    h.app.discard_recovered();
    assert!(!file.exists());
    assert!(h.app.recovery().offer.is_empty());
}

#[test]
fn a_panic_inside_a_frame_is_caught_and_the_documents_copied() {
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path().join("recovery");
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    h.guarded = true;
    h.app.set_recovery(Recovery::at(&dir));
    let added = h
        .app
        .session_mut()
        .add_node("Wait", [0.0, 120.0])
        .expect("added");
    h.panicking_frame("boom: injected by the test");

    let crash = h.app.crash().cloned().expect("the panic was caught");
    assert!(
        crash.message.contains("boom: injected by the test"),
        "{crash:?}"
    );
    assert!(
        crash
            .message
            .contains("at editor/tests/editor/common/mod.rs:"),
        "the location: {crash:?}"
    );
    assert_eq!(crash.saved.len(), 1, "{crash:?}");
    assert_eq!(crash.folder.as_deref(), Some(dir.as_path()));
    let copy: RecoveryFile =
        serde_json::from_str(&std::fs::read_to_string(&crash.saved[0]).expect("copy"))
            .expect("a recovery file");
    assert_eq!(copy.document, h.app.session().document().to_json());

    // Later frames work: the editor still takes input.
    h.frames(3);
    h.key(egui::Key::Z, CTRL);
    assert!(
        h.app.session().document().node(&added).is_none(),
        "undo worked"
    );
    // A second panic is counted, not copied again.
    h.panicking_frame("again");
    let crash = h.app.crash().cloned().expect("still reported");
    assert_eq!(crash.count, 2);
    assert!(crash.message.contains("again"));
}

/// A copy whose editor still runs (it holds its lock) is not offered, on every platform;
/// once the lock is released (the editor ended, however) it is.
#[test]
fn copies_of_an_editor_still_running_are_not_offered() {
    let work = tempfile::tempdir().expect("temp dir");
    let dir = work.path().join("recovery");
    std::fs::create_dir_all(&dir).expect("dir");
    // The test stands in for a second editor, process 4242, that is still running.
    let other = 4242;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(arbor_editor::app::recovery_lock_path(&dir, other))
        .expect("lock file");
    lock.try_lock().expect("locked");
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let contents = RecoveryFile {
        format: "arbor-recovery".to_owned(),
        version: 1,
        pid: other,
        name: "busy".to_owned(),
        document: session.document().to_json(),
        ..Default::default()
    };
    std::fs::write(
        dir.join("busy.json"),
        serde_json::to_string(&contents).expect("json"),
    )
    .expect("written");
    assert!(Recovery::at(&dir).pending().is_empty(), "its owner runs");
    drop(lock);
    assert_eq!(Recovery::at(&dir).pending().len(), 1, "its owner is gone");
}

/// A recovery copy as editor `pid` (ended: it holds no lock) would have left it.
fn dead_copy(dir: &Path, pid: u32, path: &Path, session: &Session) -> PathBuf {
    let copy = RecoveryFile {
        format: arbor_editor::app::RECOVERY_FORMAT.to_owned(),
        version: 1,
        pid,
        path: Some(path.to_owned()),
        name: "tree".to_owned(),
        saved_at: 0,
        disk: None,
        document: session.document().to_json(),
    };
    std::fs::create_dir_all(dir).expect("recovery folder");
    let file = dir.join(format!("{pid}-copy.json"));
    std::fs::write(&file, serde_json::to_string(&copy).expect("json")).expect("written");
    file
}

/// An edit made an instant before Save is in the recovery folder before the save writes
/// anything, so a kill at any point of the save loses nothing. The save is made to fail
/// where a kill would strike (its temporary file cannot be created), which leaves the
/// state a kill there would.
#[test]
fn an_edit_just_before_save_is_copied_before_the_save_writes() {
    let work = tempfile::tempdir().expect("temp dir");
    let recovery = work.path().join("recovery");
    let tree = tree_file(work.path());
    let mut h = Harness::new(Session::open(&tree).expect("opens"));
    h.app.set_recovery(Recovery::at(&recovery));
    h.frame();
    let added = h
        .app
        .session_mut()
        .add_node("Log", [300.0, 300.0])
        .expect("added");
    // Where the save's temporary file goes, a folder: the save fails there.
    let temp = format!("tree.json.tmp-{}", std::process::id());
    std::fs::create_dir_all(work.path().join(temp)).expect("blocker");
    h.key(egui::Key::S, CTRL);
    assert!(h.app.session().is_modified(), "the save failed");
    let copies = copies(&recovery);
    assert_eq!(
        copies.len(),
        1,
        "copied at once, not {} s later",
        arbor_editor::app::AUTOSAVE_QUIET
    );
    let copy: RecoveryFile =
        serde_json::from_str(&std::fs::read_to_string(&copies[0]).expect("read")).expect("json");
    assert!(copy.document.contains(&added), "the copy has the edit");
}

/// What a save killed after writing its temporary file leaves: the copy is offered and
/// the temporary file beside the tree is removed; a copy identical to the file on disk
/// (killed after the rename) goes without asking; a temporary file without a copy is
/// offered when its tree is opened.
#[test]
fn a_killed_saves_leftovers_are_offered_once_and_cleaned() {
    let work = tempfile::tempdir().expect("temp dir");
    let recovery = work.path().join("recovery");
    let tree = tree_file(work.path());
    let dead = u32::MAX - 1;
    let mut edited = Session::open(&tree).expect("opens");
    edited.add_node("Log", [300.0, 300.0]).expect("added");
    let temp = work.path().join(format!("tree.json.tmp-{dead}"));
    std::fs::write(&temp, edited.document().to_json()).expect("temp written");
    dead_copy(&recovery, dead, &tree, &edited);
    let offered = Recovery::at(&recovery).pending();
    assert_eq!(offered.len(), 1);
    assert!(
        !temp.exists(),
        "the interrupted save's temporary file is removed"
    );

    // Killed after the rename: the copy equals the file.
    std::fs::remove_dir_all(&recovery).expect("emptied");
    let saved = Session::open(&tree).expect("opens");
    dead_copy(&recovery, dead, &tree, &saved);
    assert!(Recovery::at(&recovery).pending().is_empty());
    assert!(copies(&recovery).is_empty(), "removed without asking");

    // Autosave was off in the killed editor: only the temporary file has the edit.
    std::fs::write(&temp, edited.document().to_json()).expect("temp written");
    let mut h = Harness::new(Session::default());
    h.app.set_recovery(Recovery::at(&recovery));
    h.app.open(&tree);
    let offer = &h.app.recovery().offer;
    assert_eq!(offer.len(), 1, "the temporary file is offered");
    assert_eq!(offer[0].contents.document, edited.document().to_json());
    h.app.restore_recovered();
    assert!(h.app.session().is_modified());
    assert!(!temp.exists(), "restored, then removed");
}

/// Restoring a crashed editor's copy into the tab that has the same file open (untouched)
/// shows the restored document everywhere at once: the canvas draws its new node, the
/// Problems list is the restored document's, and saving says the file still has problems.
#[test]
fn restoring_into_the_open_tab_refreshes_every_view() {
    let work = tempfile::tempdir().expect("temp dir");
    let recovery = work.path().join("recovery");
    std::fs::create_dir_all(&recovery).expect("recovery folder");
    let tree = tree_file(work.path());
    // What the crashed editor had: one more Wait, without its required `seconds`.
    let mut crashed = Session::open(&tree).expect("opens");
    let added = crashed.add_node("Wait", [400.0, 120.0]).expect("added");
    let copy = RecoveryFile {
        format: arbor_editor::app::RECOVERY_FORMAT.to_owned(),
        version: 1,
        // No such process: the copy is a dead editor's, so it is offered.
        pid: u32::MAX - 1,
        path: Some(tree.clone()),
        name: "tree".to_owned(),
        saved_at: 0,
        disk: None,
        document: crashed.document().to_json(),
    };
    std::fs::write(
        recovery.join("dead.json"),
        serde_json::to_string(&copy).expect("serialises"),
    )
    .expect("copy written");

    let mut h = Harness::new(Session::open(&tree).expect("opens"));
    h.frame();
    let nodes_before = h.app.session().document().node_count();
    let problems_before = h.app.report().problems.len();
    h.app.set_recovery(Recovery::at(&recovery));
    assert_eq!(h.app.recovery().offer.len(), 1);
    h.app.restore_recovered();
    h.frames(3);
    assert_eq!(h.app.tabs().len(), 1, "restored into the open tab");
    assert_eq!(h.app.session().document().node_count(), nodes_before + 1);
    let fresh = h.app.session().validate();
    assert_eq!(
        h.app.report().problems,
        fresh.problems,
        "Problems shows the restored document"
    );
    assert!(
        h.app.report().problems.len() > problems_before,
        "the restored Wait's missing parameter is listed"
    );
    let all: Vec<String> = h
        .app
        .session()
        .document()
        .nodes()
        .map(|n| n.guid.clone())
        .collect();
    h.app.canvas_mut().frame(&all);
    h.frames(3);
    let canvas = h.app.canvas();
    assert!(
        canvas.has_widget(&added) || canvas.lod_box(&added).is_some(),
        "the restored node is drawn"
    );
    h.key(egui::Key::S, CTRL);
    assert!(
        h.app
            .toasts()
            .texts()
            .iter()
            .any(|t| t.contains("to fix before it can run")),
        "{:?}",
        h.app.toasts().texts()
    );
}
