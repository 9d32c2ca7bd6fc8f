//! The card duel: both duelists' health bars, potions and states, the round and the winner,
//! and the player's move buttons (the user plays against the tree's AI).
//!
//! Every part keeps its size from round to round (each duelist's column has a fixed width
//! and always the same lines, and the message about whose turn it is has a row of its
//! own), so the move buttons stay under the pointer while the user plays.

use crate::i18n::t;

use crate::words;
use arbor_samples::card_duel::{CardDuel, Duelist, Move, Opponent, Side};
use egui::{vec2, Color32, Sense};

use super::bar;

/// The player's moves offered as buttons.
const MOVES: [Move; 3] = [Move::Attack, Move::Heal, Move::Defend];

/// Returns the reason when a move was refused.
pub fn ui(ui: &mut egui::Ui, duel: &mut CardDuel) -> Option<String> {
    let w = &duel.world;
    ui.horizontal(|ui| {
        duelist_ui(ui, "You", &w.player, w.last_player_move);
        ui.add_space(24.0);
        duelist_ui(ui, "AI", &w.ai, w.last_ai_move);
    });
    ui.add_space(6.0);
    match w.winner {
        Some(Side::Player) => ui.strong(format!("You won in round {}.", w.round)),
        Some(Side::Ai) => ui.strong(format!("The AI won in round {}.", w.round)),
        None => ui.label(format!("Round {}", w.round)),
    };

    let mut refused = None;
    let human = duel.opponent() == Opponent::Human;
    let waiting = duel.waiting_for_player();
    ui.horizontal(|ui| {
        if human {
            for mv in MOVES {
                let why_not = if waiting {
                    duel.world.refuse(Side::Player, mv)
                } else {
                    Some("not your turn".to_owned())
                };
                let button = ui.add_enabled(why_not.is_none(), egui::Button::new(mv.name()));
                let button = match &why_not {
                    Some(why) => button.on_disabled_hover_text(why),
                    None => button,
                };
                if button.clicked() {
                    refused = duel.submit_move(mv).err();
                }
            }
        }
        let mut scripted = !human;
        if ui
            .checkbox(&mut scripted, t("scripted player"))
            .on_hover_text(t("Let a simple script play your side"))
            .changed()
        {
            duel.set_opponent(if scripted {
                Opponent::Scripted
            } else {
                Opponent::Human
            });
        }
    });
    if human {
        if waiting {
            ui.label(t("Your move."));
        } else if duel.world.winner.is_none() {
            ui.weak(t(
                "Move chosen: the round is played on the next tick (Play or Step).",
            ));
        } else {
            ui.label("");
        }
    }
    refused
}

/// A duelist's column: as wide, and as many lines, whatever its state.
const DUELIST_WIDTH: f32 = 200.0;

fn duelist_ui(ui: &mut egui::Ui, who: &str, d: &Duelist, last: Option<Move>) {
    ui.vertical(|ui| {
        ui.set_width(DUELIST_WIDTH);
        ui.strong(who);
        let (rect, _) = ui.allocate_exact_size(vec2(180.0, 14.0), Sense::hover());
        let fill = if d.is_low() {
            Color32::from_rgb(220, 70, 60)
        } else {
            Color32::from_rgb(70, 180, 90)
        };
        let fraction = d.health as f32 / d.max_health.max(1) as f32;
        bar(ui.painter(), rect, fraction, fill);
        ui.label(format!("health {} / {}", d.health, d.max_health));
        let mut state = vec![words::count(d.potions as usize, "potion")];
        if d.buffed {
            state.push("buffed".to_owned());
        }
        if d.defending {
            state.push("defending".to_owned());
        }
        ui.label(state.join(", "));
        ui.weak(format!("last move: {}", last.map_or("—", |mv| mv.name())));
    });
}
