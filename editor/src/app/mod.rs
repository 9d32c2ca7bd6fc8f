//! ArborApp: owns the session (document + history), the view state and the panels, and
//! lays them out. It implements `eframe::App`; `ui` is separate so tests can drive the whole
//! editor headlessly through an `egui::Context`.

mod cx;
mod gestures;
mod toasts;

pub use cx::{Request, UiCx};
pub use gestures::Gestures;
pub use toasts::Toasts;

use arbor_runtime::Report;

use crate::canvas::Canvas;
use crate::document::Selection;
use crate::panels::{BlackboardPanel, HistoryPanel, Inspector, Palette, ProblemsPanel};
use crate::preview::Preview;
use crate::Session;

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
    report: Report,
    report_generation: Option<u64>,
    requests: Vec<Request>,
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
            report: Report::default(),
            report_generation: None,
            requests: Vec::new(),
        }
    }

    /// The validation report of the current document.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// One frame of the whole editor.
    pub fn ui(&mut self, ctx: &egui::Context) {
        if self.report_generation != Some(self.session.generation()) {
            self.report = self.session.validate();
            self.report_generation = Some(self.session.generation());
            self.selection.retain_existing(self.session.document());
        }
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
        egui::SidePanel::left("left")
            .default_width(260.0)
            .show(ctx, |ui| {
                blackboard.ui(ui, &mut cx);
                ui.separator();
                history.ui(ui, &mut cx);
            });
        egui::SidePanel::right("right")
            .default_width(320.0)
            .show(ctx, |ui| {
                inspector.ui(ui, &mut cx);
                ui.separator();
                problems.ui(ui, &mut cx);
            });
        egui::TopBottomPanel::bottom("preview")
            .resizable(true)
            .default_height(260.0)
            .show(ctx, |ui| {
                preview.ui(ui, &mut cx);
            });
        egui::CentralPanel::default()
            .frame(egui::Frame::none())
            .show(ctx, |ui| {
                canvas.ui(ui, &mut cx, preview);
            });
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
            Request::ToggleBreakpoint(guid) => self.preview.toggle_breakpoint(&guid),
            Request::OpenSubtree(guid) => self.toasts.info(format!("open subtree {guid}")),
        }
    }
}

impl eframe::App for ArborApp {
    fn update(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.ui(ctx);
    }
}
