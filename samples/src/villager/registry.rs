//! The villager's host node types: declarations (for the manifest and the editor's
//! palette) and factories.

use arbor_runtime::{Args, NodeType, ParamKind, ParamSpec, Registry};
use serde_json::json;

use super::alive::Alive;
use super::chore::Chore;
use super::feel::Feel;
use super::need::Need;
use super::walk_to::WalkTo;
use super::world::VillagerWorld;
use super::zone::ZoneColor;

/// The `Feel*` threshold a tree gets when it does not set `below`.
fn default_threshold(need: Need) -> f64 {
    match need {
        Need::Mood => 30.0,
        Need::Food | Need::Water => 50.0,
        Need::Energy => 40.0,
        Need::Money => 35.0,
    }
}

fn level(args: &Args, name: &str) -> Result<f64, String> {
    let value = args.f64(name)?;
    if (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!("`{name}` must be between 0 and 100; found {value}"))
    }
}

/// Built-in node types plus the villager's conditions and actions.
pub fn registry() -> Registry<VillagerWorld> {
    let mut registry = Registry::new();
    for need in Need::ALL {
        let description = format!(
            "Succeeds while the villager's {} is below `below` (0-100); fails otherwise, and \
             always for a dead villager.",
            need.name()
        );
        registry.register(
            NodeType::condition(need.feel_node(), &description).param(
                ParamSpec::new(
                    "below",
                    ParamKind::Float,
                    "The level under which the need is felt.",
                )
                .default(json!(default_threshold(need))),
            ),
            move |args| {
                Ok(Feel {
                    need,
                    below: level(args, "below")?,
                })
            },
        );
    }
    registry.register(
        NodeType::action(
            "WalkTo",
            "Walks to the nearest zone of a colour; running until inside it. On enter it \
             writes the zone to `target` with a ttl of `give_up` seconds, and fails once \
             that has expired.",
        )
        .param(
            ParamSpec::new("zone", ParamKind::Enum, "The zone's colour.")
                .values(&ZoneColor::ALL.map(ZoneColor::name)),
        )
        .param(
            ParamSpec::new(
                "give_up",
                ParamKind::Float,
                "Seconds before the walk is abandoned.",
            )
            .default(json!(30.0)),
        )
        .param(
            ParamSpec::new(
                "target",
                ParamKind::String,
                "The zone being walked to: written (with the ttl) as the walk starts, read \
                 back each tick. Bound to a string key.",
            )
            .in_out()
            .default(arbor_runtime::binding_json("target")),
        ),
        |args| {
            let zone = args.str("zone")?;
            let zone = ZoneColor::parse(zone).ok_or_else(|| format!("unknown zone `{zone}`"))?;
            let give_up = args.f64("give_up")?;
            if give_up.is_nan() || give_up <= 0.0 {
                return Err(format!("`give_up` must be positive; found {give_up}"));
            }
            Ok(WalkTo {
                zone,
                give_up,
                target: args.port("target")?,
                plan: args.output("target")?,
            })
        },
    );
    for need in Need::ALL {
        let description = format!(
            "Raises the villager's {} while standing in a {} zone; running until it reaches \
             `until`. Fails when not in such a zone{}.",
            need.name(),
            need.zone().name(),
            match need {
                Need::Food | Need::Mood => " or when money runs short",
                Need::Money => " or when energy or mood run short",
                Need::Water | Need::Energy => "",
            }
        );
        registry.register(
            NodeType::action(need.act_node(), &description).param(
                ParamSpec::new("until", ParamKind::Float, "The level at which to stop.")
                    .default(json!(95.0)),
            ),
            move |args| {
                Ok(Chore {
                    need,
                    until: level(args, "until")?,
                })
            },
        );
    }
    registry.register(
        NodeType::action(
            "Alive",
            "Running while every need is above zero; fails once one has reached zero.",
        ),
        |_| Ok(Alive),
    );
    registry
}
