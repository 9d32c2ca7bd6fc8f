//! A file changed on disk by another program while open: the editor notices
//! within a check interval and asks (Reload / Keep mine); a save that would overwrite such
//! a change asks first (Overwrite / Cancel); a `touch` is not a change.

use std::path::{Path, PathBuf};

use crate::common::{session_with, Harness};
use arbor_editor::app::Conflict;
use arbor_editor::document::io;
use arbor_editor::Session;

/// A tree on disk opened in the editor; returns the harness and the path.
fn opened(dir: &Path) -> (Harness, PathBuf) {
    let (mut session, _) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [0.0, 120.0])]);
    let path = dir.join("tree.json");
    session.save_as(&path).expect("written");
    let h = Harness::new(Session::open(&path).expect("opens"));
    (h, path)
}

/// Another program's edit: the file with one more node.
fn edit_elsewhere(path: &Path) -> String {
    let mut other = Session::open(path).expect("opens");
    other.add_node("Log", [400.0, 0.0]).expect("added");
    io::save(other.document(), path).expect("saved");
    other.document().to_json()
}

#[test]
fn a_change_on_disk_is_noticed_and_reload_loads_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    h.wait(1.5);
    assert_eq!(h.app.conflict().cloned(), None);

    let theirs = edit_elsewhere(&path);
    h.frame();
    h.wait(1.5);
    let Some(Conflict::Changed { path: p, .. }) = h.app.conflict().cloned() else {
        panic!("not noticed: {:?}", h.app.conflict().cloned())
    };
    assert_eq!(p, path);
    // No unsaved changes: Reload needs no confirmation.
    h.app.choose_reload();
    assert_eq!(h.app.conflict().cloned(), None);
    assert_eq!(h.app.session().document().to_json(), theirs);
    assert!(!h.app.session().is_modified());
    // And nothing more to report.
    h.wait(1.5);
    assert_eq!(h.app.conflict().cloned(), None);
}

#[test]
fn reloading_over_unsaved_changes_asks_to_confirm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    h.app
        .session_mut()
        .add_node("Wait", [200.0, 120.0])
        .expect("added");
    let theirs = edit_elsewhere(&path);
    h.wait(1.5);
    assert!(matches!(
        h.app.conflict().cloned(),
        Some(Conflict::Changed {
            confirm_reload: false,
            ..
        })
    ));
    h.frame();
    h.app.choose_reload();
    assert!(
        matches!(
            h.app.conflict().cloned(),
            Some(Conflict::Changed {
                confirm_reload: true,
                ..
            })
        ),
        "asks before discarding"
    );
    assert_eq!(
        h.app.session().document().node_count(),
        3,
        "nothing lost yet"
    );
    h.frame();
    h.app.reload_from_disk();
    assert_eq!(h.app.session().document().to_json(), theirs);
}

#[test]
fn keep_mine_marks_the_document_modified_and_save_overwrites() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    let mine = h.app.session().document().to_json();
    edit_elsewhere(&path);
    h.wait(1.5);
    assert!(h.app.conflict().cloned().is_some());
    h.app.keep_mine();
    assert!(h.app.session().is_modified(), "differs from the file now");
    assert_eq!(h.app.session().document().to_json(), mine);
    h.wait(1.5);
    assert_eq!(h.app.conflict().cloned(), None, "not asked again");
    assert!(h.app.save());
    assert_eq!(std::fs::read_to_string(&path).expect("saved"), mine);
}

#[test]
fn saving_over_a_changed_file_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    h.app
        .session_mut()
        .add_node("Wait", [200.0, 120.0])
        .expect("added");
    let theirs = edit_elsewhere(&path);
    // Saved before the watch had a chance to notice.
    assert!(!h.app.save(), "not saved without asking");
    assert_eq!(
        h.app.conflict().cloned(),
        Some(Conflict::Overwrite { path: path.clone() })
    );
    assert_eq!(std::fs::read_to_string(&path).expect("file"), theirs);
    assert!(h.app.session().is_modified());
    h.frame();
    h.app.overwrite();
    assert!(!h.app.session().is_modified());
    assert_eq!(
        std::fs::read_to_string(&path).expect("file"),
        h.app.session().document().to_json()
    );
    h.wait(1.5);
    assert_eq!(
        h.app.conflict().cloned(),
        None,
        "our own save is not a change"
    );
}

#[test]
fn a_touch_or_our_own_save_is_not_a_change_and_a_deletion_is_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    let bytes = std::fs::read(&path).expect("file");
    std::fs::write(&path, &bytes).expect("rewritten");
    let file = std::fs::File::options()
        .write(true)
        .open(&path)
        .expect("open");
    file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(86_400))
        .expect("time set");
    h.wait(1.5);
    assert_eq!(h.app.conflict().cloned(), None);

    h.app
        .session_mut()
        .add_node("Wait", [200.0, 120.0])
        .expect("added");
    assert!(h.app.save());
    h.wait(1.5);
    assert_eq!(h.app.conflict().cloned(), None);

    std::fs::remove_file(&path).expect("deleted");
    h.wait(1.5);
    assert_eq!(
        h.app.conflict().cloned(),
        Some(Conflict::Missing { path: path.clone() })
    );
    h.app.keep_mine();
    assert!(h.app.session().is_modified());
    assert!(h.app.save(), "Save writes it again");
    assert!(path.exists());
}

#[test]
fn a_question_about_a_file_stays_with_its_tab() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut h, path) = opened(dir.path());
    edit_elsewhere(&path);
    h.frame();
    h.wait(1.5);
    assert!(h.app.conflict().is_some(), "noticed");

    // Another document: the question is not shown over it.
    let (other, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    h.app.show_in_tab(other);
    h.frame();
    assert_eq!(h.app.conflict(), None);
    assert!(h.app.tabs()[0].conflict().is_some(), "kept by its own tab");

    // Back on the file's tab, the question is there again.
    h.app.switch_to(0);
    assert!(matches!(h.app.conflict(), Some(Conflict::Changed { .. })));
}
