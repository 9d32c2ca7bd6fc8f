//! The preview panel drawn in the whole editor, headlessly (the common harness), for every
//! simulation: the controls, timeline, blackboard, log and each sample's world draw
//! without panicking while the preview plays, and the card duel waits for the user's move.

use crate::common::Harness;
use arbor_editor::preview::{choices, NONE};
use arbor_editor::Session;
use arbor_samples::card_duel::{CardDuel, Move};

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
        let mut h = Harness::unstarted(sample_session(choice.name), 0.1);
        h.frames(20);
        let preview = h.preview();
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
        h.preview_mut().pause();
        h.wait(0.1);
    }
}

#[test]
fn the_duel_waits_for_the_users_move() {
    let mut h = Harness::unstarted(sample_session("card_duel"), 0.5);
    h.frames(10);
    assert!(h.preview().is_playing());
    assert_eq!(h.preview().ticks(), 0, "no round without the player's move");
    let duel = h
        .preview_mut()
        .simulation_mut()
        .and_then(|s| s.as_any_mut().downcast_mut::<CardDuel>())
        .expect("the duel runs");
    assert!(duel.waiting_for_player());
    duel.submit_move(Move::Attack).expect("a legal move");
    h.frame_seconds = 0.25;
    h.frames(4);
    assert_eq!(
        h.preview().ticks(),
        1,
        "one round played, then it waits again"
    );
    let duel = h
        .preview()
        .simulation()
        .and_then(|s| s.as_any().downcast_ref::<CardDuel>())
        .expect("the duel runs");
    assert_eq!(duel.world.round, 1);
    assert!(duel.world.last_ai_move.is_some(), "the tree moved");
}

#[test]
fn the_duels_buttons_stay_put_from_round_to_round() {
    let mut h = Harness::unstarted(sample_session("card_duel"), 0.25);
    h.frames(10);
    let mut seen = Vec::new();
    for round in 1..=4 {
        // The canvas has an Attack node too: the button is the one in the bottom panel.
        let button = h
            .texts()
            .iter()
            .filter(|(t, r)| t == "Attack" && r.top() > crate::common::SCREEN[1] * 0.6)
            .map(|(_, r)| *r)
            .next()
            .expect("the move buttons show");
        seen.push(button);
        h.click(button.center());
        h.frames(6);
        let duel = h
            .preview()
            .simulation()
            .and_then(|s| s.as_any().downcast_ref::<CardDuel>())
            .expect("the duel runs");
        if duel.world.winner.is_some() {
            break;
        }
        assert_eq!(duel.world.round, round, "the click played a round");
    }
    assert!(seen.len() >= 3, "a few rounds were played");
    assert!(
        seen.windows(2).all(|w| w[0] == w[1]),
        "the Attack button moved: {seen:?}"
    );
}

/// An idle editor asks for frames only as its preview ticks, never continuously: playing
/// at 8 ticks per second it asks for the next frame about a tick later, and paused it asks
/// for none sooner than its periodic check of the file on disk.
#[test]
fn an_idle_editor_repaints_only_for_preview_ticks() {
    let path = arbor_samples::trees_dir().join("villager.json");
    let session = arbor_editor::Session::open(&path).expect("the sample opens");
    let mut h = crate::common::Harness::new(session);
    h.preview_mut().set_speed(8.0);
    h.frames(10);
    assert!(h.preview().is_playing(), "the sample plays");
    let tick = std::time::Duration::from_secs_f64(1.0 / 8.0);
    assert!(
        h.repaint_delay > std::time::Duration::ZERO && h.repaint_delay <= tick,
        "playing: the next frame at the next tick, asked {:?}",
        h.repaint_delay
    );
    h.act(arbor_editor::app::Action::PlayPause);
    h.frames(5);
    assert!(!h.preview().is_playing());
    assert!(
        h.repaint_delay >= std::time::Duration::from_millis(500),
        "paused: nothing to draw, asked {:?}",
        h.repaint_delay
    );
}
