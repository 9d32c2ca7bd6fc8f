//! The soldier tree: a game-shaped tree whose positions are blackboard keys, shared by
//! `benches/soldier.rs` (criterion), `examples/soldier_ticks.rs` (callgrind counts) and
//! `tests/engine/soldier.rs` (no allocation per agent-tick).
//!
//! A reactive Sequence senses every tick (where the enemy is, whether it is near, whether
//! the soldier is hurt), then a Selector picks, by priority, flee (while hurt), chase and
//! attack (while the enemy is near), or patrol between four waypoints; Condition
//! decorators with aborts (`LowerPriority` for flee, `Both` for chase) switch between them
//! mid-walk. Built twice,
//! identical but for how positions are kept: `vec2` keys and ports, or `list<float>` keys
//! read and written as JSON arrays (`Value` ports), the form used before `vec2` existed.
#![allow(dead_code)] // each user takes what it needs

use std::sync::Arc;

use arbor_runtime::builder::{action, bind, decorator, sel, seq, TreeBuilder};
use arbor_runtime::{
    Action, ActionCtx, Args, CompiledTree, InPort, NodeType, OutPort, ParamKind, ParamSpec,
    Registry, Scalar, Status, Value, ValueType, Vec2,
};
use serde_json::json;

/// How the tree keeps positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// `vec2` keys: unboxed, written without allocating.
    Vec2,
    /// `list<float>` keys: a JSON array per write.
    List,
}

impl Positions {
    fn kind(self) -> ParamKind {
        match self {
            Positions::Vec2 => ParamKind::Vec2,
            Positions::List => ParamKind::List(Scalar::Float),
        }
    }

    fn value_type(self) -> ValueType {
        match self {
            Positions::Vec2 => ValueType::Vec2,
            Positions::List => ValueType::List(Scalar::Float),
        }
    }
}

/// The host's per-soldier data: health and what the tree did, for tests.
#[derive(Clone, Debug, Default)]
pub struct Soldier {
    pub hp: f64,
    pub hurt: bool,
    pub clock: f64,
    pub waypoint: usize,
    pub attacks: u64,
    pub fled: u64,
    pub patrolled: u64,
}

impl Soldier {
    pub fn new() -> Soldier {
        Soldier {
            hp: 100.0,
            ..Soldier::default()
        }
    }
}

const WAYPOINTS: [Vec2; 4] = [
    Vec2::new(-10.0, -10.0),
    Vec2::new(10.0, -10.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(-10.0, 10.0),
];

enum PosIn {
    Vec2(InPort<Vec2>),
    List(InPort<Value>),
}

enum PosOut {
    Vec2(OutPort<Vec2>),
    List(OutPort<Value>),
}

impl PosIn {
    fn new(args: &Args, name: &str, positions: Positions) -> Result<PosIn, String> {
        Ok(match positions {
            Positions::Vec2 => PosIn::Vec2(args.port(name)?),
            Positions::List => PosIn::List(args.port(name)?),
        })
    }

    fn read<C>(&self, cx: &ActionCtx<'_, C>) -> Option<Vec2> {
        match self {
            PosIn::Vec2(port) => cx.get(port),
            PosIn::List(port) => match cx.get(port)? {
                Value::Json(json) => match json.as_array()?.as_slice() {
                    [x, y] => Some(Vec2::new(x.as_f64()?, y.as_f64()?)),
                    _ => None,
                },
                _ => None,
            },
        }
    }
}

impl PosOut {
    fn new(args: &Args, name: &str, positions: Positions) -> Result<PosOut, String> {
        Ok(match positions {
            Positions::Vec2 => PosOut::Vec2(args.output(name)?),
            Positions::List => PosOut::List(args.output(name)?),
        })
    }

    fn write<C>(&self, cx: &mut ActionCtx<'_, C>, v: Vec2) {
        match self {
            PosOut::Vec2(port) => cx.set(port, v),
            PosOut::List(port) => {
                let list = Value::Json(Arc::new(json!([v.x, v.y])));
                // The key's type was checked at load; a list of two floats fits it.
                let _ = cx.set_value(port, list);
            }
        }
    }
}

/// Where the enemy is at tick `t`: circling the patrol square, slower than the soldier
/// runs (0.42 per tick).
fn enemy_at(t: f64) -> Vec2 {
    let angle = t * 0.03;
    Vec2::new(14.0 * angle.cos(), 14.0 * angle.sin())
}

struct Sense {
    pos: PosIn,
    enemy: PosOut,
    near: OutPort<bool>,
    hurt: OutPort<bool>,
}

impl Action<Soldier> for Sense {
    fn tick(&self, cx: &mut ActionCtx<'_, Soldier>) -> Status {
        let Some(pos) = self.pos.read(cx) else {
            return Status::Failure;
        };
        let me = &mut *cx.agent;
        me.clock += 1.0;
        let enemy = enemy_at(me.clock);
        // Hurt below 30, healed at 80: between them the soldier keeps doing what it does.
        if me.hp < 30.0 {
            me.hurt = true;
        } else if me.hp >= 80.0 {
            me.hurt = false;
        }
        let hurt = me.hurt;
        self.enemy.write(cx, enemy);
        cx.set(&self.near, pos.distance(enemy) < 6.0);
        cx.set(&self.hurt, hurt);
        Status::Success
    }
}

/// Walks `speed` per tick toward `target` (or away from it, fleeing), writing `pos`.
struct Walk {
    target: PosIn,
    pos_in: PosIn,
    pos_out: PosOut,
    speed: f64,
    flee: bool,
}

impl Action<Soldier> for Walk {
    fn tick(&self, cx: &mut ActionCtx<'_, Soldier>) -> Status {
        let (Some(target), Some(pos)) = (self.target.read(cx), self.pos_in.read(cx)) else {
            return Status::Failure;
        };
        let to_target = target - pos;
        if self.flee {
            let me = &mut *cx.agent;
            me.fled += 1;
            me.hp = (me.hp + 2.0).min(100.0);
            let hp = me.hp;
            self.pos_out
                .write(cx, pos - to_target.normalized() * self.speed);
            return if hp >= 80.0 {
                Status::Success
            } else {
                Status::Running
            };
        }
        if to_target.length() <= self.speed {
            self.pos_out.write(cx, target);
            Status::Success
        } else {
            self.pos_out
                .write(cx, pos + to_target.normalized() * self.speed);
            Status::Running
        }
    }
}

struct NextWaypoint {
    waypoint: PosOut,
}

impl Action<Soldier> for NextWaypoint {
    fn tick(&self, cx: &mut ActionCtx<'_, Soldier>) -> Status {
        let me = &mut *cx.agent;
        me.waypoint = (me.waypoint + 1) % WAYPOINTS.len();
        me.patrolled += 1;
        let next = WAYPOINTS[me.waypoint];
        self.waypoint.write(cx, next);
        Status::Success
    }
}

/// The soldier's host nodes, with position ports of the given kind.
pub fn registry(positions: Positions) -> Registry<Soldier> {
    let kind = positions.kind();
    let mut registry = Registry::<Soldier>::new();
    registry.register(
        NodeType::action("Sense", "Looks for the enemy.")
            .param(ParamSpec::new("pos", kind, "Where the soldier is."))
            .param(ParamSpec::new("enemy", kind, "Where the enemy is.").output())
            .param(ParamSpec::new("near", ParamKind::Bool, "Enemy within 6.").output())
            .param(ParamSpec::new("hurt", ParamKind::Bool, "Below 30 hp until 80.").output()),
        move |args: &Args| {
            Ok(Sense {
                pos: PosIn::new(args, "pos", positions)?,
                enemy: PosOut::new(args, "enemy", positions)?,
                near: args.output("near")?,
                hurt: args.output("hurt")?,
            })
        },
    );
    for (name, flee) in [("MoveTo", false), ("FleeFrom", true)] {
        registry.register(
            NodeType::action(name, "Walks toward (or away from) a point.")
                .param(ParamSpec::new("target", kind, "The point."))
                .param(ParamSpec::new("pos", kind, "Where the soldier is.").in_out())
                .param(ParamSpec::new("speed", ParamKind::Float, "Per tick.").literal()),
            move |args: &Args| {
                Ok(Walk {
                    target: PosIn::new(args, "target", positions)?,
                    pos_in: PosIn::new(args, "pos", positions)?,
                    pos_out: PosOut::new(args, "pos", positions)?,
                    speed: args.f64("speed")?,
                    flee,
                })
            },
        );
    }
    registry.register(
        NodeType::action("NextWaypoint", "Picks the next patrol point.")
            .param(ParamSpec::new("waypoint", kind, "The point.").output()),
        move |args: &Args| {
            Ok(NextWaypoint {
                waypoint: PosOut::new(args, "waypoint", positions)?,
            })
        },
    );
    registry.action(
        NodeType::action("Attack", "Strikes; the enemy strikes back."),
        |cx| {
            cx.agent.attacks += 1;
            cx.agent.hp -= 9.0;
            Status::Success
        },
    );
    registry
}

/// The soldier tree, with positions of the given kind.
pub fn tree(positions: Positions) -> TreeBuilder {
    soldier(positions, None)
}

/// The soldier tree whose patrol rests `seconds` at each waypoint (a Wait after the walk):
/// the tree `examples/reload_soldiers.rs` edits.
pub fn resting(positions: Positions, seconds: f64) -> TreeBuilder {
    soldier(positions, Some(seconds))
}

fn soldier(positions: Positions, rest: Option<f64>) -> TreeBuilder {
    let ty = positions.value_type();
    let guarded = |key: &str, abort: &str| {
        decorator("Condition")
            .param("key", key)
            .param("equals", true)
            .param("abort", abort)
    };
    let walk = |kind: &str, name: &str, target: &str, speed: f64| {
        action(kind)
            .name(name)
            .param("target", bind(target))
            .param("pos", bind("pos"))
            .param("speed", speed)
    };
    TreeBuilder::new("soldier")
        .key("pos", ty, json!([-10.0, -10.0]))
        .key_unset("enemy", ty)
        .key_unset("waypoint", ty)
        .key("near", ValueType::Bool, false)
        .key("hurt", ValueType::Bool, false)
        .root(
            seq([
                action("Sense")
                    .param("pos", bind("pos"))
                    .param("enemy", bind("enemy"))
                    .param("near", bind("near"))
                    .param("hurt", bind("hurt")),
                sel([
                    seq([walk("FleeFrom", "run away", "enemy", 0.6)])
                        .name("flee")
                        .decorator(guarded("hurt", "LowerPriority")),
                    seq([walk("MoveTo", "close in", "enemy", 0.8), action("Attack")])
                        .name("chase")
                        .decorator(guarded("near", "Both")),
                    seq([
                        action("NextWaypoint").param("waypoint", bind("waypoint")),
                        walk("MoveTo", "walk", "waypoint", 0.5),
                    ]
                    .into_iter()
                    .chain(rest.map(|s| action("Wait").name("rest").param("seconds", s))))
                    .name("patrol"),
                ])
                .name("mind"),
            ])
            .name("soldier")
            .param("dynamic", true),
        )
}

/// The soldier tree, loaded.
pub fn compile(positions: Positions) -> Arc<CompiledTree<Soldier>> {
    Arc::new(
        tree(positions)
            .build(&registry(positions))
            .expect("the soldier tree loads"),
    )
}

/// The soldier tree with `vec2` positions compiled to Rust (`arbor_runtime::codegen`): the
/// checked-in output of `arbor codegen` for `generated/soldier.json`, kept equal to it by
/// tests/engine/generated.rs. Every node is emitted as code.
pub mod generated {
    include!("generated/soldier.rs");
}
