//! A headless harness for the panels' tests: it owns a session and the rest of a
//! [`UiCx`], runs frames of an `egui::Context` with synthetic input, and finds widgets by
//! the text they paint (as a user does) or by their id (`ctx.read_response`).
//!
//! A click is four frames (move, press, release, then an idle one) so that hover, press and
//! click are each seen as egui sees them from a real pointer, and a popup the click opens
//! is painted (egui lays a new area out invisibly in its first frame); time advances by
//! 1/60 s per frame.

use egui::epaint::{ClippedShape, Shape};
use egui::{Event, Id, Key, Modifiers, PointerButton, Pos2, RawInput, Rect};

use crate::document::Selection;
use crate::view::{Gestures, Request, Toasts, UiCx};
use crate::Session;

/// One text painted in the last frame, where it is visible.
#[derive(Clone, Debug)]
pub(crate) struct Painted {
    pub text: String,
    pub rect: Rect,
}

/// How many frames [`Harness::frame_with`] runs after the one with input, at most, while
/// egui asks for more (a hover animation takes about six at 60 frames a second).
const FOLLOW_UPS: usize = 8;

pub(crate) struct Harness {
    pub ctx: egui::Context,
    pub session: Session,
    pub selection: Selection,
    pub toasts: Toasts,
    pub gestures: Gestures,
    pub requests: Vec<Request>,
    pub painted: Vec<Painted>,
    time: f64,
}

fn collect(shape: &Shape, clip: Rect, out: &mut Vec<Painted>) {
    match shape {
        Shape::Vec(shapes) => shapes.iter().for_each(|s| collect(s, clip, out)),
        Shape::Text(t) => {
            let rect = t.galley.rect.translate(t.pos.to_vec2()).intersect(clip);
            if rect.is_positive() {
                out.push(Painted {
                    text: t.galley.text().to_owned(),
                    rect,
                });
            }
        }
        _ => {}
    }
}

/// Draws one panel in a central panel, for [`Harness::frame`] and friends.
pub(crate) fn central<'p>(
    mut panel: impl FnMut(&mut egui::Ui, &mut UiCx<'_>) + 'p,
) -> impl FnMut(&mut egui::Ui, &mut UiCx<'_>) + 'p {
    move |ui, cx| {
        egui::CentralPanel::default().show(ui, |ui| panel(ui, cx));
    }
}

impl Harness {
    pub fn new(session: Session) -> Harness {
        Harness {
            ctx: egui::Context::default(),
            session,
            selection: Selection::default(),
            toasts: Toasts::default(),
            gestures: Gestures::default(),
            requests: Vec::new(),
            painted: Vec::new(),
            time: 0.0,
        }
    }

    /// Runs one frame with `events`, then, as eframe does, the frames egui asks for at once
    /// (a grid whose columns are still growing, a new area); `draw` gets a fresh [`UiCx`]
    /// (with the current validation report, as the app recomputes it).
    pub fn frame_with(
        &mut self,
        events: Vec<Event>,
        draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>),
    ) {
        let mut wants_more = self.one_frame(events, draw);
        // Bounded: an animation asks for every frame until it ends.
        for _ in 0..FOLLOW_UPS {
            if !wants_more {
                break;
            }
            wants_more = self.one_frame(Vec::new(), draw);
        }
    }

    /// Runs one frame; whether egui asked for the next one at once.
    fn one_frame(
        &mut self,
        events: Vec<Event>,
        draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>),
    ) -> bool {
        let raw = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(1280.0, 1024.0))),
            time: Some(self.time),
            events,
            ..RawInput::default()
        };
        self.time += 1.0 / 60.0;
        let report = self.session.validate();
        let checked = Some(self.session.generation());
        let mut output = self.ctx.run_ui(raw, |ui| {
            let mut cx = UiCx {
                session: &mut self.session,
                selection: &mut self.selection,
                toasts: &mut self.toasts,
                gestures: &mut self.gestures,
                requests: &mut self.requests,
                report: &report,
                checked,
            };
            draw(ui, &mut cx);
        });
        // No renderer: the font atlas's uploads are dropped, as egui asks.
        output.textures_delta.clear();
        self.painted.clear();
        for ClippedShape { clip_rect, shape } in &output.shapes {
            collect(shape, *clip_rect, &mut self.painted);
        }
        output
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .is_some_and(|v| v.repaint_delay.is_zero())
    }

    pub fn frame(&mut self, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        self.frame_with(Vec::new(), draw);
    }

    /// Runs frames without input, so that grids and new areas (laid out from the previous
    /// frame's sizes, a grid column growing a little each frame) have settled before the
    /// test measures where things are.
    pub fn settle(&mut self, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        for _ in 0..10 {
            self.frame(draw);
        }
    }

    /// Whether some painted text contains `needle`.
    pub fn shows(&self, needle: &str) -> bool {
        self.painted.iter().any(|p| p.text.contains(needle))
    }

    /// The rect of the topmost text exactly `text` (the last painted: popups come last).
    pub fn text_rect(&self, text: &str) -> Rect {
        self.rect_where(text, |p| p == text)
    }

    /// The rect of the topmost text that starts with `prefix` (a row of several parts).
    pub fn text_rect_starting(&self, prefix: &str) -> Rect {
        self.rect_where(prefix, |p| p.starts_with(prefix))
    }

    fn rect_where(&self, what: &str, matches: impl Fn(&str) -> bool) -> Rect {
        match self.painted.iter().rev().find(|p| matches(&p.text)) {
            Some(p) => p.rect,
            None => panic!(
                "no text {what:?} painted; painted: {:?}",
                self.painted.iter().map(|p| &p.text).collect::<Vec<_>>()
            ),
        }
    }

    /// The rect of the text `text` on the same row as a text `row` (a grid row).
    pub fn text_rect_in_row(&self, text: &str, row: &str) -> Rect {
        let rows: Vec<Rect> = self
            .painted
            .iter()
            .filter(|p| p.text == row)
            .map(|p| p.rect)
            .collect();
        let on_a_row = |r: &Rect| {
            rows.iter()
                .any(|row| r.center().y > row.top() && r.center().y < row.bottom())
        };
        match self
            .painted
            .iter()
            .find(|p| p.text == text && on_a_row(&p.rect))
        {
            Some(p) => p.rect,
            None => panic!("no text {text:?} on the row of {row:?} ({rows:?})"),
        }
    }

    /// Clicks at `pos`: a move, a press and a release, each in its own frame, then a frame
    /// without input.
    pub fn click_at(&mut self, pos: Pos2, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        let button = |pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        self.frame_with(vec![Event::PointerMoved(pos)], draw);
        self.frame_with(vec![button(true)], draw);
        self.frame_with(vec![button(false)], draw);
        self.frame_with(Vec::new(), draw);
        // Apart in time, so that two clicks at one place are never a double click.
        self.time += 1.0;
    }

    /// Drags from `from` by `delta` in `steps` moves, a frame each, then releases.
    pub fn drag(
        &mut self,
        from: Pos2,
        delta: egui::Vec2,
        steps: usize,
        draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>),
    ) {
        let button = |pos, pressed| Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        self.frame_with(vec![Event::PointerMoved(from)], draw);
        self.frame_with(vec![button(from, true)], draw);
        let mut at = from;
        for i in 1..=steps {
            at = from + delta * (i as f32 / steps as f32);
            self.frame_with(vec![Event::PointerMoved(at)], draw);
        }
        self.frame_with(vec![button(at, false)], draw);
    }

    /// Clicks the topmost text exactly `text`, as painted in the last frame.
    pub fn click_text(&mut self, text: &str, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        let pos = self.text_rect(text).center();
        self.click_at(pos, draw);
    }

    /// Clicks the widget with this id, where it was in the last frame.
    pub fn click_id(&mut self, id: Id, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        let Some(r) = self.ctx.read_response(id) else {
            panic!("no widget {id:?} in the last frame");
        };
        self.click_at(r.rect.center(), draw);
    }

    /// Types `text` (into the focused widget) in one frame.
    pub fn type_text(&mut self, text: &str, draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>)) {
        self.frame_with(vec![Event::Text(text.to_owned())], draw);
    }

    /// Presses and releases a key in one frame.
    pub fn key(
        &mut self,
        key: Key,
        modifiers: Modifiers,
        draw: &mut impl FnMut(&mut egui::Ui, &mut UiCx<'_>),
    ) {
        let event = |pressed| Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers,
        };
        self.frame_with(vec![event(true), event(false)], draw);
    }

    /// Whether the widget with this id has keyboard focus.
    pub fn has_focus(&self, id: Id) -> bool {
        self.ctx.memory(|m| m.has_focus(id))
    }
}
