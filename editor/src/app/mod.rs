//! ArborApp: holds the open documents as [`Tab`]s and what they share (preferences, file
//! dialogs, autosave, the watch on files, the panic guard, the remote attachment); lays
//! out the active tab's views and routes input to it. It implements `eframe::App`; `ui` is
//! separate so tests can drive the whole editor headlessly through an `egui::Context`.
//!
//! A frame (`ui`): housekeeping (theme, autosave, disk watch, the active tab's report),
//! shortcuts and clipboard events to actions, the menu and tab bars, the remote
//! connection, the active tab's views (side panels, bottom panel, canvas), popups and
//! dialogs, then the requests the views made.
//!
//! Files: tab.rs (one document and its views), actions.rs (what a shortcut or menu item
//! does), documents.rs (open, save, close, and their dialogs), menus.rs, and one file per
//! service: compare.rs, files.rs, guard.rs, prefs.rs, project.rs, recovery.rs, remote.rs, shortcuts.rs,
//! source.rs, watch.rs.

mod actions;
mod compare;
mod documents;
mod files;
mod groot2;
mod guard;
mod layout;
mod menus;
mod prefs;
mod project;
mod recovery;
mod remote;
mod replay;
mod shortcuts;
mod source;
mod tab;
mod validation;
mod watch;

pub use files::{Files, Pending, Purpose, UNSAVED_MARK};
pub use guard::{Crash, Guard};
pub use layout::{Panel, Panels};
pub use prefs::{Prefs, Theme};
pub use recovery::{
    lock_path as recovery_lock_path, Recovered, Recovery, RecoveryFile, FORMAT as RECOVERY_FORMAT,
    QUIET as AUTOSAVE_QUIET,
};
pub use remote::Bottom;
pub use replay::is_log;
pub use shortcuts::Action;
pub use tab::Tab;
pub use validation::{Validation, BACKGROUND_FROM};

use tab::Shared;
pub use watch::{Conflict, Watch};

use std::path::Path;

use arbor_runtime::Report;

use crate::canvas::Canvas;
use crate::document::Selection;
use crate::i18n::{self, t, Lang};
use crate::live::LiveSource;
use crate::panels::{
    dropped_on, CompareAction, ComparePanel, ConflictsPanel, DeclareForm, PaletteDock, ProjectPanel,
};
use crate::remote::groot2::{Groot2, Groot2Panel};
use crate::remote::{AttachDialog, Remote, RemoteAction, RemotePanel};
use crate::replay::{Replay, ReplayPanel};
use crate::view::{Request, Toasts, View as _};
use crate::Session;

/// The app's name for eframe: its window, and the folder its data is kept in
/// (`eframe::storage_dir`), which the recovery copies share.
pub const APP_ID: &str = "Arbor";

/// The narrowest a side panel gets (the inspector's fields need this much).
const SIDE_MIN_WIDTH: f32 = 200.0;

/// How long egui's animations last (a scroll bar fading in, a header opening). egui's own
/// default, 0.2 s, keeps the editor drawing every frame for that long after each change,
/// so an editor left alone would still be asking for frames a dozen frames after it
/// settled; 1/12 s is still visibly animated.
const ANIMATION_SECONDS: f32 = 1.0 / 12.0;

/// The editor.
pub struct ArborApp {
    /// The open documents; never empty.
    tabs: Vec<Tab>,
    /// Index of the tab shown.
    active: usize,
    shared: Shared,
    prefs: Prefs,
    files: Files,
    title: String,
    /// Whether native file dialogs may be tried (off in headless tests).
    native_dialogs: bool,
    /// Autosave of unsaved documents (off unless `with_recovery`).
    recovery: Recovery,
    /// Changes made to the active file by other programs.
    watch: Watch,
    /// Panics caught in a frame.
    guard: Guard,
    /// The attachment to a running program's debug server.
    remote: Option<Remote>,
    attach: AttachDialog,
    remote_panel: RemotePanel,
    /// The focused instance and tree last brought to the front.
    remote_followed: Option<(String, String)>,
    bottom: Bottom,
    /// The attachment to a BehaviorTree.CPP program (app/groot2.rs).
    groot2: Option<Groot2>,
    groot2_panel: Groot2Panel,
    /// The generation of the program's tree last shown in a tab.
    groot2_shown: u64,
    /// A log being replayed, and the GUID of the tree it is drawn on (app/replay.rs).
    replay: Option<(Replay, String)>,
    replay_panel: ReplayPanel,
    /// The node palette docked beside the canvas (shared by the tabs).
    dock: PaletteDock,
    /// The game project open in the editor (app/project.rs).
    project: Option<std::sync::Arc<arbor_editor_model::project::Project>>,
    project_panel: ProjectPanel,
    declare: DeclareForm,
    /// The interface language (set on the UI thread at the start of each frame).
    lang: Lang,
}

impl ArborApp {
    pub fn new(session: Session) -> ArborApp {
        ArborApp {
            tabs: vec![Tab::new(session)],
            active: 0,
            shared: Shared::default(),
            prefs: Prefs::default(),
            files: Files::default(),
            title: String::new(),
            native_dialogs: true,
            recovery: Recovery::disabled(),
            watch: Watch::default(),
            guard: Guard::default(),
            remote: None,
            attach: AttachDialog::default(),
            remote_panel: RemotePanel::default(),
            remote_followed: None,
            bottom: Bottom::Preview,
            groot2: None,
            groot2_panel: Groot2Panel,
            groot2_shown: 0,
            replay: None,
            replay_panel: ReplayPanel,
            dock: PaletteDock::default(),
            project: None,
            project_panel: ProjectPanel::default(),
            declare: DeclareForm::default(),
            lang: Lang::English,
        }
    }

    /// The app as eframe creates it: preferences restored from storage, the interface in
    /// the preferred language or else the system's ([`Lang::from_os`]).
    pub fn with_storage(session: Session, storage: Option<&dyn eframe::Storage>) -> ArborApp {
        let mut app = ArborApp::new(session);
        if let Some(prefs) = storage.and_then(|s| eframe::get_value::<Prefs>(s, prefs::STORAGE_KEY))
        {
            // A zoom kept from last time never overrides a readable first view.
            if prefs.zoom.is_finite() && prefs.zoom >= crate::canvas::FIRST_VIEW_FLOOR {
                app.canvas_mut().set_zoom(prefs.zoom);
            }
            app.prefs = prefs;
        }
        app.lang = app.prefs.language.unwrap_or_else(Lang::from_os);
        if let Some(path) = app.session().path().map(Path::to_path_buf) {
            app.prefs.remember(&path);
        }
        app
    }

    /// The interface language.
    pub fn language(&self) -> Lang {
        self.lang
    }

    /// Switches the interface language from the next frame on, and keeps the choice in
    /// the preferences.
    pub fn set_language(&mut self, lang: Lang) {
        self.lang = lang;
        self.prefs.language = Some(lang);
    }

    /// Native file dialogs on or off (headless tests turn them off: a path field is asked
    /// for instead).
    pub fn set_native_dialogs(&mut self, on: bool) {
        self.native_dialogs = on;
    }

    // ---- The tabs ------------------------------------------------------------------------

    /// The active tab.
    pub fn tab(&self) -> &Tab {
        &self.tabs[self.active]
    }

    pub fn tab_mut(&mut self) -> &mut Tab {
        &mut self.tabs[self.active]
    }

    /// The active tab and what the tabs share, borrowed together.
    fn active_and_shared(&mut self) -> (&mut Tab, &mut Shared) {
        (&mut self.tabs[self.active], &mut self.shared)
    }

    /// Every open tab, in the order the tab bar shows them.
    pub fn tabs(&self) -> &[Tab] {
        &self.tabs
    }

    /// The index of the active tab in [`ArborApp::tabs`].
    pub fn active(&self) -> usize {
        self.active
    }

    /// The active tab's session.
    pub fn session(&self) -> &Session {
        self.tab().session()
    }

    pub fn session_mut(&mut self) -> &mut Session {
        self.tab_mut().session_mut()
    }

    pub fn selection(&self) -> &Selection {
        self.tab().selection()
    }

    pub fn set_selection(&mut self, selection: Selection) {
        self.tab_mut().set_selection(selection);
    }

    pub fn canvas(&self) -> &Canvas {
        self.tab().canvas()
    }

    pub fn canvas_mut(&mut self) -> &mut Canvas {
        self.tab_mut().canvas_mut()
    }

    /// The validation report of the active document.
    pub fn report(&self) -> &Report {
        self.tab().report()
    }

    pub fn toasts(&self) -> &Toasts {
        &self.shared.toasts
    }

    /// Autosave, and the recovery copies offered.
    pub fn recovery(&self) -> &Recovery {
        &self.recovery
    }

    /// The question about the active file on disk, if one is waiting.
    pub fn conflict(&self) -> Option<&Conflict> {
        self.tab().conflict()
    }

    /// The panic being reported, if any.
    pub fn crash(&self) -> Option<&Crash> {
        self.guard.crash()
    }

    /// The attachment to a running program, if any.
    pub fn remote(&self) -> Option<&Remote> {
        self.remote.as_ref()
    }

    pub fn remote_mut(&mut self) -> Option<&mut Remote> {
        self.remote.as_mut()
    }

    /// Which view the bottom panel shows.
    pub fn bottom(&self) -> Bottom {
        self.bottom
    }

    /// The preferences (theme, recent files, the source editor command).
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    pub fn prefs_mut(&mut self) -> &mut Prefs {
        &mut self.prefs
    }

    /// The node palette docked beside the canvas.
    pub fn palette_dock(&self) -> &PaletteDock {
        &self.dock
    }

    pub fn palette_dock_mut(&mut self) -> &mut PaletteDock {
        &mut self.dock
    }

    /// Opens the Attach… dialog, as the menu item does.
    pub fn open_attach_dialog(&mut self) {
        self.attach.open = true;
    }

    /// Every open document, in tab order.
    pub fn sessions(&self) -> Vec<&Session> {
        sessions(&self.tabs)
    }

    /// Shows `session` in a new tab after the active one, or in the active one if that
    /// holds only an untouched blank document.
    pub fn show_in_tab(&mut self, session: Session) {
        if self.tab().is_blank() {
            self.tabs[self.active] = Tab::new(session);
        } else {
            self.active += 1;
            self.tabs.insert(self.active, Tab::new(session));
        }
    }

    /// Makes tab `i` the active one. Each tab keeps its own views, so its preview goes on
    /// where it was.
    pub fn switch_to(&mut self, i: usize) {
        if i < self.tabs.len() {
            self.active = i;
        }
    }

    /// Closes tab `i` without asking, whatever it holds; the last tab is replaced by a
    /// new blank document.
    pub fn discard_tab(&mut self, i: usize) {
        if i >= self.tabs.len() {
            return;
        }
        if self.tabs.len() == 1 {
            self.tabs[0] = Tab::new(self.blank_session());
            return;
        }
        self.tabs.remove(i);
        if self.active > i || self.active == self.tabs.len() {
            self.active = self.active.saturating_sub(1);
        }
    }

    // ---- A frame ---------------------------------------------------------------------------

    /// One frame of the whole editor.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = &ui.ctx().clone();
        i18n::set(self.lang);
        self.prefs.apply_theme(ctx);
        if ctx.global_style().animation_time != ANIMATION_SECONDS {
            ctx.all_styles_mut(|style| style.animation_time = ANIMATION_SECONDS);
        }
        self.autosave(ctx);
        self.watch_disk(ctx);
        let seen = self.session().generation();
        self.tab_mut().refresh();
        self.update_title(ctx);
        self.close_request(ctx);
        for action in shortcuts::pressed(ctx) {
            self.act(ctx, action);
        }
        let (tab, shared) = self.active_and_shared();
        tab.clipboard(ctx, &mut shared.toasts);

        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        if self.tabs.len() > 1 {
            egui::Panel::top("tabs").show(ui, |ui| self.tab_bar(ui));
        }
        self.remote_frame(ctx);
        self.groot2_frame(ctx);
        let remote_action = self.views(ui);
        let (tab, shared) = self.active_and_shared();
        tab.palette_ui(ctx, &mut shared.toasts);
        self.remote_action(remote_action);
        let action = self.attach.show(ctx, &mut self.remote);
        self.remote_action(action);
        if let Some(action) = self.project_panel.action.take() {
            self.project_action(action);
        }
        self.declare_ui(ctx);
        self.dialogs(ctx);
        self.recovery_dialog(ctx);
        self.disk_dialog(ctx);
        self.shared.toasts.show(ctx);
        for request in std::mem::take(&mut self.shared.requests) {
            self.handle(ctx, request);
        }
        // An edit this frame, or a check still running: another frame shows the report
        // that follows (at once when it is ready, else as soon as the worker may be done).
        let trailing = self.tab_mut().refresh();
        if trailing {
            ctx.request_repaint_after(std::time::Duration::from_millis(15));
        } else if self.session().generation() != seen {
            ctx.request_repaint();
        }
    }

    /// The active tab's views: side panels, the bottom panel (its preview, or the remote
    /// panel), the canvas. Returns what the remote panel asked for.
    fn views(&mut self, ui: &mut egui::Ui) -> Option<RemoteAction> {
        let ctx = &ui.ctx().clone();
        let remote_live = self.remote_is_live();
        let groot2_live = self.groot2_is_live();
        let replay_live = self.replay_is_live();
        let selected: Vec<String> = self.selection().nodes.iter().cloned().collect();
        let time = ctx.input(|i| i.time);
        let ArborApp {
            tabs,
            active,
            shared,
            remote,
            remote_panel,
            bottom,
            groot2,
            groot2_panel,
            replay,
            replay_panel,
            dock,
            prefs,
            project,
            project_panel,
            ..
        } = self;
        let mut replay_action = None;
        let mut compare_action = None;
        let tab = &mut tabs[*active];
        let (mut cx, views) = tab.parts(shared);
        views.preview.update(&mut cx, time);
        let mut remote_action = None;
        // Each side panel takes at most a quarter of the window, so however it is dragged
        // the canvas and the preview between them keep room to work in.
        let side_max = (ctx.content_rect().width() * 0.25).max(SIDE_MIN_WIDTH);
        let mut panels = prefs.panels;
        if panels.shown(Panel::Left) {
            egui::Panel::left("left")
                .default_size(270.0)
                .min_size(SIDE_MIN_WIDTH)
                .max_size(side_max)
                .show(ui, |ui| {
                    if collapse_button(ui, "«", Panel::Left) {
                        panels.collapse(Panel::Left);
                    }
                    egui::ScrollArea::vertical().id_salt("left").show(ui, |ui| {
                        project_panel.ui(ui, project.as_deref(), cx.session.manifest_errors());
                        let editable = cx.session.read_only_reason().is_none();
                        ui.add_enabled_ui(editable, |ui| views.blackboard.ui(ui, &mut cx));
                        ui.separator();
                        views.history.ui(ui, &mut cx);
                    });
                });
        } else if !panels.focus && strip(ui, Panel::Left) {
            panels.toggle(Panel::Left);
        }
        if panels.shown(Panel::Right) {
            egui::Panel::right("right")
                .default_size(300.0)
                .min_size(SIDE_MIN_WIDTH)
                .max_size(side_max)
                .show(ui, |ui| {
                    if collapse_button(ui, "»", Panel::Right) {
                        panels.collapse(Panel::Right);
                    }
                    egui::ScrollArea::vertical()
                        .id_salt("right")
                        .show(ui, |ui| {
                            // A tree shown read-only (sent by an attached program) says so; its
                            // edits are refused, but breakpoints still work, so the inspector
                            // stays enabled.
                            if let Some(why) = cx.session.read_only_reason() {
                                ui.colored_label(
                                    ui.visuals().warn_fg_color,
                                    format!("Read-only: {why}. Save As writes a copy you can open and edit."),
                                );
                            }
                            if let Some(c) = views.canvas.compare_for(cx.session) {
                                compare_action = ComparePanel.ui(ui, c);
                            }
                            ConflictsPanel.ui(ui, &mut cx);
                            views.inspector.ui(ui, &mut cx);
                            views.preview.stand_in_ui(ui, cx.selection);
                            ui.separator();
                            views.problems.ui(ui, &mut cx);
                        });
                });
        } else if !panels.focus && strip(ui, Panel::Right) {
            panels.toggle(Panel::Right);
        }
        if !panels.shown(Panel::Bottom) {
            if !panels.focus && strip(ui, Panel::Bottom) {
                panels.toggle(Panel::Bottom);
            }
        } else {
            egui::Panel::bottom("preview")
                .resizable(true)
                .default_size(270.0)
                .min_size(120.0)
                // The canvas keeps at least 40 % of the window's height.
                .max_size((ctx.content_rect().height() * 0.6).max(120.0))
                .show(ui, |ui| {
                    // One tab per source of statuses that is open, beside the preview.
                    let tabs: Vec<(Bottom, String)> = [
                        Some((Bottom::Preview, "Preview".to_owned())),
                        replay
                            .as_ref()
                            .map(|(r, _)| (Bottom::Replay, format!("Replay: {}", r.title))),
                        groot2
                            .as_ref()
                            .map(|g| (Bottom::Groot2, format!("BT.CPP: {}", g.address))),
                        remote
                            .as_ref()
                            .map(|r| (Bottom::Remote, format!("Remote: {}", r.addr))),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    ui.horizontal(|ui| {
                        if collapse_button(ui, "Hide", Panel::Bottom) {
                            panels.collapse(Panel::Bottom);
                        }
                        if tabs.len() > 1 {
                            for (tab, label) in &tabs {
                                ui.selectable_value(bottom, *tab, label);
                            }
                        }
                    });
                    if tabs.len() > 1 {
                        ui.separator();
                    }
                    let shown = Some(*bottom).filter(|b| tabs.iter().any(|(t, _)| t == b));
                    if shown.is_some_and(|b| b != Bottom::Preview) {
                        // As tall as the preview it replaces, so the canvas does not jump.
                        ui.set_min_height(ui.available_height().max(200.0));
                    }
                    let doc = cx.session.document();
                    let names = |guid: &str| doc.node(guid).map(|n| n.name.clone());
                    match (shown, replay.as_mut(), groot2.as_mut(), remote.as_mut()) {
                        (Some(Bottom::Replay), Some((r, _)), _, _) => {
                            replay_action = replay_panel.ui(ui, r, &names);
                            return;
                        }
                        (Some(Bottom::Groot2), _, Some(g), _) => {
                            remote_action = groot2_panel.ui(ui, g, &selected, &names);
                            return;
                        }
                        (Some(Bottom::Remote), _, _, Some(remote)) => {
                            remote_action = remote_panel.ui(ui, remote, remote_live);
                            return;
                        }
                        _ => {}
                    }
                    views.preview.ui(ui, &mut cx);
                });
        }
        // The panels may have edited the document (the inspector, the blackboard): the
        // canvas draws the report of the document it draws.
        tab.refresh();
        let (mut cx, views) = tab.parts(shared);
        match compare_action {
            Some(CompareAction::Go(target)) => views.canvas.go_to(&target, cx.selection),
            Some(CompareAction::Close) => views.canvas.close_compare(),
            None => {}
        }
        let live: &dyn LiveSource = match (remote.as_ref(), groot2.as_ref(), replay.as_ref()) {
            (_, _, Some((r, _))) if replay_live => r,
            (_, Some(g), _) if groot2_live => g,
            (Some(remote), _, _) if remote_live => remote,
            _ => &*views.preview,
        };
        // After the bottom panel: the dock is as tall as the canvas and leaves the
        // preview its full width.
        let double_clicked = if panels.focus {
            None
        } else {
            dock.open = panels.palette;
            let chosen = dock.show(ui, cx.session.types());
            panels.palette = dock.open;
            chosen
        };
        prefs.panels = panels;
        egui::CentralPanel::default()
            .frame(egui::Frame::NONE)
            .show(ui, |ui| {
                views.canvas.ui(ui, &mut cx, live);
            });
        // A type from the docked palette: dropped on the canvas, or double-clicked (added
        // in the middle of the view).
        let view = views.canvas.view_rect();
        let added = dropped_on(ctx, view).or(double_clicked.map(|kind| (kind, view.center())));
        if let Some((kind, at)) = added {
            match cx.session.add_node(&kind, views.canvas.to_doc(at)) {
                Ok(guid) => *cx.selection = Selection::of_nodes([guid]),
                Err(e) => cx.toasts.error(e.to_string()),
            }
        }
        self.replay_action(replay_action);
        remote_action
    }

    fn handle(&mut self, ctx: &egui::Context, request: Request) {
        match request {
            Request::Frame(guids) => self.tab_mut().frame_nodes(&guids),
            Request::ToggleBreakpoint(guid) => self.toggle_breakpoint(&guid),
            Request::OpenSubtree(guid) => self.open_subtree(&guid),
            Request::Act(action) => self.act(ctx, action),
            Request::OpenSource(kind) => self.open_source(&kind),
        }
    }
}

/// The button at the top of an open panel that collapses it.
fn collapse_button(ui: &mut egui::Ui, arrow: &str, panel: Panel) -> bool {
    ui.small_button(arrow)
        .on_hover_text(format!("{} {}", t("Hide"), panel.title()))
        .clicked()
}

/// The strip a collapsed panel leaves at its edge of the window, with a button that opens
/// it again; returns whether it was clicked.
fn strip(ui: &mut egui::Ui, panel: Panel) -> bool {
    const WIDTH: f32 = 26.0;
    let (id, arrow) = match panel {
        Panel::Left => ("left strip", "»"),
        Panel::Right => ("right strip", "«"),
        Panel::Palette | Panel::Bottom => ("bottom strip", ""),
    };
    let hover = format!("{} {}", t("Show"), panel.title());
    let side = match panel {
        Panel::Left => egui::Panel::left(id),
        Panel::Right => egui::Panel::right(id),
        Panel::Palette | Panel::Bottom => egui::Panel::bottom(id),
    };
    side.resizable(false)
        .exact_size(WIDTH)
        .show(ui, |ui| {
            if panel == Panel::Bottom {
                ui.horizontal_centered(|ui| {
                    let open = ui.button(panel.title()).on_hover_text(hover);
                    ui.weak(t("Ctrl+4 shows, F5 plays"));
                    open.clicked()
                })
                .inner
            } else {
                ui.button(arrow).on_hover_text(hover).clicked()
            }
        })
        .inner
}

/// The tabs' sessions, in tab order (a function of the field, so the app can lend them
/// while changing its other fields).
fn sessions(tabs: &[Tab]) -> Vec<&Session> {
    tabs.iter().map(Tab::session).collect()
}

impl eframe::App for ArborApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_guarded(ui);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.exit_recovery();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.prefs.zoom = self.canvas().zoom();
        eframe::set_value(storage, prefs::STORAGE_KEY, &self.prefs);
    }
}
