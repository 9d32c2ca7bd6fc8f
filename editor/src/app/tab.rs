//! Tab: one open document and everything shown of it. A tab owns its session (document and
//! history), selection, validation report, canvas (camera and view cache), side panels,
//! palette, preview and any question about its file changed on disk, so nothing of one
//! document can be shown over another: the problems listed are the active tab's own, and
//! a preview keeps running state (its world, timeline, breakpoints) while its tab is in
//! the background.
//!
//! The app holds the tabs and routes input to the active one. What all tabs share (toasts,
//! gesture ids, the requests views make) is [`Shared`]; [`Tab::parts`] lends a tab's
//! [`UiCx`] and its views apart, and is the only place a `UiCx` is built.
//!
//! Limitations: a background tab's preview does not tick; it resumes where it was.

use arbor_runtime::Report;

use crate::canvas::{group_around, Canvas, NOTE_PLACEHOLDER};
use crate::commands::{Command, Link, SetGroup, SetNote};
use crate::document::{LayoutOptions, Note, Selection};
use crate::panels::{BlackboardPanel, HistoryPanel, Inspector, Palette, ProblemsPanel};
use crate::preview::Preview;
use crate::view::{Gestures, Request, Toasts, UiCx};
use crate::Session;

use super::validation::Validation;
use super::{Action, Conflict};

/// What every tab's views share, owned by the app.
#[derive(Debug, Default)]
pub(super) struct Shared {
    pub(super) toasts: Toasts,
    pub(super) gestures: Gestures,
    /// Asked by the views this frame, handled by the app after drawing.
    pub(super) requests: Vec<Request>,
}

/// A tab's views, lent apart from the [`UiCx`] they draw with.
pub(super) struct Views<'a> {
    pub(super) canvas: &'a mut Canvas,
    pub(super) inspector: &'a mut Inspector,
    pub(super) blackboard: &'a mut BlackboardPanel,
    pub(super) problems: &'a mut ProblemsPanel,
    pub(super) history: &'a mut HistoryPanel,
    pub(super) preview: &'a mut Preview,
}

/// See the module documentation.
pub struct Tab {
    session: Session,
    selection: Selection,
    /// The document's validation report: the one every view shows.
    validation: Validation,
    /// The generation the selection was last pruned for (deleted items leave it).
    selected_for: Option<u64>,
    canvas: Canvas,
    inspector: Inspector,
    blackboard: BlackboardPanel,
    problems: ProblemsPanel,
    history: HistoryPanel,
    palette: Palette,
    /// Where the palette adds its node, in document coordinates.
    palette_at: [f64; 2],
    /// What the palette's node is connected to, when it was opened for a child, a
    /// sibling or a dropped wire; and whether `palette_at` is where the wire ended (else
    /// the node goes beside its relative).
    palette_link: Option<(Link, bool)>,
    preview: Preview,
    /// The question about this tab's file changed on disk, if one is waiting.
    conflict: Option<Conflict>,
}

impl Tab {
    pub fn new(session: Session) -> Tab {
        Tab {
            session,
            selection: Selection::default(),
            validation: Validation::default(),
            selected_for: None,
            canvas: Canvas::default(),
            inspector: Inspector::default(),
            blackboard: BlackboardPanel::default(),
            problems: ProblemsPanel::default(),
            history: HistoryPanel::default(),
            palette: Palette::default(),
            palette_at: [0.0, 0.0],
            palette_link: None,
            preview: Preview::default(),
            conflict: None,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    pub fn set_selection(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// The validation report of this tab's document, as of the last frame it was shown
    /// (see [`Tab::refresh`]).
    pub fn report(&self) -> &Report {
        self.validation.report()
    }

    /// The report and which state of the document it describes.
    pub fn validation(&self) -> &Validation {
        &self.validation
    }

    /// Waits for a check running in the background, then brings the report up to the
    /// document on the spot.
    pub fn settle_report(&mut self) {
        self.validation.settle(&self.session);
    }

    /// How many of the report's problems are errors (not warnings).
    pub fn error_count(&self) -> usize {
        self.report()
            .problems
            .iter()
            .filter(|p| p.is_error())
            .count()
    }

    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    pub fn canvas_mut(&mut self) -> &mut Canvas {
        &mut self.canvas
    }

    /// The canvas and the session, borrowed together.
    pub(super) fn canvas_and_session(&mut self) -> (&mut Canvas, &Session) {
        (&mut self.canvas, &self.session)
    }

    pub fn preview(&self) -> &Preview {
        &self.preview
    }

    pub fn preview_mut(&mut self) -> &mut Preview {
        &mut self.preview
    }

    /// The question about this tab's file changed on disk, if one is waiting.
    pub fn conflict(&self) -> Option<&Conflict> {
        self.conflict.as_ref()
    }

    pub(super) fn conflict_slot(&mut self) -> &mut Option<Conflict> {
        &mut self.conflict
    }

    /// Whether this is an untouched blank document that a newly opened one may replace.
    pub fn is_blank(&self) -> bool {
        self.session.path().is_none()
            && !self.session.is_modified()
            && self.session.document().node_count() <= 1
    }

    /// Before drawing, and again after the panels that edit and before the canvas: the
    /// report and the selection follow the document. Returns whether the report still
    /// trails the document (a large document being checked in the background), so the
    /// app asks for another frame to show it when it arrives.
    pub fn refresh(&mut self) -> bool {
        if self.selected_for != Some(self.session.generation()) {
            self.selection.retain_existing(self.session.document());
            self.selected_for = Some(self.session.generation());
        }
        self.validation.refresh(&self.session);
        !self.validation.is_current(&self.session)
    }

    /// The frame context and the views, borrowed apart so a view can draw with the
    /// context. The only place a [`UiCx`] is built.
    pub(super) fn parts<'a>(&'a mut self, shared: &'a mut Shared) -> (UiCx<'a>, Views<'a>) {
        let cx = UiCx {
            session: &mut self.session,
            selection: &mut self.selection,
            toasts: &mut shared.toasts,
            gestures: &mut shared.gestures,
            requests: &mut shared.requests,
            report: self.validation.report(),
            checked: self.validation.checked(),
        };
        let views = Views {
            canvas: &mut self.canvas,
            inspector: &mut self.inspector,
            blackboard: &mut self.blackboard,
            problems: &mut self.problems,
            history: &mut self.history,
            preview: &mut self.preview,
        };
        (cx, views)
    }

    /// The one selected node, if exactly one is selected.
    pub fn single_node(&self) -> Option<String> {
        if self.selection.nodes.len() == 1 {
            self.selection.nodes.iter().next().cloned()
        } else {
            None
        }
    }

    /// Centres the canvas on `guids` and selects them.
    pub fn frame_nodes(&mut self, guids: &[String]) {
        self.selection = Selection::of_nodes(guids.iter().cloned());
        self.canvas.frame(guids);
    }

    /// Whether the node finder (palette) is open.
    pub fn palette_is_open(&self) -> bool {
        self.palette.is_open()
    }

    /// Opens the node palette at a screen position over the canvas.
    pub fn open_palette(&mut self, at: egui::Pos2) {
        self.palette_at = self.canvas.to_doc(at);
        self.palette_link = None;
        self.palette.open(at);
    }

    /// Opens the node palette at a screen position, for a node linked as `link` says:
    /// placed where the wire ended (`at_wire_end`) or beside its relative.
    pub fn open_linked_palette(&mut self, at: egui::Pos2, link: Link, at_wire_end: bool) {
        self.open_palette(at);
        self.palette_link = Some((link, at_wire_end));
    }

    /// Opens the palette to add a child (or a sibling) of the one selected node, beside
    /// it on the screen; `false` when not exactly one node is selected.
    fn open_relative_palette(&mut self, sibling: bool) -> bool {
        let Some(guid) = self.single_node() else {
            return false;
        };
        let at = self
            .canvas
            .drawn(&guid)
            .map(|d| d.rect().right_top() + egui::vec2(12.0, 0.0))
            .or_else(|| self.canvas.lod_box(&guid).map(|r| r.right_top()))
            .unwrap_or_else(|| self.canvas.view_rect().center());
        let link = if sibling {
            Link::SiblingAfter(guid)
        } else {
            Link::ChildOf(guid)
        };
        self.open_linked_palette(at, link, false);
        true
    }

    /// Draws the palette if it is open; a chosen kind is added where it was opened.
    pub fn palette_ui(&mut self, ctx: &egui::Context, toasts: &mut Toasts) {
        if let Some(at) = self.canvas.palette_request.take() {
            self.open_palette(at);
        }
        if let Some((at, link)) = self.canvas.wire_request.take() {
            self.open_linked_palette(at, link, true);
        }
        if let Some(kind) = self.palette.show(ctx, self.session.types()) {
            self.add_node(&kind, toasts);
        }
        if !self.palette.is_open() {
            self.palette_link = None;
        }
    }

    /// Adds a node of `kind` where the palette was opened (connected, if it was opened
    /// for a child, a sibling or a wire), and selects it.
    pub fn add_node(&mut self, kind: &str, toasts: &mut Toasts) {
        let added = match self.palette_link.take() {
            Some((link, at_wire_end)) => {
                self.measure();
                // The wire's end is the new node's port: its parent port (left edge) for
                // a child, its children port (right edge) for a parent; a little above
                // the port's height in the card.
                let [x, y] = self.palette_at;
                let width = crate::canvas::DEFAULT_NODE_SIZE[0];
                let at = match link {
                    Link::ParentOf(_) => [x - width, y - 20.0],
                    Link::ChildOf(_) | Link::SiblingAfter(_) => [x, y - 20.0],
                };
                self.session
                    .add_linked(kind, &link, at_wire_end.then_some(at))
            }
            None => self.session.add_node(kind, self.palette_at),
        };
        match added {
            Ok(guid) => self.selection = Selection::of_nodes([guid]),
            Err(e) => toasts.error(e.to_string()),
        }
    }

    /// Where a pasted or added item goes: under the pointer if it is over the canvas,
    /// else the middle of the view; in document coordinates.
    fn drop_point(&self, ctx: &egui::Context) -> [f64; 2] {
        let view = self.canvas.view_rect();
        let at = ctx
            .pointer_hover_pos()
            .filter(|p| view.contains(*p))
            .unwrap_or_else(|| view.center());
        self.canvas.to_doc(at)
    }

    /// Does what an editing or viewing shortcut asks of this tab's document; the file and
    /// live actions are the app's (see `ArborApp::act`).
    pub(super) fn act(&mut self, ctx: &egui::Context, action: Action, toasts: &mut Toasts) {
        match action {
            Action::Undo | Action::Redo => self.undo_redo(action == Action::Undo, toasts),
            Action::Delete => self.delete(toasts),
            Action::SelectAll => self.selection = Selection::all(self.session.document()),
            Action::Duplicate => {
                self.measure();
                match self.session.duplicate(&self.selection, [40.0, 40.0]) {
                    Ok(copies) => self.selection = copies,
                    Err(e) => toasts.error(e.to_string()),
                }
            }
            Action::Copy => self.copy(ctx),
            Action::Cut => self.cut(ctx, toasts),
            Action::InlineSubtree => self.inline_subtree(toasts),
            Action::AutoLayout => self.auto_layout(toasts),
            Action::Group => self.group(toasts),
            Action::Ungroup => self.ungroup(toasts),
            Action::AddNote => self.add_note(ctx, toasts),
            Action::FrameSelection => {
                let guids: Vec<String> = self.selection.nodes.iter().cloned().collect();
                self.canvas.frame(&guids);
            }
            Action::FrameAll => self.canvas.frame(&[]),
            Action::ResetZoom => self.canvas.set_zoom(1.0),
            Action::Find => self.canvas.open_find(),
            Action::Palette => {
                let at = ctx
                    .pointer_hover_pos()
                    .unwrap_or_else(|| self.canvas.view_rect().center());
                self.open_palette(at);
            }
            Action::AddChild => {
                if !self.open_relative_palette(false) {
                    let at = self.canvas.view_rect().center();
                    self.open_palette(at);
                }
            }
            Action::Rename => {
                if let Some(guid) = self.single_node() {
                    let name = self
                        .session
                        .document()
                        .node(&guid)
                        .map(|n| n.name.clone())
                        .unwrap_or_default();
                    self.canvas.start_rename(&guid, &name);
                }
            }
            Action::AddSibling => {
                if !self.open_relative_palette(true) {
                    toasts.error("Select one node to add a sibling after it".to_owned());
                }
            }
            Action::New
            | Action::Open
            | Action::Save
            | Action::SaveAs
            | Action::CloseTab
            | Action::ExportSubtree
            | Action::Breakpoint
            | Action::PlayPause
            | Action::Step
            | Action::FocusMode
            | Action::TogglePalette
            | Action::ToggleLeftPanel
            | Action::ToggleRightPanel
            | Action::TogglePreviewPanel => debug_assert!(false, "{action:?} is the app's"),
        }
    }

    /// Applies a command; a refusal becomes an error toast.
    fn apply(&mut self, cmd: impl Into<Command>, toasts: &mut Toasts) {
        if let Err(e) = self.session.apply(cmd) {
            toasts.error(e.to_string());
        }
    }

    fn undo_redo(&mut self, undo: bool, toasts: &mut Toasts) {
        if undo && !self.session.undo() {
            toasts.info("Nothing to undo");
        } else if !undo && !self.session.redo() {
            toasts.info("Nothing to redo");
        }
    }

    fn delete(&mut self, toasts: &mut Toasts) {
        if self.selection.is_empty() {
            return;
        }
        if let Err(e) = self.session.delete(&self.selection) {
            toasts.error(e.to_string());
        }
        self.selection = Selection::default();
    }

    fn inline_subtree(&mut self, toasts: &mut Toasts) {
        let Some(guid) = self.single_node() else {
            toasts.info("Select one Subtree node to inline");
            return;
        };
        self.measure();
        match self.session.inline_subtree(&guid) {
            Ok(inlined) => self.selection = inlined,
            Err(e) => toasts.error(format!("Cannot inline: {e}")),
        }
    }

    fn auto_layout(&mut self, toasts: &mut Toasts) {
        let options = LayoutOptions {
            sizes: self.canvas.measured_sizes(),
            ..LayoutOptions::default()
        };
        match self.session.auto_layout(&options) {
            Ok(true) => self.canvas.frame(&[]),
            Ok(false) => toasts.info("Already laid out"),
            Err(e) => toasts.error(e.to_string()),
        }
    }

    fn group(&mut self, toasts: &mut Toasts) {
        let sizes = self.canvas.measured_sizes();
        let Some(group) = group_around(self.session.document(), &self.selection, &sizes) else {
            toasts.info("Select nodes or notes to group");
            return;
        };
        let cmd = SetGroup::add(group);
        let guid = cmd.guid().to_owned();
        self.apply(cmd, toasts);
        self.selection = Selection::default();
        self.selection.groups.insert(guid.clone());
        self.canvas.annotations.renaming_group = Some(guid);
    }

    fn ungroup(&mut self, toasts: &mut Toasts) {
        let groups: Vec<String> = self.selection.groups.iter().cloned().collect();
        if groups.is_empty() {
            toasts.info("Select a group's title to ungroup it");
        }
        for guid in groups {
            self.apply(SetGroup::remove(&guid), toasts);
        }
        self.selection.groups.clear();
    }

    fn add_note(&mut self, ctx: &egui::Context, toasts: &mut Toasts) {
        let note = Note {
            text: NOTE_PLACEHOLDER.to_owned(),
            pos: self.drop_point(ctx),
            size: [220.0, 120.0],
            ..Note::default()
        };
        let cmd = SetNote::add(note);
        let guid = cmd.guid().to_owned();
        self.apply(cmd, toasts);
        self.selection = Selection::default();
        self.selection.notes.insert(guid.clone());
        self.canvas.annotations.editing_note = Some(guid);
    }

    /// Tells the session the sizes nodes were drawn at, so what it places next (paste,
    /// duplicate, inline) stands clear of the real boxes.
    fn measure(&mut self) {
        self.session.set_drawn_sizes(self.canvas.measured_sizes());
    }

    fn copy(&mut self, ctx: &egui::Context) {
        if !self.selection.is_empty() {
            ctx.copy_text(self.session.copy(&self.selection));
        }
    }

    fn cut(&mut self, ctx: &egui::Context, toasts: &mut Toasts) {
        if self.selection.is_empty() {
            return;
        }
        match self.session.cut(&self.selection) {
            Ok(text) => {
                ctx.copy_text(text);
                self.selection = Selection::default();
            }
            Err(e) => toasts.error(e.to_string()),
        }
    }

    /// Copy, cut and paste arrive as events (egui maps the platform's shortcuts).
    pub(super) fn clipboard(&mut self, ctx: &egui::Context, toasts: &mut Toasts) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let events: Vec<egui::Event> = ctx.input(|i| i.events.clone());
        for event in events {
            match event {
                egui::Event::Copy => self.copy(ctx),
                egui::Event::Cut => self.cut(ctx, toasts),
                egui::Event::Paste(text) => {
                    let at = self.drop_point(ctx);
                    self.measure();
                    match self.session.paste(&text, at) {
                        Ok(pasted) => self.selection = pasted,
                        Err(e) => toasts.error(format!("Cannot paste: {e}")),
                    }
                }
                _ => {}
            }
        }
    }
}
