//! What a shortcut or menu item does. [`ArborApp::act`] routes each [`Action`] to whoever
//! owns what it changes: the file actions to the app (they open, save and close tabs), the
//! live actions to the preview or the attached program (whichever the canvas shows), and
//! every edit or view action to the active [`Tab`](super::Tab).

use super::files::Picked;
use super::layout::Panel;
use super::{Action, ArborApp, Pending, Purpose};

impl ArborApp {
    /// Does what a shortcut or menu item asks.
    pub fn act(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::New
            | Action::Open
            | Action::Save
            | Action::SaveAs
            | Action::CloseTab
            | Action::ExportSubtree => self.file_action(action),
            Action::PlayPause | Action::Step | Action::Breakpoint => {
                if action == Action::PlayPause {
                    // Playing shows what plays.
                    self.prefs.panels.open(Panel::Bottom);
                }
                self.live_action(action);
            }
            Action::FocusMode => self.prefs.panels.focus = !self.prefs.panels.focus,
            Action::TogglePalette => self.prefs.panels.toggle(Panel::Palette),
            Action::ToggleLeftPanel => self.prefs.panels.toggle(Panel::Left),
            Action::ToggleRightPanel => self.prefs.panels.toggle(Panel::Right),
            Action::TogglePreviewPanel => self.prefs.panels.toggle(Panel::Bottom),
            _ => {
                let (tab, shared) = self.active_and_shared();
                tab.act(ctx, action, &mut shared.toasts);
            }
        }
    }

    fn file_action(&mut self, action: Action) {
        match action {
            Action::New => self.show_in_tab(self.blank_session()),
            Action::Open => match self.pick(false) {
                Picked::Path(path) => self.open(&path),
                Picked::Cancelled => {}
                Picked::Unavailable => self.prompt_path(Purpose::Open),
            },
            Action::Save => {
                self.save();
            }
            Action::SaveAs => {
                self.save_as();
            }
            Action::CloseTab => self.request(Pending::CloseTab),
            Action::ExportSubtree => {
                let Some(guid) = self.tab().single_node() else {
                    self.shared
                        .toasts
                        .info("Select the top node of the branch to export");
                    return;
                };
                match self.pick(true) {
                    Picked::Path(path) => self.export_subtree(&guid, &path),
                    Picked::Cancelled => {}
                    Picked::Unavailable => self.prompt_path(Purpose::ExportSubtree(guid)),
                }
            }
            _ => debug_assert!(false, "{action:?} is not a file action"),
        }
    }

    /// Play, pause, step and breakpoints act where the canvas's statuses come from: the
    /// attached program while its tree is the active document, else the tab's preview.
    fn live_action(&mut self, action: Action) {
        if self.groot2_is_live() {
            self.groot2_action(action);
            return;
        }
        let remote = self.remote.as_ref().filter(|_| self.remote_is_live());
        match (action, remote) {
            (Action::Breakpoint, _) => {
                for guid in self.selection().nodes.clone() {
                    self.toggle_breakpoint(&guid);
                }
            }
            (Action::PlayPause, Some(remote)) => match remote.focused() {
                Some((_, view)) if view.paused.is_some() => remote.resume(),
                _ => remote.pause(),
            },
            (Action::Step, Some(remote)) => remote.step(),
            (Action::PlayPause, None) => {
                let preview = self.tab_mut().preview_mut();
                if preview.is_playing() {
                    preview.pause();
                } else {
                    preview.play();
                }
            }
            (Action::Step, None) => {
                let (tab, shared) = self.active_and_shared();
                let (mut cx, views) = tab.parts(shared);
                views.preview.step(&mut cx);
            }
            _ => debug_assert!(false, "{action:?} is not a live action"),
        }
    }
}
