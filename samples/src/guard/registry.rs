//! The guard's host node types: declarations (for the manifest and the editor's palette)
//! and factories.

use arbor_runtime::{binding_json, NodeType, ParamKind, ParamSpec, Registry, Scalar, ValueType};

use super::chase::{CatchEnemy, ChaseEnemy};
use super::patrol::PatrolTo;
use super::world::GuardWorld;

/// Built-in node types plus the guard's actions.
pub fn registry() -> Registry<GuardWorld> {
    let mut registry = Registry::new();
    registry.register_stateful_saved(
        NodeType::action(
            "PatrolTo",
            "Walks to the waypoint whose index `waypoint` reads; running until there, then \
             writes the next index and succeeds.",
        )
        .param(
            ParamSpec::new(
                "waypoint",
                ParamKind::Int,
                "The index of the next waypoint: read, then advanced. Bound to an int key.",
            )
            .in_out()
            .default(binding_json("waypoint")),
        ),
        |args| {
            Ok(PatrolTo {
                waypoint: args.port("waypoint")?,
                next: args.output("waypoint")?,
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
            ParamSpec::typed(
                "last_seen",
                ValueType::List(Scalar::Float),
                "Where to run: the last sighting as [x, y].",
            )
            .default(binding_json("last_seen")),
        ),
        |args| {
            Ok(ChaseEnemy {
                last_seen: args.port("last_seen")?,
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
