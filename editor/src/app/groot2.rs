//! The app's side of attaching to a BehaviorTree.CPP program (remote::groot2): connecting
//! from the Attach dialog's `groot2://` address, reading the program each frame, showing
//! its tree in a read-only tab, and routing F9/F5/F10 to its hooks while that tab is the
//! active document.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arbor_runtime::btcpp::MonitoredTree;

use super::{ArborApp, Bottom};
use crate::document::Document;
use crate::remote::groot2::{Address, Groot2};
use crate::Session;

/// A read-only session of an imported report's main tree. The trees are written to a
/// folder of their own under the system's temporary directory first, so the main tree's
/// Subtree nodes resolve (and Open Subtree shows a subtree instance, drawn live too: its
/// nodes have UIDs as well).
pub(super) fn read_only_import(
    tree: &MonitoredTree,
    what: &str,
    reason: String,
) -> Result<Session, String> {
    static FOLDERS: AtomicU64 = AtomicU64::new(0);
    let n = FOLDERS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arbor-{what}-{}-{n}", std::process::id()));
    let written = std::fs::create_dir_all(&dir).and_then(|()| tree.imported.write_to(&dir));
    if let Some(main) = written.ok().and_then(|paths| paths.into_iter().next()) {
        if let Ok(session) = Session::open_read_only(&main, reason.clone()) {
            return Ok(session);
        }
    }
    // Shown all the same, from memory, with the subtrees unresolved: the statuses matter
    // more than the subtrees.
    let main = tree.imported.main().clone();
    let doc = Document::from_tree_file(main, None).map_err(|e| e.to_string())?;
    Ok(Session::read_only(doc, tree.imported.node_types(), reason))
}

/// How often the editor redraws while attached (the client polls every 100 ms).
const REFRESH: Duration = Duration::from_millis(50);

impl ArborApp {
    /// Connects to a BT.CPP program's Groot2 server, replacing any earlier attachment.
    pub fn attach_groot2(&mut self, address: Address) {
        self.remote = None;
        self.groot2 = Some(Groot2::connect(address));
        self.groot2_shown = 0;
        self.bottom = Bottom::Groot2;
        // The dialog lists Arbor instances; a BT.CPP program has one tree, shown at once.
        self.attach.open = false;
    }

    /// The attachment to a BT.CPP program, if any.
    pub fn groot2(&self) -> Option<&Groot2> {
        self.groot2.as_ref()
    }

    pub fn groot2_mut(&mut self) -> Option<&mut Groot2> {
        self.groot2.as_mut()
    }

    /// Whether the canvas shows the BT.CPP program's statuses (one of its trees is the
    /// active document).
    pub fn groot2_is_live(&self) -> bool {
        self.groot2
            .as_ref()
            .is_some_and(|g| g.shows(self.session().document().guid()))
    }

    /// Once per frame, before drawing.
    pub(super) fn groot2_frame(&mut self, ctx: &egui::Context) {
        let Some(g) = &mut self.groot2 else {
            return;
        };
        g.poll();
        let hit = g.take_hit();
        ctx.request_repaint_after(REFRESH);
        self.show_groot2_tree();
        if let Some(node) = hit.filter(|_| self.groot2_is_live()) {
            self.shared.requests.push(super::Request::Frame(vec![node]));
        }
    }

    /// Opens the program's main tree read-only once per tree the program reports (a
    /// restart with the same tree keeps the tab, and its node GUIDs).
    fn show_groot2_tree(&mut self) {
        let Some(g) = &self.groot2 else {
            return;
        };
        let Some(tree) = g
            .tree
            .as_ref()
            .filter(|_| g.generation != self.groot2_shown)
        else {
            return;
        };
        let guid = tree.imported.main().guid.clone();
        let reason = format!("the tree the BT.CPP program at {} runs", g.address);
        let warnings = tree.imported.warnings.len();
        let opened = read_only_import(tree, "groot2", reason);
        self.groot2_shown = g.generation;
        if let Some(i) = self
            .tabs
            .iter()
            .position(|t| t.session().document().guid() == guid)
        {
            self.switch_to(i);
            return;
        }
        match opened {
            Ok(session) => {
                self.show_in_tab(session);
                let note = if warnings > 0 {
                    format!(" ({warnings} import notes)")
                } else {
                    String::new()
                };
                self.shared.toasts.info(format!(
                    "Showing the BT.CPP program's tree, read-only{note}"
                ));
            }
            Err(e) => self
                .shared
                .toasts
                .error(format!("Cannot show the BT.CPP program's tree: {e}")),
        }
    }

    /// F9, F5 and F10 while the program's tree is the active document. BT.CPP's hooks
    /// stop a node before its tick; the protocol has no pause between ticks and no step.
    pub(super) fn groot2_action(&mut self, action: super::Action) {
        let selection: Vec<String> = self.selection().nodes.iter().cloned().collect();
        let Some(g) = &mut self.groot2 else {
            return;
        };
        match action {
            super::Action::Breakpoint => {
                for guid in &selection {
                    g.toggle_breakpoint(guid);
                }
            }
            super::Action::PlayPause if g.waiting.is_some() => g.resume(None),
            super::Action::PlayPause => self.shared.toasts.info(
                "A BT.CPP program cannot be paused between ticks: set a breakpoint (F9) on a node",
            ),
            super::Action::Step if g.waiting.is_some() => g.step(),
            super::Action::Step => self
                .shared
                .toasts
                .info("A BT.CPP program steps from a breakpoint only: set one (F9) on a node"),
            _ => {}
        }
    }
}
