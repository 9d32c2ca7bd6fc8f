//! ArborApp: owns the session (document + history), the view state and the panels, and
//! lays them out; turns menu items, shortcuts and clipboard events into session calls.
//! It implements `eframe::App`; `ui` is separate so tests can drive the whole editor
//! headlessly through an `egui::Context`.

mod files;
mod guard;
mod prefs;
mod recovery;
mod remote;
mod shortcuts;
mod watch;

pub use files::{Files, Pending, Purpose};
pub use guard::{Crash, Guard};
pub use prefs::{Prefs, Theme};
pub use recovery::{Recovered, Recovery, RecoveryFile};
pub use remote::Bottom;
pub use shortcuts::Action;
pub use watch::{Conflict, Watch};

use std::path::{Path, PathBuf};

use arbor_runtime::Report;

use crate::canvas::Canvas;
use crate::document::{LayoutOptions, Selection};
use crate::live::LiveSource;
use crate::panels::{BlackboardPanel, HistoryPanel, Inspector, Palette, ProblemsPanel};
use crate::preview::Preview;
use crate::remote::{AttachDialog, Remote, RemotePanel};
use crate::view::{Gestures, Request, Toasts, UiCx, View as _};
use crate::Session;
use files::Picked;

/// A document open in a tab that is not the active one. The active tab's state lives in
/// `ArborApp`'s own fields; switching tabs swaps them.
pub struct Tab {
    pub session: Session,
    pub selection: Selection,
    pub canvas: Canvas,
}

/// The editor.
pub struct ArborApp {
    pub session: Session,
    pub selection: Selection,
    pub toasts: Toasts,
    pub gestures: Gestures,
    pub canvas: Canvas,
    pub palette: Palette,
    pub inspector: Inspector,
    pub blackboard: BlackboardPanel,
    pub problems: ProblemsPanel,
    pub history: HistoryPanel,
    pub preview: Preview,
    pub prefs: Prefs,
    pub files: Files,
    /// The other open documents.
    pub tabs: Vec<Tab>,
    report: Report,
    report_generation: Option<u64>,
    requests: Vec<Request>,
    /// Where the palette adds its node, in document coordinates.
    palette_at: [f64; 2],
    title: String,
    /// Whether native file dialogs may be tried (off in headless tests).
    pub native_dialogs: bool,
    /// Autosave of unsaved documents (off unless `with_recovery`).
    pub recovery: Recovery,
    /// Changes made to the open file by other programs.
    pub watch: Watch,
    /// Panics caught in a frame.
    pub guard: Guard,
    /// The attachment to a running program's debug server.
    pub remote: Option<Remote>,
    pub attach: AttachDialog,
    remote_panel: RemotePanel,
    /// The focused instance and tree last brought to the front.
    remote_followed: Option<(String, String)>,
    pub bottom: Bottom,
}

impl ArborApp {
    pub fn new(session: Session) -> ArborApp {
        ArborApp {
            session,
            selection: Selection::default(),
            toasts: Toasts::default(),
            gestures: Gestures::default(),
            canvas: Canvas::default(),
            palette: Palette::default(),
            inspector: Inspector::default(),
            blackboard: BlackboardPanel::default(),
            problems: ProblemsPanel::default(),
            history: HistoryPanel::default(),
            preview: Preview::default(),
            prefs: Prefs::default(),
            files: Files::default(),
            tabs: Vec::new(),
            report: Report::default(),
            report_generation: None,
            requests: Vec::new(),
            palette_at: [0.0, 0.0],
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
        }
    }

    /// The app as eframe creates it: preferences restored from storage.
    pub fn with_storage(session: Session, storage: Option<&dyn eframe::Storage>) -> ArborApp {
        let mut app = ArborApp::new(session);
        if let Some(prefs) = storage.and_then(|s| eframe::get_value::<Prefs>(s, prefs::STORAGE_KEY))
        {
            if prefs.zoom.is_finite() && prefs.zoom > 0.0 {
                app.canvas.set_zoom(prefs.zoom);
            }
            app.prefs = prefs;
        }
        if let Some(path) = app.session.path().map(Path::to_path_buf) {
            app.prefs.remember(&path);
        }
        app
    }

    /// The validation report of the current document.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// One frame of the whole editor.
    pub fn ui(&mut self, ctx: &egui::Context) {
        self.prefs.apply_theme(ctx);
        self.autosave(ctx);
        self.watch_disk(ctx);
        if self.report_generation != Some(self.session.generation()) {
            self.report = self.session.validate();
            self.report_generation = Some(self.session.generation());
            self.selection.retain_existing(self.session.document());
        }
        self.update_title(ctx);
        self.close_request(ctx);
        for action in shortcuts::pressed(ctx) {
            self.act(ctx, action);
        }
        self.clipboard(ctx);

        egui::TopBottomPanel::top("menu").show(ctx, |ui| self.menu_bar(ui));
        if !self.tabs.is_empty() {
            egui::TopBottomPanel::top("tabs").show(ctx, |ui| self.tab_bar(ui));
        }
        self.remote_frame(ctx);
        let remote_live = self.remote_is_live();
        let time = ctx.input(|i| i.time);
        let ArborApp {
            session,
            selection,
            toasts,
            gestures,
            canvas,
            inspector,
            blackboard,
            problems,
            history,
            preview,
            report,
            requests,
            remote,
            remote_panel,
            bottom,
            ..
        } = self;
        let mut cx = UiCx {
            session,
            selection,
            toasts,
            gestures,
            requests,
            report,
        };
        preview.update(&mut cx, time);
        let mut remote_action = None;
        egui::SidePanel::left("left")
            .default_width(270.0)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().id_salt("left").show(ui, |ui| {
                    let editable = cx.session.read_only_reason().is_none();
                    ui.add_enabled_ui(editable, |ui| blackboard.ui(ui, &mut cx));
                    ui.separator();
                    history.ui(ui, &mut cx);
                });
            });
        egui::SidePanel::right("right")
            .default_width(330.0)
            .show(ctx, |ui| {
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
                        inspector.ui(ui, &mut cx);
                        ui.separator();
                        problems.ui(ui, &mut cx);
                    });
            });
        egui::TopBottomPanel::bottom("preview")
            .resizable(true)
            .default_height(270.0)
            .min_height(120.0)
            .show(ctx, |ui| {
                if let Some(remote) = remote.as_mut() {
                    ui.horizontal(|ui| {
                        ui.selectable_value(bottom, Bottom::Preview, "Preview");
                        ui.selectable_value(
                            bottom,
                            Bottom::Remote,
                            format!("Remote: {}", remote.addr),
                        );
                    });
                    ui.separator();
                    if *bottom == Bottom::Remote {
                        // As tall as the preview it replaces, so the canvas does not jump.
                        ui.set_min_height(ui.available_height().max(200.0));
                        remote_action = remote_panel.ui(ui, remote, remote_live);
                        return;
                    }
                }
                preview.ui(ui, &mut cx);
            });
        let live: &dyn LiveSource = match remote.as_ref() {
            Some(remote) if remote_live => remote,
            _ => preview,
        };
        egui::CentralPanel::default()
            .frame(egui::Frame::none())
            .show(ctx, |ui| {
                canvas.ui(ui, &mut cx, live);
            });
        if let Some(at) = self.canvas.palette_request.take() {
            self.open_palette(at);
        }
        if let Some(kind) = self.palette.show(ctx, self.session.types()) {
            self.add_node(&kind);
        }
        self.remote_action(remote_action);
        let action = self.attach.show(ctx, &mut self.remote);
        self.remote_action(action);
        self.dialogs(ctx);
        self.recovery_dialog(ctx);
        self.disk_dialog(ctx);
        self.toasts.show(ctx);
        for request in std::mem::take(&mut self.requests) {
            self.handle(request);
        }
    }

    fn handle(&mut self, request: Request) {
        match request {
            Request::Frame(guids) => {
                self.selection = Selection::of_nodes(guids.iter().cloned());
                self.canvas.frame(&guids);
            }
            Request::ToggleBreakpoint(guid) => self.toggle_breakpoint(&guid),
            Request::OpenSubtree(guid) => self.open_subtree(&guid),
        }
    }

    /// Does what a shortcut or menu item asks.
    pub fn act(&mut self, ctx: &egui::Context, action: Action) {
        match action {
            Action::New => {
                let session = files::new_session(self.session.types());
                self.show_in_tab(session);
            }
            Action::Open => match self.pick(false) {
                Picked::Path(path) => self.open(&path),
                Picked::Cancelled => {}
                Picked::Unavailable => self.prompt_path(Purpose::Open),
            },
            Action::CloseTab => self.request(Pending::CloseTab),
            Action::InlineSubtree => {
                let Some(guid) = self.single_node() else {
                    self.toasts.info("Select one Subtree node to inline");
                    return;
                };
                match self.session.inline_subtree(&guid) {
                    Ok(inlined) => self.selection = inlined,
                    Err(e) => self.toasts.error(format!("Cannot inline: {e}")),
                }
            }
            Action::ExportSubtree => {
                let Some(guid) = self.single_node() else {
                    self.toasts
                        .info("Select the top node of the branch to export");
                    return;
                };
                match self.pick(true) {
                    Picked::Path(path) => self.export_subtree(&guid, &path),
                    Picked::Cancelled => {}
                    Picked::Unavailable => self.prompt_path(Purpose::ExportSubtree(guid)),
                }
            }
            Action::Save => {
                self.save();
            }
            Action::SaveAs => {
                self.save_as();
            }
            Action::Undo => {
                if !self.session.undo() {
                    self.toasts.info("Nothing to undo");
                }
            }
            Action::Redo => {
                if !self.session.redo() {
                    self.toasts.info("Nothing to redo");
                }
            }
            Action::Delete => {
                if !self.selection.is_empty() {
                    if let Err(e) = self.session.delete(&self.selection) {
                        self.toasts.error(e.to_string());
                    }
                    self.selection = Selection::default();
                }
            }
            Action::SelectAll => self.selection = Selection::all(self.session.document()),
            Action::Duplicate => match self.session.duplicate(&self.selection, [40.0, 40.0]) {
                Ok(copies) => self.selection = copies,
                Err(e) => self.toasts.error(e.to_string()),
            },
            Action::FrameSelection => {
                let guids: Vec<String> = self.selection.nodes.iter().cloned().collect();
                self.canvas.frame(&guids);
            }
            Action::FrameAll => self.canvas.frame(&[]),
            Action::ResetZoom => self.canvas.set_zoom(1.0),
            Action::Palette => {
                let at = ctx
                    .pointer_hover_pos()
                    .unwrap_or_else(|| self.canvas.view_rect().center());
                self.open_palette(at);
            }
            Action::Breakpoint => {
                for guid in self.selection.nodes.clone() {
                    self.toggle_breakpoint(&guid);
                }
            }
            Action::AutoLayout => {
                let options = LayoutOptions {
                    sizes: self.canvas.measured_sizes(),
                    ..LayoutOptions::default()
                };
                match self.session.auto_layout(&options) {
                    Ok(true) => self.canvas.frame(&[]),
                    Ok(false) => self.toasts.info("Already laid out"),
                    Err(e) => self.toasts.error(e.to_string()),
                }
            }
            Action::Group => {
                let sizes = self.canvas.measured_sizes();
                match crate::canvas::group_around(self.session.document(), &self.selection, &sizes)
                {
                    Some(group) => {
                        let cmd = crate::commands::SetGroup::add(group);
                        let guid = cmd.guid().to_owned();
                        if let Err(e) = self.session.apply(cmd) {
                            self.toasts.error(e.to_string());
                        }
                        self.selection = Selection::default();
                        self.selection.groups.insert(guid.clone());
                        self.canvas.annotations.renaming_group = Some(guid);
                    }
                    None => self.toasts.info("Select nodes or notes to group"),
                }
            }
            Action::Ungroup => {
                let groups: Vec<String> = self.selection.groups.iter().cloned().collect();
                if groups.is_empty() {
                    self.toasts.info("Select a group's title to ungroup it");
                }
                for guid in groups {
                    if let Err(e) = self.session.apply(crate::commands::SetGroup::remove(&guid)) {
                        self.toasts.error(e.to_string());
                    }
                }
                self.selection.groups.clear();
            }
            Action::AddNote => {
                let at = ctx
                    .pointer_hover_pos()
                    .filter(|p| self.canvas.view_rect().contains(*p))
                    .unwrap_or_else(|| self.canvas.view_rect().center());
                let note = crate::document::Note {
                    text: "New note".to_owned(),
                    pos: self.canvas.to_doc(at),
                    size: [220.0, 120.0],
                    ..crate::document::Note::default()
                };
                let cmd = crate::commands::SetNote::add(note);
                let guid = cmd.guid().to_owned();
                if let Err(e) = self.session.apply(cmd) {
                    self.toasts.error(e.to_string());
                }
                self.selection = Selection::default();
                self.selection.notes.insert(guid.clone());
                self.canvas.annotations.editing_note = Some(guid);
            }
            Action::PlayPause if self.remote_is_live() => {
                if let Some(remote) = &self.remote {
                    match remote.focused() {
                        Some((_, view)) if view.paused.is_some() => remote.resume(),
                        _ => remote.pause(),
                    }
                }
            }
            Action::Step if self.remote_is_live() => {
                if let Some(remote) = &self.remote {
                    remote.step();
                }
            }
            Action::PlayPause => {
                if self.preview.is_playing() {
                    self.preview.pause();
                } else {
                    self.preview.play();
                }
            }
            Action::Step => {
                let ArborApp {
                    session,
                    selection,
                    toasts,
                    gestures,
                    preview,
                    report,
                    requests,
                    ..
                } = self;
                let mut cx = UiCx {
                    session,
                    selection,
                    toasts,
                    gestures,
                    requests,
                    report,
                };
                preview.step(&mut cx);
            }
        }
    }

    fn open_palette(&mut self, at: egui::Pos2) {
        self.palette_at = self.canvas.to_doc(at);
        self.palette.open(at);
    }

    /// Adds a node of `kind` where the palette was opened, and selects it.
    pub fn add_node(&mut self, kind: &str) {
        match self.session.add_node(kind, self.palette_at) {
            Ok(guid) => self.selection = Selection::of_nodes([guid]),
            Err(e) => self.toasts.error(e.to_string()),
        }
    }

    /// Copy, cut and paste arrive as events (egui maps the platform's shortcuts).
    fn clipboard(&mut self, ctx: &egui::Context) {
        if ctx.wants_keyboard_input() {
            return;
        }
        let events: Vec<egui::Event> = ctx.input(|i| i.events.clone());
        for event in events {
            match event {
                egui::Event::Copy if !self.selection.is_empty() => {
                    ctx.copy_text(self.session.copy(&self.selection));
                }
                egui::Event::Cut if !self.selection.is_empty() => {
                    match self.session.cut(&self.selection) {
                        Ok(text) => {
                            ctx.copy_text(text);
                            self.selection = Selection::default();
                        }
                        Err(e) => self.toasts.error(e.to_string()),
                    }
                }
                egui::Event::Paste(text) => {
                    let at = ctx
                        .pointer_hover_pos()
                        .filter(|p| self.canvas.view_rect().contains(*p))
                        .map_or_else(
                            || self.canvas.to_doc(self.canvas.view_rect().center()),
                            |p| self.canvas.to_doc(p),
                        );
                    match self.session.paste(&text, at) {
                        Ok(pasted) => self.selection = pasted,
                        Err(e) => self.toasts.error(format!("Cannot paste: {e}")),
                    }
                }
                _ => {}
            }
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let item =
            |ui: &mut egui::Ui, text: &str, action: Action, enabled: bool| -> Option<Action> {
                let button = egui::Button::new(text).shortcut_text(shortcuts::label(&ctx, action));
                ui.add_enabled(enabled, button).clicked().then(|| {
                    ui.close_menu();
                    action
                })
            };
        let mut chosen = Vec::new();
        let mut open_recent: Option<PathBuf> = None;
        let mut detach = false;
        egui::menu::bar(ui, |ui| {
            ui.menu_button("File", |ui| {
                chosen.extend(item(ui, "New", Action::New, true));
                chosen.extend(item(ui, "Open…", Action::Open, true));
                ui.menu_button("Open Recent", |ui| {
                    if self.prefs.recent.is_empty() {
                        ui.label("No recent files");
                    }
                    for path in &self.prefs.recent {
                        if ui.button(path.display().to_string()).clicked() {
                            open_recent = Some(path.clone());
                            ui.close_menu();
                        }
                    }
                });
                ui.separator();
                chosen.extend(item(ui, "Save", Action::Save, true));
                chosen.extend(item(ui, "Save As…", Action::SaveAs, true));
                ui.separator();
                chosen.extend(item(ui, "Close Tab", Action::CloseTab, true));
            });
            ui.menu_button("Edit", |ui| {
                let undo = self
                    .session
                    .undo_text()
                    .unwrap_or_else(|| "Undo".to_owned());
                let redo = self
                    .session
                    .redo_text()
                    .unwrap_or_else(|| "Redo".to_owned());
                chosen.extend(item(ui, &undo, Action::Undo, self.session.can_undo()));
                chosen.extend(item(ui, &redo, Action::Redo, self.session.can_redo()));
                ui.separator();
                let some = !self.selection.is_empty();
                chosen.extend(item(ui, "Duplicate", Action::Duplicate, some));
                chosen.extend(item(ui, "Delete", Action::Delete, some));
                chosen.extend(item(ui, "Select All", Action::SelectAll, true));
                ui.label(
                    egui::RichText::new("Cut, copy, paste: Ctrl+X, Ctrl+C, Ctrl+V")
                        .small()
                        .weak(),
                );
                ui.separator();
                chosen.extend(item(ui, "Add Node…", Action::Palette, true));
                chosen.extend(item(ui, "Add Note", Action::AddNote, true));
                chosen.extend(item(ui, "Group Selection", Action::Group, some));
                chosen.extend(item(
                    ui,
                    "Ungroup",
                    Action::Ungroup,
                    !self.selection.groups.is_empty(),
                ));
                ui.separator();
                let one = self.selection.nodes.len() == 1;
                let subtree = one
                    && self.selection.nodes.iter().all(|g| {
                        self.session
                            .document()
                            .node(g)
                            .is_some_and(|n| n.kind == "Subtree")
                    });
                chosen.extend(item(ui, "Inline Subtree", Action::InlineSubtree, subtree));
                chosen.extend(item(ui, "Export as Subtree…", Action::ExportSubtree, one));
                chosen.extend(item(ui, "Auto Layout", Action::AutoLayout, true));
            });
            ui.menu_button("View", |ui| {
                chosen.extend(item(ui, "Frame Selection", Action::FrameSelection, true));
                chosen.extend(item(ui, "Frame All", Action::FrameAll, true));
                chosen.extend(item(ui, "Reset Zoom", Action::ResetZoom, true));
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("Theme");
                    ui.selectable_value(&mut self.prefs.theme, Theme::Dark, "Dark");
                    ui.selectable_value(&mut self.prefs.theme, Theme::Light, "Light");
                });
            });
            ui.menu_button("Preview", |ui| {
                chosen.extend(item(
                    ui,
                    "Toggle Breakpoint",
                    Action::Breakpoint,
                    !self.selection.nodes.is_empty(),
                ));
                ui.separator();
                if ui.button("Attach to Program…").clicked() {
                    self.attach.open = true;
                    ui.close_menu();
                }
                if ui
                    .add_enabled(self.remote.is_some(), egui::Button::new("Detach"))
                    .clicked()
                {
                    detach = true;
                    ui.close_menu();
                }
            });
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let errors = self.report.problems.iter().filter(|p| p.is_error()).count();
                if errors > 0 {
                    ui.colored_label(
                        egui::Color32::from_rgb(230, 90, 90),
                        format!("⚠ {errors} problems"),
                    );
                }
                ui.label(format!("{} nodes", self.session.document().node_count()));
            });
        });
        for action in chosen {
            self.act(&ctx, action);
        }
        if let Some(path) = open_recent {
            self.open(&path);
        }
        if detach {
            self.detach();
        }
    }

    /// Starts an action that would replace or close the document: asks first if there are
    /// unsaved changes.
    pub fn request(&mut self, pending: Pending) {
        if self.session.is_modified() {
            self.files.confirm = Some(pending);
        } else {
            self.proceed(pending);
        }
    }

    fn proceed(&mut self, pending: Pending) {
        match pending {
            Pending::CloseTab => {
                if !self.close_tab() {
                    self.session = files::new_session(self.session.types());
                    self.selection = Selection::default();
                }
            }
            Pending::Close => {
                if self.close_tab() {
                    self.ask_before_closing();
                } else {
                    self.files.close_confirmed = true;
                }
            }
        }
    }

    /// Drops the active tab and activates the next one; false if it was the last.
    fn close_tab(&mut self) -> bool {
        if self.tabs.is_empty() {
            return false;
        }
        let next = self.tabs.remove(0);
        self.session = next.session;
        self.selection = next.selection;
        self.canvas = next.canvas;
        self.preview = Preview::default();
        true
    }

    /// Shows `session` in a new tab, or in this one if it holds only an untouched blank
    /// document.
    pub fn show_in_tab(&mut self, session: Session) {
        let blank = self.session.path().is_none()
            && !self.session.is_modified()
            && self.session.document().node_count() <= 1;
        if !blank {
            let old = Tab {
                session: std::mem::take(&mut self.session),
                selection: std::mem::take(&mut self.selection),
                canvas: std::mem::take(&mut self.canvas),
            };
            self.tabs.insert(0, old);
        }
        self.session = session;
        self.selection = Selection::default();
        self.canvas = Canvas::default();
        self.preview = Preview::default();
    }

    /// Makes background tab `i` the active one.
    pub fn switch_to(&mut self, i: usize) {
        let Some(tab) = self.tabs.get_mut(i) else {
            return;
        };
        std::mem::swap(&mut self.session, &mut tab.session);
        std::mem::swap(&mut self.selection, &mut tab.selection);
        std::mem::swap(&mut self.canvas, &mut tab.canvas);
        self.preview = Preview::default();
    }

    fn tab_bar(&mut self, ui: &mut egui::Ui) {
        let mut switch = None;
        ui.horizontal(|ui| {
            let name = files::title(&self.session).replace(" — Arbor", "");
            let _ = ui.selectable_label(true, name);
            for (i, tab) in self.tabs.iter().enumerate() {
                let name = files::title(&tab.session).replace(" — Arbor", "");
                if ui.selectable_label(false, name).clicked() {
                    switch = Some(i);
                }
            }
        });
        if let Some(i) = switch {
            self.switch_to(i);
        }
    }

    fn single_node(&self) -> Option<String> {
        if self.selection.nodes.len() == 1 {
            self.selection.nodes.iter().next().cloned()
        } else {
            None
        }
    }

    fn export_subtree(&mut self, guid: &str, path: &Path) {
        match self.session.export_subtree(guid, path) {
            Ok(()) => self.toasts.info(format!(
                "Wrote {} and replaced the branch by a Subtree node. Undo restores the branch; the file stays on disk.",
                path.display()
            )),
            Err(e) => self.toasts.error(format!("Not exported: {e}")),
        }
    }

    /// Opens a file in a new tab (or switches to it if it is open already); on failure
    /// nothing changes and the problems are shown.
    pub fn open(&mut self, path: &Path) {
        let target = path.canonicalize().ok();
        let same =
            |p: Option<&Path>| target.is_some() && p.and_then(|p| p.canonicalize().ok()) == target;
        if same(self.session.path()) {
            return;
        }
        if let Some(i) = self.tabs.iter().position(|t| same(t.session.path())) {
            self.switch_to(i);
            return;
        }
        match Session::open(path) {
            Ok(session) => {
                self.prefs.remember(path);
                self.show_in_tab(session);
                self.show_notes("Imported");
            }
            Err(e) => self.files.error = Some(format!("Could not open {}:\n\n{e}", path.display())),
        }
    }

    /// Saves to the current file, or asks where. Returns whether it saved.
    pub fn save(&mut self) -> bool {
        if self.session.path().is_none() {
            return self.save_as();
        }
        if self.save_would_overwrite() {
            return false;
        }
        match self.session.save() {
            Ok(()) => {
                self.saved_message();
                true
            }
            Err(e) => {
                self.toasts.error(recovery::not_saved_message(&e));
                false
            }
        }
    }

    pub fn save_as(&mut self) -> bool {
        match self.pick(true) {
            Picked::Path(path) => self.save_to(&path),
            Picked::Cancelled => false,
            Picked::Unavailable => {
                self.prompt_path(Purpose::SaveAs);
                false
            }
        }
    }

    pub fn save_to(&mut self, path: &Path) -> bool {
        match self.session.save_as(path) {
            Ok(()) => {
                self.prefs.remember(path);
                self.saved_message();
                true
            }
            Err(e) => {
                self.toasts.error(recovery::not_saved_message(&e));
                false
            }
        }
    }

    /// What an XML open or save approximated, as one toast (`what` says which).
    pub fn show_notes(&mut self, what: &str) {
        let notes = self.session.notes();
        if notes.is_empty() {
            return;
        }
        let mut text = format!("{what} with {} note(s):", notes.len());
        for note in notes.iter().take(6) {
            text.push_str("\n• ");
            text.push_str(note);
        }
        if notes.len() > 6 {
            text.push_str(&format!("\n… and {} more", notes.len() - 6));
        }
        self.toasts.info(text);
    }

    fn saved_message(&mut self) {
        let problems = self.report.problems.iter().filter(|p| p.is_error()).count();
        let path = self
            .session
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if problems > 0 {
            self.toasts.info(format!(
                "Saved {path} — work in progress: {problems} problems to fix before it can run"
            ));
        } else {
            self.toasts.info(format!("Saved {path}"));
        }
        self.show_notes("Saved as BehaviorTree.CPP XML");
    }

    fn pick(&mut self, saving: bool) -> Picked {
        if !self.native_dialogs {
            return Picked::Unavailable;
        }
        files::pick(saving, self.session.path())
    }

    fn prompt_path(&mut self, purpose: Purpose) {
        let folder = self.session.path().and_then(Path::parent);
        let text = match &purpose {
            Purpose::ExportSubtree(_) => {
                folder.map(|d| d.join("subtree.json").display().to_string())
            }
            _ => self.session.path().map(|p| p.display().to_string()),
        };
        self.files.path_prompt = Some(files::PathPrompt {
            purpose,
            text: text.unwrap_or_default(),
            why: "The system file dialog is not available on this desktop (no file-chooser portal service). Type a path instead:".to_owned(),
        });
    }

    fn open_subtree(&mut self, guid: &str) {
        let Some(node) = self.session.document().node(guid) else {
            return;
        };
        let Some(rel) = node.params.get("path").and_then(|v| v.as_str()) else {
            self.toasts.error("This Subtree node has no path yet");
            return;
        };
        let base = self
            .session
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path: PathBuf = base.join(rel);
        self.open(&path);
    }

    /// Closing the window with unsaved changes asks first, document by document.
    fn close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && !self.files.close_confirmed
            && self.any_modified()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.ask_before_closing();
        }
        if self.files.close_confirmed {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn any_modified(&self) -> bool {
        self.session.is_modified() || self.tabs.iter().any(|t| t.session.is_modified())
    }

    /// Shows the next document with unsaved changes and asks about it; closes the window
    /// when none is left.
    fn ask_before_closing(&mut self) {
        if self.session.is_modified() {
            self.files.confirm = Some(Pending::Close);
        } else if let Some(i) = self.tabs.iter().position(|t| t.session.is_modified()) {
            self.switch_to(i);
            self.files.confirm = Some(Pending::Close);
        } else {
            self.files.close_confirmed = true;
        }
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = files::title(&self.session);
        if title != self.title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        if let Some(pending) = self.files.confirm.clone() {
            let mut choice = None;
            egui::Window::new("Unsaved changes")
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.label(format!(
                        "Save the changes to “{}” first?",
                        self.session.document().name()
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Save").clicked() {
                            choice = Some(0);
                        }
                        if ui.button("Discard").clicked() {
                            choice = Some(1);
                        }
                        if ui.button("Cancel").clicked() {
                            choice = Some(2);
                        }
                    });
                });
            match choice {
                Some(0) => {
                    self.files.confirm = None;
                    if self.save() {
                        self.proceed(pending);
                    }
                }
                Some(1) => {
                    self.files.confirm = None;
                    self.proceed(pending);
                }
                Some(_) => self.files.confirm = None,
                None => {}
            }
        }
        if let Some(mut prompt) = self.files.path_prompt.take() {
            let mut done = None;
            let title = match prompt.purpose {
                Purpose::Open => "Open",
                Purpose::SaveAs => "Save as",
                Purpose::ExportSubtree(_) => "Export as subtree",
            };
            egui::Window::new(title)
                .collapsible(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    ui.label(&prompt.why);
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut prompt.text)
                            .desired_width(420.0)
                            .hint_text("/path/to/tree.json"),
                    );
                    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    ui.horizontal(|ui| {
                        if ui.button(title).clicked() || enter {
                            done = Some(true);
                        }
                        if ui.button("Cancel").clicked() {
                            done = Some(false);
                        }
                    });
                });
            match done {
                Some(true) => {
                    let path = PathBuf::from(prompt.text.trim());
                    match prompt.purpose.clone() {
                        Purpose::SaveAs => {
                            if !self.save_to(&path) {
                                self.files.path_prompt = Some(prompt);
                            }
                        }
                        Purpose::Open => self.open(&path),
                        Purpose::ExportSubtree(guid) => self.export_subtree(&guid, &path),
                    }
                }
                Some(false) => {}
                None => self.files.path_prompt = Some(prompt),
            }
        }
        if let Some(error) = self.files.error.clone() {
            let mut open = true;
            egui::Window::new("Could not open the file")
                .open(&mut open)
                .collapsible(false)
                .default_width(640.0)
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(380.0)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new(&error).monospace());
                        });
                    ui.label("The document you were editing is unchanged.");
                });
            if !open {
                self.files.error = None;
            }
        }
    }
}

impl eframe::App for ArborApp {
    fn update(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.frame_guarded(ctx);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.exit_recovery();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.prefs.zoom = self.canvas.zoom();
        eframe::set_value(storage, prefs::STORAGE_KEY, &self.prefs);
    }
}
