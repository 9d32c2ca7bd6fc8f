//! The card duel's host node types: declarations (for the manifest and the editor's
//! palette) and factories.

use arbor_runtime::{NodeType, ParamKind, ParamSpec, Registry};
use serde_json::json;

use super::ai_nodes::{side, Buffed, HealthLow, Play};
use super::duel::DuelWorld;
use super::moves::Move;

fn who() -> ParamSpec {
    ParamSpec::new(
        "who",
        ParamKind::Enum,
        "Whose state: self (the AI) or opponent (the player).",
    )
    .values(&["self", "opponent"])
    .default(json!("self"))
}

/// Built-in node types plus the duel AI's conditions and moves.
pub fn registry() -> Registry<DuelWorld> {
    let mut registry = Registry::new();
    registry.register(
        NodeType::condition(
            "HealthLow",
            "Succeeds when the duelist's health is at or below their low-health threshold.",
        )
        .param(who()),
        |args| {
            Ok(HealthLow {
                who: side(args.str("who")?)?,
            })
        },
    );
    registry.register(
        NodeType::condition(
            "Buffed",
            "Succeeds when the duelist's next attack is buffed (does double damage).",
        )
        .param(who()),
        |args| {
            Ok(Buffed {
                who: side(args.str("who")?)?,
            })
        },
    );
    for mv in Move::ALL {
        let what = match mv {
            Move::Attack => {
                "Attacks the player: 10-14 damage, doubled when buffed, halved \
                             when the player defends."
            }
            Move::Heal => {
                "Heals 20 health with a potion; fails with no potions left or at \
                           full health."
            }
            Move::Defend => "Defends: the player's next attack does half damage.",
            Move::Buff => {
                "Buffs the AI's next attack to double damage; fails if already \
                           buffed."
            }
        };
        let description = format!("{what} One move per turn: fails if the AI already moved.");
        registry.register(NodeType::action(mv.name(), &description), move |_| {
            Ok(Play { mv })
        });
    }
    registry
}
