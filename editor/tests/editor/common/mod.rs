//! The one headless harness for the editor's tests: drives the whole editor
//! (`ArborApp::ui`) through an `egui::Context` with synthetic input (pointer, keys, text)
//! and a clock the test controls, no window or GPU. Canvas, panels, preview and remote
//! tests all run the real frame, so what they check is what the user gets.
#![allow(dead_code)]

use arbor_editor::app::{Action, ArborApp, Panels};
use arbor_editor::preview::Preview;
use arbor_editor::Session;
use egui::{Event, Key, Modifiers, PointerButton, Pos2, RawInput, Rect};

pub const SCREEN: [f32; 2] = [1600.0, 1000.0];

pub struct Harness {
    pub app: ArborApp,
    pub ctx: egui::Context,
    events: Vec<Event>,
    modifiers: Modifiers,
    /// The modifiers egui was last told of.
    reported_modifiers: Modifiers,
    time: f64,
    /// Seconds each [`Harness::frame`] advances the clock (1/60 unless set).
    pub frame_seconds: f64,
    pub output: Vec<egui::PlatformOutput>,
    /// Run frames through `frame_guarded` (panics caught, as in the real app) instead of
    /// `ui` (panics fail the test).
    pub guarded: bool,
    /// What the last frame painted.
    pub shapes: Vec<egui::epaint::ClippedShape>,
    /// How soon the last frame asked for the next one (`Duration::MAX`: not at all).
    pub repaint_delay: std::time::Duration,
    /// The window's size ([`SCREEN`] unless set).
    pub screen: [f32; 2],
}

/// A piece of text the last frame painted: what it says, where, and its font size.
#[derive(Clone, Debug)]
pub struct Painted {
    pub text: String,
    pub rect: Rect,
    pub size: f32,
}

impl Harness {
    /// The editor on `session`, after a few frames (fonts, layout, the first "frame all").
    pub fn new(session: Session) -> Harness {
        let mut h = Harness::unstarted(session, 1.0 / 60.0);
        h.frames(3);
        h
    }

    /// The editor on `session` before its first frame, with a clock of `frame_seconds` per
    /// frame: for tests that count what happens from the first frame on (the preview's
    /// ticks).
    pub fn unstarted(session: Session, frame_seconds: f64) -> Harness {
        let mut app = ArborApp::new(session);
        app.set_native_dialogs(false);
        // Every panel open, so the tests of a panel find it; the default layout has tests
        // of its own (window_layout.rs).
        app.prefs_mut().panels = Panels::all();
        Harness {
            app,
            ctx: egui::Context::default(),
            events: Vec::new(),
            modifiers: Modifiers::NONE,
            reported_modifiers: Modifiers::NONE,
            time: 0.0,
            frame_seconds,
            output: Vec::new(),
            guarded: false,
            shapes: Vec::new(),
            repaint_delay: std::time::Duration::MAX,
            screen: SCREEN,
        }
    }

    pub fn frame(&mut self) {
        self.time += self.frame_seconds;
        self.run_frame();
    }

    /// The active tab's preview.
    pub fn preview(&self) -> &Preview {
        self.app.tab().preview()
    }

    pub fn preview_mut(&mut self) -> &mut Preview {
        self.app.tab_mut().preview_mut()
    }

    /// Does what a shortcut or menu item does, outside a frame.
    pub fn act(&mut self, action: Action) {
        let ctx = self.ctx.clone();
        self.app.act(&ctx, action);
    }

    /// Lets `seconds` of app time pass (no frames meanwhile, as when the user is idle),
    /// then runs one frame.
    pub fn wait(&mut self, seconds: f64) {
        self.time += seconds;
        self.run_frame();
    }

    /// One guarded frame (as the real app runs) in which a widget panics with `message`
    /// after the editor has drawn.
    pub fn panicking_frame(&mut self, message: &str) {
        self.time += self.frame_seconds;
        let message = message.to_owned();
        self.run_with(move |app, ui| {
            app.frame_guarded_with(ui, |ui| {
                // Inside a `Ui`, as a widget's bug would be: egui is mid-layout.
                egui::Area::new(egui::Id::new("injected panic")).show(ui.ctx(), |ui| {
                    ui.label("about to panic");
                    panic!("{message}");
                });
            })
        });
    }

    fn run_frame(&mut self) {
        let guarded = self.guarded;
        self.run_with(|app, ui| {
            if guarded {
                app.frame_guarded(ui);
            } else {
                app.ui(ui);
            }
        });
    }

    fn run_with(&mut self, mut frame: impl FnMut(&mut ArborApp, &mut egui::Ui)) {
        // The keys held down come first, and only when they change, as egui-winit reports
        // them: any event makes egui ask for the next frame at once.
        let mut events = Vec::new();
        if self.modifiers != self.reported_modifiers {
            events.push(Event::ModifiersChanged(self.modifiers));
            self.reported_modifiers = self.modifiers;
        }
        events.append(&mut self.events);
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(
                Pos2::ZERO,
                egui::vec2(self.screen[0], self.screen[1]),
            )),
            events,
            time: Some(self.time),
            focused: true,
            ..Default::default()
        };
        let app = &mut self.app;
        let mut out = self.ctx.run_ui(input, |ui| frame(app, ui));
        // No renderer: the font atlas's uploads are dropped, as egui asks.
        out.textures_delta.clear();
        self.output.push(out.platform_output);
        self.shapes = out.shapes;
        self.repaint_delay = out
            .viewport_output
            .get(&egui::ViewportId::ROOT)
            .map_or(std::time::Duration::MAX, |v| v.repaint_delay);
    }

    /// Every text the last frame painted (inside its clip rect).
    pub fn painted(&self) -> Vec<Painted> {
        fn walk(shape: &egui::Shape, clip: Rect, out: &mut Vec<Painted>) {
            match shape {
                egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, clip, out)),
                egui::Shape::Text(t) => {
                    let rect = t.galley.rect.translate(t.pos.to_vec2());
                    if clip.intersects(rect) && !t.galley.job.text.trim().is_empty() {
                        let size = t
                            .galley
                            .job
                            .sections
                            .iter()
                            .map(|s| s.format.font_id.size)
                            .fold(f32::MAX, f32::min);
                        out.push(Painted {
                            text: t.galley.job.text.clone(),
                            rect,
                            size,
                        });
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        for c in &self.shapes {
            walk(&c.shape, c.clip_rect, &mut out);
        }
        out
    }

    /// The first painted text equal to `text`, whose rect satisfies `filter`.
    pub fn text_rect(&self, text: &str, filter: impl Fn(Rect) -> bool) -> Option<Rect> {
        self.painted()
            .into_iter()
            .find(|p| p.text == text && filter(p.rect))
            .map(|p| p.rect)
    }

    /// The texts the last frame painted, with where they are.
    pub fn texts(&self) -> Vec<(String, Rect)> {
        self.painted()
            .into_iter()
            .map(|p| (p.text, p.rect))
            .collect()
    }

    /// Whether some text painted in the last frame contains `needle`.
    pub fn shows(&self, needle: &str) -> bool {
        self.painted().iter().any(|p| p.text.contains(needle))
    }

    /// Where the last-painted text exactly `text` is (popups are painted last).
    pub fn last_text_rect(&self, text: &str) -> Option<Rect> {
        self.painted()
            .into_iter()
            .rev()
            .find(|p| p.text == text)
            .map(|p| p.rect)
    }

    pub fn frames(&mut self, n: usize) {
        for _ in 0..n {
            self.frame();
        }
    }

    pub fn move_to(&mut self, pos: Pos2) {
        self.events.push(Event::PointerMoved(pos));
        self.frame();
    }

    pub fn button(&mut self, pos: Pos2, button: PointerButton, pressed: bool) {
        self.events.push(Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: self.modifiers,
        });
        self.frame();
    }

    pub fn click(&mut self, pos: Pos2) {
        self.move_to(pos);
        self.button(pos, PointerButton::Primary, true);
        self.button(pos, PointerButton::Primary, false);
    }

    /// Presses at `from`, moves in small steps to `to`, releases there.
    pub fn drag(&mut self, from: Pos2, to: Pos2) {
        self.move_to(from);
        self.button(from, PointerButton::Primary, true);
        let steps = 12;
        for i in 1..=steps {
            let t = i as f32 / steps as f32;
            self.move_to(from + (to - from) * t);
        }
        self.button(to, PointerButton::Primary, false);
        self.frame();
    }

    pub fn key(&mut self, key: Key, modifiers: Modifiers) {
        self.modifiers = modifiers;
        self.events.push(Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers,
        });
        self.frame();
        self.events.push(Event::Key {
            key,
            physical_key: None,
            pressed: false,
            repeat: false,
            modifiers,
        });
        self.modifiers = Modifiers::NONE;
        self.frame();
    }

    pub fn type_text(&mut self, text: &str) {
        self.events.push(Event::Text(text.to_owned()));
        self.frame();
    }

    pub fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Text the app put on the clipboard in any frame so far (the last one).
    pub fn copied(&self) -> Option<String> {
        self.output
            .iter()
            .flat_map(|o| &o.commands)
            .rev()
            .find_map(|c| match c {
                egui::OutputCommand::CopyText(text) if !text.is_empty() => Some(text.clone()),
                _ => None,
            })
    }
}

pub const CTRL: Modifiers = Modifiers::COMMAND;
pub const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};

/// A session with an unsaved document holding the given nodes at the given positions;
/// the first is the root.
pub fn session_with(nodes: &[(&str, [f64; 2])]) -> (Session, Vec<String>) {
    let mut session = Session::default();
    let mut guids = Vec::new();
    for (kind, pos) in nodes {
        guids.push(session.add_node(kind, *pos).expect("node added"));
    }
    if let Some(root) = guids.first() {
        let cmd =
            arbor_editor::commands::SetRoot::new(session.document(), Some(root)).expect("root");
        session.apply(cmd).expect("root set");
    }
    session.mark_saved();
    (session, guids)
}

/// Whether every character of `text` is drawn with a glyph of its own rather than egui's
/// replacement box. (egui's own `has_glyphs` also answers no for the characters of the font
/// that holds the box, the emoji font, so it cannot tell.)
pub fn has_glyphs(ctx: &egui::Context, font: &egui::FontId, text: &str) -> bool {
    let layout = |t: &str| {
        ctx.fonts_mut(|f| f.layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE))
    };
    let replacement = layout("◻");
    let Some(missing) = replacement.rows.first().and_then(|r| r.glyphs.first()) else {
        return false;
    };
    layout(text)
        .rows
        .iter()
        .flat_map(|r| r.glyphs.iter())
        .all(|g| g.chr.is_whitespace() || g.uv_rect != missing.uv_rect)
}
