//! The app's side of replaying logs (crate::replay): File ▸ Open on a `.btlog` (BT.CPP's
//! file logger) shows the log's own tree read-only with the Replay panel; on a `.jsonl`
//! trace (`arbor run --trace`) it replays on the open tree whose nodes the trace names.

use std::path::Path;

use arbor_runtime::btcpp::BtLog;

use super::{ArborApp, Bottom};
use crate::document::Document;
use crate::replay::{read_trace, Replay, ReplayAction, MAX_TRACE_BYTES};

/// Is `path` a log the replay opens (by its extension)?
pub fn is_log(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("btlog") || e.eq_ignore_ascii_case("jsonl"))
}

impl ArborApp {
    /// Opens a log for replay; errors are shown as Open's are.
    pub fn open_log(&mut self, path: &Path) {
        let title = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let result = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("btlog"))
        {
            self.open_btlog(path, &title)
        } else {
            self.open_trace(path, &title)
        };
        match result {
            Ok(()) => self.bottom = Bottom::Replay,
            Err(e) => {
                self.files.error = Some(format!("Could not replay {}:\n\n{e}", path.display()))
            }
        }
    }

    fn open_btlog(&mut self, path: &Path, title: &str) -> Result<(), String> {
        let log = BtLog::read_file(path).map_err(|e| e.to_string())?;
        let truncated = log.truncated;
        let replay = Replay::from_btlog(title, log).map_err(|e| e.to_string())?;
        let tree = replay.tree.as_ref().ok_or("the log has no tree")?;
        let guid = tree.imported.main().guid.clone();
        let session = super::groot2::read_only_import(
            tree,
            "btlog",
            format!("the tree recorded in {title}"),
        )?;
        self.show_in_tab(session);
        if truncated > 0 {
            self.shared.toasts.info(format!(
                "{title} ends with {truncated} bytes of a cut-off transition: left out"
            ));
        }
        self.replay = Some((replay, guid));
        Ok(())
    }

    fn open_trace(&mut self, path: &Path, title: &str) -> Result<(), String> {
        let text = arbor_runtime::files::read_text(path, MAX_TRACE_BYTES)
            .map_err(|e| format!("cannot read: {e}"))?;
        let steps = read_trace(&text).map_err(|e| e.to_string())?;
        let replay = Replay::new(title, steps, true);
        // A trace names nodes, not its tree: replay it on the open tree that has them.
        let holds = |doc: &Document| replay.nodes().any(|n| doc.node(n).is_some());
        let tab = if holds(self.session().document()) {
            Some(self.active)
        } else {
            self.tabs.iter().position(|t| holds(t.session().document()))
        };
        let Some(i) = tab else {
            return Err(
                "none of the open trees has the nodes it names: open the tree it was recorded from first"
                    .into(),
            );
        };
        self.switch_to(i);
        let guid = self.session().document().guid().to_owned();
        self.replay = Some((replay, guid));
        Ok(())
    }

    /// The replay, if one is open.
    pub fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref().map(|(r, _)| r)
    }

    pub fn replay_mut(&mut self) -> Option<&mut Replay> {
        self.replay.as_mut().map(|(r, _)| r)
    }

    /// Whether the canvas shows the replay (its tree is the active document).
    pub fn replay_is_live(&self) -> bool {
        self.replay
            .as_ref()
            .is_some_and(|(_, guid)| guid == self.session().document().guid())
    }

    pub(super) fn replay_action(&mut self, action: Option<ReplayAction>) {
        if action == Some(ReplayAction::Close) {
            self.replay = None;
            self.bottom = Bottom::Preview;
        }
    }
}
