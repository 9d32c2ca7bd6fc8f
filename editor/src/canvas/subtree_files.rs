//! What a Subtree node's file holds ("tree "patrol" · root Sequence"), for the canvas,
//! read off the UI thread: the canvas refreshes its nodes on every edit, and a slow disk,
//! a network folder or a hostile path must never stall an edit.
//!
//! [`SubtreeFiles::summary`] answers from what is known and asks a worker thread to check
//! the file again; the worker reads a file only when its modification time or length
//! changed (through the bounded reader) and replies; [`SubtreeFiles::receive`] takes the
//! replies on the next frame and says whether a summary changed, and the worker asks for
//! that frame. Until the first reply a node shows "reading…".

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::SystemTime;

/// Shown until the worker has read the file once.
pub const READING: &str = "reading…";

thread_local! {
    static READS: Cell<u64> = const { Cell::new(0) };
}

/// Subtree files read on the calling thread so far: the UI thread's stays 0 (tests).
pub fn reads_here() -> u64 {
    READS.with(Cell::get)
}

/// The line to the worker: paths to check one way, summaries back.
type Worker = (Sender<PathBuf>, Receiver<(PathBuf, String)>);

/// The canvas's side: known summaries and the line to the worker.
#[derive(Default)]
pub struct SubtreeFiles {
    known: HashMap<PathBuf, String>,
    asked: HashSet<PathBuf>,
    worker: Option<Worker>,
    repaint: Option<egui::Context>,
}

impl SubtreeFiles {
    /// The context the worker asks for a frame through when a reply arrives.
    pub fn set_repaint(&mut self, ctx: &egui::Context) {
        if self.repaint.is_none() {
            self.repaint = Some(ctx.clone());
        }
    }

    /// The summary of the file at `path` as last read ([`READING`] before that), and a
    /// request to check it again. No disk access here.
    pub fn summary(&mut self, path: &Path) -> String {
        if self.asked.insert(path.to_owned()) {
            let repaint = self.repaint.clone();
            let (tx, _) = self.worker.get_or_insert_with(|| spawn(repaint));
            // A worker that is gone (it cannot be, short of a panic) leaves "reading…".
            let _ = tx.send(path.to_owned());
        }
        self.known
            .get(path)
            .cloned()
            .unwrap_or_else(|| READING.to_owned())
    }

    /// Takes the worker's replies; whether a summary changed (shown nodes need a refresh).
    /// Files are asked about again at the next [`SubtreeFiles::summary`].
    pub fn receive(&mut self) -> bool {
        let Some((_, rx)) = &self.worker else {
            return false;
        };
        let mut changed = false;
        for (path, text) in rx.try_iter() {
            self.asked.remove(&path);
            if self.known.get(&path) != Some(&text) {
                self.known.insert(path, text);
                changed = true;
            }
        }
        changed
    }
}

/// The worker: one thread per canvas, ending when the canvas drops its side.
fn spawn(repaint: Option<egui::Context>) -> Worker {
    let (ask, asked) = mpsc::channel::<PathBuf>();
    let (reply, replies) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("subtree files".into())
        .spawn(move || {
            let mut seen: HashMap<PathBuf, (Option<SystemTime>, u64, String)> = HashMap::new();
            for path in asked {
                let meta = std::fs::metadata(&path).ok();
                let stamp = meta.as_ref().map(|m| (m.modified().ok(), m.len()));
                let text = match (seen.get(&path), stamp) {
                    (Some((t, n, text)), Some((mt, len))) if *t == mt && *n == len => text.clone(),
                    _ => {
                        let text = describe(&path);
                        if let Some((mt, len)) = stamp {
                            seen.insert(path.clone(), (mt, len, text.clone()));
                        }
                        text
                    }
                };
                if reply.send((path, text)).is_err() {
                    break;
                }
                if let Some(ctx) = &repaint {
                    ctx.request_repaint();
                }
            }
        });
    if spawned.is_err() {
        // No thread: the summaries stay "reading…"; the canvas works without them.
    }
    (ask, replies)
}

/// The referenced tree's name and root type, or why the file cannot be used.
fn describe(path: &Path) -> String {
    READS.with(|r| r.set(r.get() + 1));
    let Ok(text) = arbor_editor_model::document::io::read_text(path) else {
        return "file not found or not readable".to_owned();
    };
    match arbor_runtime::parse_str(&text, Some(path)) {
        Ok(file) => {
            let root = file
                .root
                .as_deref()
                .and_then(|r| file.node(r))
                .map_or("no root", |n| n.kind.as_str());
            format!("tree \"{}\" · root {root}", file.name)
        }
        Err(_) => "not a valid tree file".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_come_from_the_worker_never_the_caller() {
        let dir = std::env::temp_dir().join(format!("arbor-subtree-files-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("sub.json");
        let tree = r#"{"format": "arbor-tree", "version": 1, "guid": "00000000-0000-4000-8000-000000000001",
            "name": "patrol", "root": "00000000-0000-4000-8000-000000000002",
            "nodes": [{"guid": "00000000-0000-4000-8000-000000000002", "name": "s", "type": "Sequence"}]}"#;
        std::fs::write(&path, tree).expect("written");
        let mut files = SubtreeFiles::default();
        assert_eq!(files.summary(&path), READING);
        let (_, rx) = files.worker.as_ref().expect("a worker");
        // A guard against a worker that never answers, not a measurement.
        let (p, text) = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("a reply");
        assert_eq!(p, path);
        assert_eq!(text, "tree \"patrol\" · root Sequence");
        assert_eq!(reads_here(), 0, "the caller never read the file");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
