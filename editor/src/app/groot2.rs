//! The app's side of attaching to a BehaviorTree.CPP program (remote::groot2): connecting
//! from the Attach dialog's `groot2://` address, reading the program each frame, showing
//! its tree in a read-only tab, and routing F9/F5/F10 to its hooks while that tab is the
//! active document.

use std::time::Duration;

use super::{ArborApp, Bottom};
use crate::document::Document;
use crate::remote::groot2::{Address, Groot2};
use crate::Session;

/// How often the editor redraws while attached (the client polls every 100 ms).
const REFRESH: Duration = Duration::from_millis(50);

impl ArborApp {
    /// Connects to a BT.CPP program's Groot2 server, replacing any earlier attachment.
    pub fn attach_groot2(&mut self, address: Address) {
        self.remote = None;
        self.groot2 = Some(Groot2::connect(address));
        self.groot2_shown = 0;
        self.bottom = Bottom::Groot2;
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
        let main = tree.imported.main().clone();
        let guid = main.guid.clone();
        let types = tree.imported.node_types();
        let reason = format!("the tree the BT.CPP program at {} runs", g.address);
        let warnings = tree.imported.warnings.len();
        self.groot2_shown = g.generation;
        if let Some(i) = self
            .tabs
            .iter()
            .position(|t| t.session().document().guid() == guid)
        {
            self.switch_to(i);
            return;
        }
        match Document::from_tree_file(main, None) {
            Ok(doc) => {
                self.show_in_tab(Session::read_only(doc, types, reason));
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
            super::Action::Step => self.shared.toasts.info(
                "BT.CPP's protocol has no single step: set a breakpoint on the next node and continue (F5)",
            ),
            _ => {}
        }
    }
}
