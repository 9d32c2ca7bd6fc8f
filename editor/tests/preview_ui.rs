//! The preview panel drawn headlessly through an `egui::Context`, for every simulation:
//! the controls, timeline, blackboard, log and each sample's world draw without panicking
//! while the preview plays, and the card duel waits for the user's move.

use arbor_editor::document::Selection;
use arbor_editor::preview::{choices, Preview, NONE};
use arbor_editor::view::{Gestures, Request, Toasts, UiCx, View as _};
use arbor_editor::Session;
use arbor_runtime::Report;
use arbor_samples::card_duel::{CardDuel, Move};

struct Frame {
    session: Session,
    selection: Selection,
    toasts: Toasts,
    gestures: Gestures,
    requests: Vec<Request>,
    report: Report,
}

impl Frame {
    fn new(session: Session) -> Frame {
        Frame {
            session,
            selection: Selection::default(),
            toasts: Toasts::default(),
            gestures: Gestures::default(),
            requests: Vec::new(),
            report: Report::default(),
        }
    }

    /// One frame of the app's calls: `update` before drawing, then the bottom panel.
    fn run(&mut self, ctx: &egui::Context, preview: &mut Preview, time: f64) {
        let input = egui::RawInput {
            time: Some(time),
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1400.0, 900.0),
            )),
            ..Default::default()
        };
        let _ = ctx.run(input, |ctx| {
            let mut cx = UiCx {
                session: &mut self.session,
                selection: &mut self.selection,
                toasts: &mut self.toasts,
                gestures: &mut self.gestures,
                requests: &mut self.requests,
                report: &self.report,
            };
            preview.update(&mut cx, time);
            egui::TopBottomPanel::bottom("preview")
                .resizable(true)
                .default_height(260.0)
                .show(ctx, |ui| preview.ui(ui, &mut cx));
        });
    }
}

fn sample_session(name: &str) -> Session {
    if name == NONE {
        return Session::default();
    }
    let path = arbor_samples::trees_dir().join(format!("{name}.json"));
    Session::open(&path).expect("the sample opens")
}

#[test]
fn every_world_draws_while_playing() {
    for choice in choices() {
        let ctx = egui::Context::default();
        let mut frame = Frame::new(sample_session(choice.name));
        let mut preview = Preview::default();
        for i in 0..20 {
            frame.run(&ctx, &mut preview, f64::from(i) * 0.1);
        }
        assert_eq!(preview.sample(), Some(choice.name));
        if choice.name == NONE {
            // An empty document: nothing to run, and the panel says so.
            assert!(preview.note().is_some_and(|n| n.contains("empty")));
            assert_eq!(preview.ticks(), 0);
            continue;
        }
        assert!(preview.problems().is_empty(), "{:?}", preview.problems());
        if choice.name != "card_duel" {
            assert!(preview.ticks() > 0, "{} ticked", choice.name);
        }
        // Paused, the blackboard becomes editable: draw that too.
        preview.pause();
        frame.run(&ctx, &mut preview, 2.0);
    }
}

#[test]
fn the_duel_waits_for_the_users_move() {
    let ctx = egui::Context::default();
    let mut frame = Frame::new(sample_session("card_duel"));
    let mut preview = Preview::default();
    for i in 0..10 {
        frame.run(&ctx, &mut preview, f64::from(i) * 0.5);
    }
    assert!(preview.is_playing());
    assert_eq!(preview.ticks(), 0, "no round without the player's move");
    let duel = preview
        .simulation_mut()
        .and_then(|s| s.as_any_mut().downcast_mut::<CardDuel>())
        .expect("the duel runs");
    assert!(duel.waiting_for_player());
    duel.submit_move(Move::Attack).expect("a legal move");
    for i in 0..4 {
        frame.run(&ctx, &mut preview, 5.0 + f64::from(i) * 0.25);
    }
    assert_eq!(preview.ticks(), 1, "one round played, then it waits again");
    let duel = preview
        .simulation()
        .and_then(|s| s.as_any().downcast_ref::<CardDuel>())
        .expect("the duel runs");
    assert_eq!(duel.world.round, 1);
    assert!(duel.world.last_ai_move.is_some(), "the tree moved");
}
