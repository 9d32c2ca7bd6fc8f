//! The guard's host node types: declarations (for the manifest and the editor's palette)
//! and factories.

use arbor_runtime::{NodeType, ParamKind, ParamSpec, Registry};
use serde_json::json;

use super::chase::{CatchEnemy, ChaseEnemy};
use super::patrol::PatrolTo;
use super::world::GuardWorld;

/// Built-in node types plus the guard's actions.
pub fn registry() -> Registry<GuardWorld> {
    let mut registry = Registry::new();
    registry.register(
        NodeType::action(
            "PatrolTo",
            "Walks to the waypoint whose index is in `waypoint`; running until there, then \
             advances the index and succeeds.",
        )
        .param(
            ParamSpec::new(
                "waypoint",
                ParamKind::Key,
                "An int key: the index of the next waypoint.",
            )
            .default(json!("waypoint")),
        ),
        |args| {
            Ok(PatrolTo {
                waypoint: args.key("waypoint")?,
            })
        },
    );
    registry.register(
        NodeType::action(
            "ChaseEnemy",
            "Runs to where the intruder was last seen; succeeds when it can be caught, keeps \
             searching there otherwise. Fails without a sighting.",
        )
        .param(
            ParamSpec::new(
                "last_seen",
                ParamKind::Key,
                "A json key holding the last sighting as [x, y].",
            )
            .default(json!("last_seen")),
        ),
        |args| {
            Ok(ChaseEnemy {
                last_seen: args.key("last_seen")?,
            })
        },
    );
    registry.register(
        NodeType::action(
            "CatchEnemy",
            "Grabs the intruder if it is visible and within reach (a new one then sneaks in); \
             fails otherwise.",
        ),
        |_| Ok(CatchEnemy),
    );
    registry
}
