//! Recovery: unsaved documents are copied to a recovery folder a few seconds after each
//! change, so a crash, a `kill -9` or a power cut loses at most those seconds; the next
//! start offers to restore them.
//!
//! - Folder: `$ARBOR_RECOVERY_DIR` if set (tests use a temporary one), else `recovery` in
//!   the folder eframe keeps the app's data in (`eframe::storage_dir`): on Linux
//!   `$XDG_DATA_HOME/arbor` or `~/.local/share/arbor`, on macOS
//!   `~/Library/Application Support/Arbor`, on Windows `%APPDATA%\Arbor\data`.
//! - One file per modified document, `<pid>-<document guid>-<hash of its path>.json`: a
//!   small envelope ([`RecoveryFile`]) holding the original path, the time, the stamp of
//!   the original file, and the document's canonical text. One file, written with the
//!   same atomic writer as saves ([`io::write_atomic`]), so a crash while autosaving
//!   leaves the previous copy intact, never half of one.
//! - When: after [`QUIET`] seconds without a change, or [`MAX_DELAY`] seconds after the
//!   first unwritten change if the user never pauses.
//! - The copy is removed when the document is saved, undone back to its saved state, or
//!   closed (its tab gone), and all copies are removed when the app closes normally.
//! - On start, files left by processes that are no longer running are offered (Restore,
//!   Discard, or Decide later). A running editor holds an exclusive lock on
//!   `<pid>.lock` in the folder for as long as it runs ([`std::fs::File::try_lock`]); the
//!   system releases it when the process ends however it ends, so a copy is offered only
//!   if nobody holds its writer's lock. The same check works on every platform and is not
//!   fooled by a reused process id.
//! - Saving first copies the document here (the copy is removed once the save is done),
//!   so an edit made just before Save survives a kill at any point of the save: before
//!   the new file is complete the copy has it, after the rename the file has it. What a
//!   killed save leaves beside the file (`<name>.tmp-<pid>`) is then cleaned up when its
//!   copy is offered; a stale temporary file without a copy (autosave was off) is offered
//!   on its own when its file is opened, if it holds a tree other than the file's, and
//!   removed otherwise. A copy identical to its file on disk (the save finished, the
//!   clean-up did not) is removed without asking.
//!
//! Limitations: nothing is written while the app is not drawing frames; it asks for a
//! frame when a write falls due, so this matters only when the system suspends it. An
//! editor that cannot create its lock file (a read-only folder) looks ended to others.

use crate::i18n::t;

use crate::words;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::ArborApp;
use crate::document::io::{self, SaveError};
use crate::document::{fnv1a, DiskStamp};
use crate::Session;

/// Environment variable naming the recovery folder (used by tests).
pub const ENV_DIR: &str = "ARBOR_RECOVERY_DIR";
/// Seconds without a change before an unsaved document is copied.
pub const QUIET: f64 = 2.0;
/// At most this many seconds after the first unwritten change, even while still editing.
pub const MAX_DELAY: f64 = 10.0;
/// The envelope's `format` field.
pub const FORMAT: &str = "arbor-recovery";

/// What a recovery file holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)] // if we add new fields, give them default values when reading old files
pub struct RecoveryFile {
    /// Always `arbor-recovery` (`FORMAT`).
    pub format: String,
    pub version: u32,
    /// The editor process that wrote it.
    pub pid: u32,
    /// The document's file, if it had one: Save after restoring writes there.
    pub path: Option<PathBuf>,
    /// The document's name, for the dialog.
    pub name: String,
    /// Seconds since the Unix epoch.
    pub saved_at: u64,
    /// The original file as the editor last read or wrote it.
    pub disk: Option<DiskStamp>,
    /// The document's canonical text (a tree file).
    pub document: String,
}

/// A recovery file found on start.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The recovery file itself.
    pub file: PathBuf,
    pub contents: RecoveryFile,
}

/// How far one document's autosave has got.
#[derive(Debug)]
struct Tracked {
    /// The session generation last seen.
    seen: u64,
    /// The generation last written, if any.
    written: Option<u64>,
    /// When the oldest unwritten change was seen.
    since: f64,
    /// When the latest change was seen.
    last: f64,
}

impl Tracked {
    fn dirty(&self) -> bool {
        self.written != Some(self.seen)
    }

    fn due_at(&self) -> f64 {
        (self.last + QUIET).min(self.since + MAX_DELAY)
    }
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Recovery {
    /// `None`: autosave is off (the default for an app made with `ArborApp::new`, so tests
    /// and embedders never write to the user's folder unless they ask).
    dir: Option<PathBuf>,
    tracked: HashMap<String, Tracked>,
    /// Files left by earlier runs, waiting for the user to choose (the dialog shows them).
    pub offer: Vec<Recovered>,
    /// The last write failure already reported, so it is shown once, not every frame.
    reported: Option<String>,
    /// This process's lock on `<pid>.lock`, held while the app runs (module documentation).
    lock: Option<std::fs::File>,
}

impl Recovery {
    /// Autosave off.
    pub fn disabled() -> Recovery {
        Recovery::default()
    }

    /// Autosave into `dir` (created when first needed).
    pub fn at(dir: impl Into<PathBuf>) -> Recovery {
        Recovery {
            dir: Some(dir.into()),
            ..Recovery::default()
        }
    }

    /// Autosave into the standard folder (see the module documentation); off if no
    /// folder can be named (no home directory).
    pub fn standard() -> Recovery {
        match standard_dir() {
            Some(dir) => Recovery::at(dir),
            None => Recovery::disabled(),
        }
    }

    /// The folder, if autosave is on.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The recovery file this process writes for `session`.
    pub fn file_for(&self, session: &Session) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}.json", stem(session))))
    }

    /// Takes this process's lock (see the module documentation), creating the folder if
    /// needed; other editors then leave this one's copies alone.
    pub fn hold_lock(&mut self) -> Result<(), String> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let path = lock_path(dir, std::process::id());
        let file = std::fs::create_dir_all(dir)
            .and_then(|()| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&path)
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.try_lock()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.lock = Some(file);
        Ok(())
    }

    /// Recovery files left by editors that are no longer running, oldest first. Files that
    /// cannot be read as recovery files are left alone and not listed. On the way, what
    /// ended editors left that is of no more use goes: their lock files, half-written
    /// copies, the temporary files of their interrupted saves, and copies identical to
    /// their file on disk.
    pub fn pending(&self) -> Vec<Recovered> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let me = std::process::id();
        let ended = |pid: u32| pid != me && !process_alive(dir, pid);
        let mut copies = Vec::new();
        for file in entries.filter_map(Result::ok).map(|e| e.path()) {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Some(pid) = name.strip_suffix(".lock").and_then(|p| p.parse().ok()) {
                if ended(pid) {
                    let _ = std::fs::remove_file(&file);
                }
            } else if let Some(pid) = temp_pid(&name) {
                if ended(pid) {
                    let _ = std::fs::remove_file(&file);
                }
            } else if file.extension().is_some_and(|x| x == "json") {
                copies.push(file);
            }
        }
        let mut found: Vec<Recovered> = copies
            .into_iter()
            .filter_map(|file| {
                let text = arbor_editor_model::document::io::read_text(&file).ok()?;
                let contents: RecoveryFile = serde_json::from_str(&text).ok()?;
                (contents.format == FORMAT).then_some(Recovered { file, contents })
            })
            .filter(|r| ended(r.contents.pid))
            .filter(|r| {
                let Some(path) = &r.contents.path else {
                    return true;
                };
                let _ = std::fs::remove_file(save_temp(path, r.contents.pid));
                let saved = io::read_text(path).is_ok_and(|t| t == r.contents.document);
                if saved {
                    let _ = std::fs::remove_file(&r.file);
                }
                !saved
            })
            .collect();
        found.sort_by(|a, b| (a.contents.saved_at, &a.file).cmp(&(b.contents.saved_at, &b.file)));
        found
    }

    /// One frame's autosave over every open document: copies those that are due, removes
    /// the copies of documents no longer modified or no longer open. Returns the seconds
    /// until the next copy falls due, if one is waiting, so the caller can ask for a frame
    /// then; and a write failure to report, once.
    pub fn autosave(&mut self, now: f64, sessions: &[&Session]) -> (Option<f64>, Option<String>) {
        if self.dir.is_none() {
            return (None, None);
        }
        let mut live = HashSet::new();
        let mut failure = None;
        for session in sessions.iter().filter(|s| copied(s)) {
            let key = stem(session);
            let tracked = self.tracked.entry(key.clone()).or_insert(Tracked {
                seen: session.generation(),
                written: None,
                since: now,
                last: now,
            });
            if tracked.seen != session.generation() {
                if !tracked.dirty() {
                    tracked.since = now;
                }
                tracked.seen = session.generation();
                tracked.last = now;
            }
            if tracked.dirty() && now >= tracked.due_at() {
                let generation = tracked.seen;
                match self.write(session) {
                    Ok(_) => {
                        if let Some(t) = self.tracked.get_mut(&key) {
                            t.written = Some(generation);
                        }
                    }
                    Err(e) => {
                        // Try again after another quiet period rather than every frame.
                        if let Some(t) = self.tracked.get_mut(&key) {
                            t.since = now;
                            t.last = now;
                        }
                        failure = Some(e);
                    }
                }
            }
            live.insert(key);
        }
        let gone: Vec<String> = self
            .tracked
            .keys()
            .filter(|k| !live.contains(*k))
            .cloned()
            .collect();
        for key in gone {
            if let Some(t) = self.tracked.remove(&key) {
                if t.written.is_some() {
                    self.remove(&key);
                }
            }
        }
        let next = self
            .tracked
            .values()
            .filter(|t| t.dirty())
            .map(|t| (t.due_at() - now).max(0.0))
            .reduce(f64::min);
        let failure = failure.filter(|f| self.reported.as_ref() != Some(f));
        if let Some(f) = &failure {
            self.reported = Some(f.clone());
        }
        (next, failure)
    }

    /// Copies every modified document now, whatever the timers say (after a panic, on an
    /// abnormal exit). Returns the files written and the failures.
    pub fn flush(&mut self, sessions: &[&Session]) -> (Vec<PathBuf>, Vec<String>) {
        let mut written = Vec::new();
        let mut failed = Vec::new();
        if self.dir.is_none() {
            return (written, failed);
        }
        for session in sessions.iter().filter(|s| copied(s)) {
            match self.write(session) {
                Ok(file) => {
                    let generation = session.generation();
                    self.tracked.insert(
                        stem(session),
                        Tracked {
                            seen: generation,
                            written: Some(generation),
                            since: 0.0,
                            last: 0.0,
                        },
                    );
                    written.push(file);
                }
                Err(e) => failed.push(e),
            }
        }
        (written, failed)
    }

    /// Removes every copy this process wrote, and its lock (the app is closing normally:
    /// the user has saved or discarded each document).
    pub fn clear(&mut self) {
        let keys: Vec<String> = self.tracked.drain().map(|(k, _)| k).collect();
        for key in keys {
            self.remove(&key);
        }
        if let (Some(lock), Some(dir)) = (self.lock.take(), &self.dir) {
            drop(lock);
            let _ = std::fs::remove_file(lock_path(dir, std::process::id()));
        }
    }

    /// The temporary file an ended editor's interrupted save left beside `path`, as a
    /// copy to offer when it holds a tree other than the file's; removed if it does not.
    /// `None` without such a file, or when autosave is off (no locks to tell an ended
    /// editor from a running one).
    pub fn stale_save(&self, path: &Path) -> Vec<Recovered> {
        let (Some(dir), Some(folder), Some(name)) = (&self.dir, path.parent(), path.file_name())
        else {
            return Vec::new();
        };
        let prefix = format!("{}.tmp-", name.to_string_lossy());
        let Ok(entries) = std::fs::read_dir(if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        }) else {
            return Vec::new();
        };
        let me = std::process::id();
        let current = io::read_text(path).ok();
        let mut found = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            let entry_name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = entry_name
                .strip_prefix(&prefix)
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me || process_alive(dir, pid) {
                continue;
            }
            let file = entry.path();
            let text = io::read_text(&file).ok();
            let tree = text
                .as_deref()
                .and_then(|t| io::load_str(t, Some(path)).ok());
            match (text, tree) {
                (Some(text), Some(doc)) if current.as_deref() != Some(text.as_str()) => {
                    found.push(Recovered {
                        file,
                        contents: RecoveryFile {
                            format: FORMAT.to_owned(),
                            version: 1,
                            pid,
                            path: Some(path.to_owned()),
                            name: doc.name().to_owned(),
                            saved_at: modified_secs(&entry),
                            disk: DiskStamp::read(path).ok(),
                            document: text,
                        },
                    })
                }
                _ => {
                    let _ = std::fs::remove_file(&file);
                }
            }
        }
        found
    }

    fn write(&self, session: &Session) -> Result<PathBuf, String> {
        let Some(dir) = &self.dir else {
            return Err("autosave is off".to_owned());
        };
        let file = dir.join(format!("{}.json", stem(session)));
        let contents = RecoveryFile {
            format: FORMAT.to_owned(),
            version: 1,
            pid: std::process::id(),
            path: session.path().map(Path::to_path_buf),
            name: session.document().name().to_owned(),
            saved_at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            disk: session.disk_stamp(),
            document: session.document().to_json(),
        };
        let text = serde_json::to_vec_pretty(&contents)
            .map_err(|e| format!("cannot encode the recovery copy: {e}"))?;
        std::fs::create_dir_all(dir)
            .and_then(|()| io::write_atomic(&file, &text))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        Ok(file)
    }

    fn remove(&self, key: &str) {
        if let Some(dir) = &self.dir {
            // Already gone is fine: the goal is that it does not exist.
            let _ = std::fs::remove_file(dir.join(format!("{key}.json")));
        }
    }
}

/// `<pid>-<guid>-<path hash>`: unique per process and open document. The GUID comes from
/// the file, so only safe characters of it are used (never `/` or `..`).
fn stem(session: &Session) -> String {
    let guid: String = session
        .document()
        .guid()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(64)
        .collect();
    let path = session
        .path()
        .map(|p| p.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "{}-{guid}-{:016x}",
        std::process::id(),
        fnv1a(path.as_bytes())
    )
}

fn standard_dir() -> Option<PathBuf> {
    match std::env::var_os(ENV_DIR).filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => eframe::storage_dir(super::APP_ID).map(|d| d.join("recovery")),
    }
}

/// The lock file editor `pid` holds while it runs (module documentation).
/// Whether the session's document is copied: a modified tree. A variant is not: its copy
/// holds the tree with the variant's values, which restored would be saved as a tree over
/// the variant file (docs/editor.md, "Variants", says so).
fn copied(session: &Session) -> bool {
    session.is_modified() && session.document().variant().is_none()
}

pub fn lock_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("{pid}.lock"))
}

/// Whether the editor with process id `pid` still runs: someone holds its lock. A lock
/// that cannot be checked (no file, an I/O error) counts as released.
fn process_alive(dir: &Path, pid: u32) -> bool {
    let Ok(file) = std::fs::OpenOptions::new()
        .write(true)
        .open(lock_path(dir, pid))
    else {
        return false;
    };
    matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

/// The process id of an atomic write's temporary file name (`<name>.tmp-<pid>`).
fn temp_pid(name: &str) -> Option<u32> {
    name.rsplit_once(".tmp-")
        .and_then(|(_, pid)| pid.parse().ok())
}

/// The temporary file process `pid`'s save of `path` writes ([`io::write_atomic`]).
fn save_temp(path: &Path, pid: u32) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{pid}"));
    path.with_file_name(name)
}

fn modified_secs(entry: &std::fs::DirEntry) -> u64 {
    entry
        .metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs())
}

/// The message for a failed save: what went wrong in words, and that nothing was lost.
pub fn not_saved_message(e: &SaveError) -> String {
    use std::io::ErrorKind as K;
    let why = match e.source.kind() {
        K::PermissionDenied | K::ReadOnlyFilesystem => {
            "the folder is read-only or you may not write there"
        }
        K::StorageFull | K::QuotaExceeded => "the disk is full",
        K::FileTooLarge => "the file is larger than this system or account allows",
        K::NotFound => "the folder does not exist",
        K::NotADirectory => "part of the path is a file, not a folder",
        K::InvalidData => {
            return format!(
                "Not saved: the tree cannot be written in that format.\n{e}\nNothing was \
                 written; your changes are still here, unsaved. Save As… a .json file keeps \
                 everything."
            )
        }
        _ => "the file could not be written",
    };
    format!(
        "Not saved: {why}.\n{e}\nThe file on disk is unchanged; your changes are still here, unsaved. Try Save As… elsewhere."
    )
}

impl ArborApp {
    /// Turns autosave on with `recovery` and offers what earlier runs left behind.
    pub fn with_recovery(mut self, recovery: Recovery) -> ArborApp {
        self.set_recovery(recovery);
        self
    }

    /// As [`ArborApp::with_recovery`], in place.
    pub fn set_recovery(&mut self, mut recovery: Recovery) {
        if let Err(e) = recovery.hold_lock() {
            self.shared.toasts.error(format!(
                "Autosave cannot mark this editor as running ({e}); another editor may offer its copies."
            ));
        }
        recovery.offer = recovery.pending();
        self.recovery = recovery;
    }

    /// Before a save: the document as it is goes to the recovery folder first, so a kill
    /// during the save never loses the edit (module documentation).
    pub(super) fn secure_before_save(&mut self) {
        let session = self.tabs[self.active].session();
        let _ = self.recovery.flush(&[session]);
    }

    /// After opening `path`: offers what an ended editor's interrupted save left beside it.
    pub(super) fn offer_stale_save(&mut self, path: &Path) {
        let found = self.recovery.stale_save(path);
        self.recovery.offer.extend(found);
    }

    /// Per frame: copies unsaved documents that are due and asks for a frame when the
    /// next one will be.
    pub(super) fn autosave(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let sessions = super::sessions(&self.tabs);
        let (next, failure) = self.recovery.autosave(now, &sessions);
        if let Some(wait) = next {
            ctx.request_repaint_after(Duration::from_secs_f64(wait + 0.05));
        }
        if let Some(failure) = failure {
            self.shared.toasts.error(format!(
                "Autosave failed: {failure}. Save your work to be safe."
            ));
        }
    }

    /// Opens every offered recovery copy as a modified document in its own tab (with its
    /// original path, so Save writes back), copies it under this process's name, then
    /// deletes the old file. A copy that cannot be read is kept on disk and reported.
    pub fn restore_recovered(&mut self) {
        let offer = std::mem::take(&mut self.recovery.offer);
        let mut restored = Vec::new();
        for item in offer {
            let path = item.contents.path.clone();
            match io::load_str(&item.contents.document, path.as_deref()) {
                Ok(doc) => {
                    let session = Session::recovered(doc, path.clone(), item.contents.disk);
                    self.place_recovered(session);
                    restored.push(item.file);
                }
                Err(e) => self.shared.toasts.error(format!(
                    "Could not restore “{}”: {e}\nThe recovery copy stays at {}.",
                    item.contents.name,
                    item.file.display()
                )),
            }
        }
        // Our own copy first, then the old one goes: a crash in between leaves two copies,
        // never none.
        let sessions = super::sessions(&self.tabs);
        let (_, failed) = self.recovery.flush(&sessions);
        if failed.is_empty() {
            for file in &restored {
                let _ = std::fs::remove_file(file);
            }
        }
        if !restored.is_empty() {
            self.shared.toasts.info(format!(
                "Restored {} unsaved document{}. Save to keep {}.",
                restored.len(),
                if restored.len() == 1 { "" } else { "s" },
                if restored.len() == 1 { "it" } else { "them" }
            ));
        }
    }

    /// Deletes every offered recovery copy.
    pub fn discard_recovered(&mut self) {
        for item in std::mem::take(&mut self.recovery.offer) {
            let _ = std::fs::remove_file(&item.file);
        }
    }

    /// A restored document replaces an untouched tab on the same file, or gets a new tab.
    fn place_recovered(&mut self, session: Session) {
        let same = |s: &Session| {
            !s.is_modified()
                && s.path().is_some()
                && s.path().and_then(|p| p.canonicalize().ok())
                    == session.path().and_then(|p| p.canonicalize().ok())
        };
        if let Some(tab) = self.tabs.iter_mut().find(|t| same(t.session())) {
            // A different document: its views start afresh, as for one just opened.
            *tab = super::Tab::new(session);
            return;
        }
        self.show_in_tab(session);
    }

    /// The dialog offering what an earlier run left behind.
    pub(super) fn recovery_dialog(&mut self, ctx: &egui::Context) {
        if self.recovery.offer.is_empty() {
            return;
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut choice = None;
        let n = self.recovery.offer.len();
        egui::Window::new("Restore unsaved documents?")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(format!(
                    "Arbor did not close normally last time. {} can be restored:",
                    words::count(n, "unsaved document")
                ));
                for item in &self.recovery.offer {
                    let c = &item.contents;
                    let place = c
                        .path
                        .as_ref()
                        .map_or_else(|| "never saved".to_owned(), |p| p.display().to_string());
                    ui.label(format!(
                        "• “{}” ({place}), {} ago",
                        c.name,
                        ago(now.saturating_sub(c.saved_at))
                    ));
                }
                ui.horizontal(|ui| {
                    if ui.button(t("Restore")).clicked() {
                        choice = Some(0);
                    }
                    if ui.button(t("Discard")).clicked() {
                        choice = Some(1);
                    }
                    if ui.button(t("Decide later")).clicked() {
                        choice = Some(2);
                    }
                });
            });
        match choice {
            Some(0) => self.restore_recovered(),
            Some(1) => self.discard_recovered(),
            Some(_) => self.recovery.offer.clear(),
            None => {}
        }
    }

    /// The app is closing: if the user answered for every unsaved document (or there is
    /// none), the copies go; otherwise (closed without asking, or Quit after an internal
    /// error) they are written now and stay for the next start.
    pub fn exit_recovery(&mut self) {
        let modified = self.sessions().iter().any(|s| s.is_modified());
        if !modified || (self.files.close_confirmed && !self.guard.quitting()) {
            self.recovery.clear();
        } else {
            let sessions = super::sessions(&self.tabs);
            self.recovery.flush(&sessions);
        }
    }
}

fn ago(seconds: u64) -> String {
    match seconds {
        0..=89 => format!("{seconds} s"),
        90..=5399 => format!("{} min", seconds / 60),
        5400..=172_799 => format!("{} h", seconds / 3600),
        _ => words::count((seconds / 86_400) as usize, "day"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn edited() -> Session {
        let mut s = Session::new(Document::new("t"));
        s.add_node("Sequence", [0.0, 0.0]).unwrap();
        s
    }

    #[test]
    fn writes_after_a_quiet_period_and_removes_when_saved() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = Recovery::at(dir.path());
        let mut s = edited();
        let file = r.file_for(&s).unwrap();
        let (next, _) = r.autosave(0.0, &[&s]);
        assert_eq!(next, Some(QUIET));
        r.autosave(1.0, &[&s]);
        assert!(!file.exists(), "written before the quiet period");
        r.autosave(QUIET + 0.1, &[&s]);
        assert!(file.exists());
        let back: RecoveryFile =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(back.document, s.document().to_json());
        assert_eq!(back.pid, std::process::id());

        // Saving removes the copy.
        s.save_as(&dir.path().join("t.json")).unwrap();
        r.autosave(3.0, &[&s]);
        assert!(!file.exists());
    }

    #[test]
    fn a_busy_user_is_still_copied_within_max_delay() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = Recovery::at(dir.path());
        let mut s = edited();
        let file = r.file_for(&s).unwrap();
        let mut t = 0.0;
        while t < MAX_DELAY + 1.0 && !file.exists() {
            s.add_node("Wait", [t, 0.0]).unwrap();
            r.autosave(t, &[&s]);
            t += 0.5;
        }
        assert!(file.exists());
        assert!(t <= MAX_DELAY + 0.5, "copied only at {t}");
    }

    #[test]
    fn closed_documents_lose_their_copy_and_others_files_are_offered() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = Recovery::at(dir.path());
        let s = edited();
        r.flush(&[&s]);
        let file = r.file_for(&s).unwrap();
        assert!(file.exists());
        // Our own files are never offered to ourselves.
        assert!(r.pending().is_empty());
        r.autosave(0.0, &[]);
        assert!(!file.exists(), "the tab was closed");

        // A file from a process that is gone (no process has the largest pid).
        let left = RecoveryFile {
            format: FORMAT.to_owned(),
            version: 1,
            pid: u32::MAX,
            name: "old".to_owned(),
            document: s.document().to_json(),
            ..RecoveryFile::default()
        };
        let old = dir.path().join("old.json");
        std::fs::write(&old, serde_json::to_string(&left).unwrap()).unwrap();
        std::fs::write(dir.path().join("junk.json"), "{ not json").unwrap();
        let pending = r.pending();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].file, old);
        assert_eq!(pending[0].contents, left);
    }

    #[test]
    fn a_hostile_guid_cannot_escape_the_folder() {
        let mut file = arbor_runtime::format::TreeFile::new("t");
        file.guid = "../../etc/passwd".to_owned();
        let doc = Document::from_tree_file(file, None).unwrap();
        let s = Session::new(doc);
        let name = stem(&s);
        assert!(!name.contains('/') && !name.contains(".."), "{name}");
    }

    #[test]
    fn messages_say_what_went_wrong() {
        let e = |kind| SaveError {
            path: PathBuf::from("/x/t.json"),
            source: std::io::Error::from(kind),
        };
        let full = not_saved_message(&e(std::io::ErrorKind::StorageFull));
        assert!(full.contains("the disk is full") && full.contains("/x/t.json"));
        assert!(
            not_saved_message(&e(std::io::ErrorKind::ReadOnlyFilesystem)).contains("read-only")
        );
    }

    #[test]
    fn an_editor_is_alive_while_it_holds_its_lock() {
        let dir = std::env::temp_dir().join(format!("arbor-locks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!process_alive(&dir, u32::MAX), "no lock file: ended");
        let mut recovery = Recovery::at(&dir);
        recovery.hold_lock().expect("locked");
        assert!(process_alive(&dir, std::process::id()));
        recovery.clear();
        assert!(
            !process_alive(&dir, std::process::id()),
            "released on a normal close"
        );
        assert!(!lock_path(&dir, std::process::id()).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
