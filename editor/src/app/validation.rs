//! Validation: the one validation report of a tab's document, and the document
//! generation it describes. Every view that shows problems (the Problems panel, the marks
//! and messages on nodes, the menu bar's count) reads this report and keys its caches on
//! [`Validation::checked`], never on the session's generation, so no view can show the
//! problems of an older state than the others.
//!
//! A small document is checked on the spot, in the frame that changed it. A large one (at
//! least [`BACKGROUND_FROM`] nodes) is checked on a worker thread, so the frame after an
//! edit does not wait for a whole-tree check: its report arrives a check's time later
//! (one at a time; edits made meanwhile are checked together when it ends). The first
//! check of a document, when it is opened or created, is always made on the spot, so a
//! document never shows "no problems" before it has been checked.

use std::sync::mpsc::{self, Receiver, TryRecvError};

use arbor_runtime::Report;

use crate::document::validate_file;
use crate::Session;

/// Documents with at least this many nodes are checked on a worker thread. Below it a
/// check costs well under a millisecond per hundred nodes, less than handing it over.
pub const BACKGROUND_FROM: usize = 1_000;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Validation {
    report: Report,
    /// The session generation `report` describes; `None` before the first check.
    checked: Option<u64>,
    /// The check running on a worker thread: the generation it checks, and where its
    /// report arrives.
    running: Option<(u64, Receiver<Report>)>,
}

impl Validation {
    /// The latest report (see [`Validation::checked`] for which state it describes).
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The session generation the report describes.
    pub fn checked(&self) -> Option<u64> {
        self.checked
    }

    /// Whether the report describes the session as it is now.
    pub fn is_current(&self, session: &Session) -> bool {
        self.checked == Some(session.generation())
    }

    /// Whether a check is running on a worker thread.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Brings the report towards the session: takes a finished background check, and
    /// checks the current generation if no report or check covers it yet (on the spot,
    /// or on a worker thread for a large document). Returns whether the report changed.
    pub fn refresh(&mut self, session: &Session) -> bool {
        let mut changed = self.collect();
        let now = session.generation();
        if self.checked == Some(now) || self.running.is_some() {
            return changed;
        }
        if self.checked.is_none() || session.document().node_count() < BACKGROUND_FROM {
            self.report = session.validate();
            self.checked = Some(now);
            changed = true;
        } else {
            changed |= self.start(session);
        }
        changed
    }

    /// Waits for a running check and brings the report up to the session, on the spot:
    /// for tests, and for what must not act on an older report (saving says whether the
    /// file has errors).
    pub fn settle(&mut self, session: &Session) {
        if let Some((generation, rx)) = self.running.take() {
            if let Ok(report) = rx.recv() {
                self.report = report;
                self.checked = Some(generation);
            }
        }
        if !self.is_current(session) {
            self.report = session.validate();
            self.checked = Some(session.generation());
        }
    }

    /// Takes the report of a finished background check, if there is one.
    fn collect(&mut self) -> bool {
        let Some((generation, rx)) = &self.running else {
            return false;
        };
        match rx.try_recv() {
            Ok(report) => {
                self.report = report;
                self.checked = Some(*generation);
                self.running = None;
                true
            }
            Err(TryRecvError::Empty) => false,
            // The worker died (a panic in the checker): the next refresh checks again,
            // and a check that panics on the spot is then caught by the app's guard.
            Err(TryRecvError::Disconnected) => {
                self.running = None;
                false
            }
        }
    }

    /// Starts checking the session's current state on a worker thread. Returns whether
    /// the report changed (when no thread could be had and it was checked on the spot).
    fn start(&mut self, session: &Session) -> bool {
        let file = session.document().to_checked_file();
        let path = session.path().map(ToOwned::to_owned);
        let types = session.types().clone();
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("arbor-validation".to_owned())
            .spawn(move || {
                let report = validate_file(&file, path.as_deref(), &types);
                // The tab may be gone; then nobody wants the report.
                let _ = tx.send(report);
            });
        match spawned {
            Ok(_) => {
                self.running = Some((session.generation(), rx));
                false
            }
            // No thread to be had: check on the spot rather than not at all.
            Err(_) => {
                self.report = session.validate();
                self.checked = Some(session.generation());
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::SetParam;
    use crate::document::{io, Owner};
    use serde_json::json;

    /// A Sequence over `n - 1` Waits of one second: a valid tree of `n` nodes.
    fn big_session(n: usize) -> (Session, String) {
        let guid = |i: usize| format!("00000000-0000-4000-8000-{i:012x}");
        let mut nodes = vec![json!({
            "guid": guid(0), "type": "Sequence",
            "children": (1..n).map(guid).collect::<Vec<_>>(),
        })];
        nodes.extend((1..n).map(|i| {
            json!({
                "guid": guid(i), "type": "Wait", "params": { "seconds": 1.0 },
            })
        }));
        let file = json!({
            "format": "arbor-tree", "version": 1,
            "guid": "11111111-0000-4000-8000-000000000000", "name": "big",
            "root": guid(0), "nodes": nodes,
        });
        let doc = io::load_str(&file.to_string(), None).expect("a valid file");
        (Session::new(doc), guid(1))
    }

    fn set_seconds(session: &mut Session, wait: &str, value: Option<serde_json::Value>) {
        let owner = Owner::Node(wait.to_owned());
        let cmd = SetParam::new(session.document(), owner, "seconds", value).expect("a param");
        session.apply(cmd).expect("applied");
    }

    #[test]
    fn a_large_document_is_checked_in_the_background_and_the_report_catches_up() {
        let (mut session, wait) = big_session(BACKGROUND_FROM + 10);
        let mut v = Validation::default();
        // The first check is made on the spot: an opened document never shows "no
        // problems" before it was checked.
        assert!(v.refresh(&session));
        assert!(v.is_current(&session) && v.report().problems.is_empty());

        // An edit that breaks the tree: a Wait loses its seconds.
        set_seconds(&mut session, &wait, None);
        v.refresh(&session);
        assert!(v.is_running(), "checked on a worker thread");
        assert!(!v.is_current(&session), "the report trails while it runs");
        // Until it lands, refreshes do not block; then the report is the new one.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !v.is_current(&session) {
            assert!(std::time::Instant::now() < deadline, "the check ended");
            v.refresh(&session);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(v.report().for_node(&wait).any(|p| p.is_error()));

        // Edits made while a check runs are checked together when it ends.
        set_seconds(&mut session, &wait, Some(json!(2.0)));
        v.refresh(&session);
        set_seconds(&mut session, &wait, Some(json!(3.0)));
        v.refresh(&session);
        v.settle(&session);
        assert!(v.is_current(&session) && v.report().problems.is_empty());
    }

    #[test]
    fn a_small_document_is_checked_in_the_frame_of_the_edit() {
        let (mut session, wait) = big_session(10);
        let mut v = Validation::default();
        v.refresh(&session);
        set_seconds(&mut session, &wait, None);
        assert!(v.refresh(&session));
        assert!(!v.is_running() && v.is_current(&session));
        assert!(v.report().for_node(&wait).any(|p| p.is_error()));
    }
}
