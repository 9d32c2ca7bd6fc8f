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
//! The host nodes are declared as a game declares its own: one `NodeDecl` each, ports and
//! code together.
#![allow(dead_code)] // each user takes what it needs

use std::sync::Arc;

use arbor_runtime::builder::{action, bind, decorator, sel, seq, TreeBuilder};
use arbor_runtime::{
    CompiledTree, HostNode, InOut, Input, NodeCtx, NodeDecl, Output, Registry, Scalar, Status,
    Value, ValueType, Vec2,
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

/// A position input: a `vec2` port, or a JSON one for `list<float>` keys.
enum PosIn {
    Vec2(Input<Vec2>),
    List(Input<Value>),
}

/// A position output.
enum PosOut {
    Vec2(Output<Vec2>),
    List(Output<Value>),
}

/// A position the node reads and writes through one key.
enum PosInOut {
    Vec2(InOut<Vec2>),
    List(InOut<Value>),
}

/// The type of `list<float>` positions.
const LIST: ValueType = ValueType::List(Scalar::Float);

/// A `list<float>` value read as a position.
fn from_list(value: &Value) -> Option<Vec2> {
    match value {
        Value::Json(json) => match json.as_array()?.as_slice() {
            [x, y] => Some(Vec2::new(x.as_f64()?, y.as_f64()?)),
            _ => None,
        },
        _ => None,
    }
}

/// A position as a `list<float>` value: a new JSON array (what `vec2` avoids).
fn to_list(v: Vec2) -> Value {
    Value::Json(Arc::new(json!([v.x, v.y])))
}

impl PosIn {
    fn declare(decl: &mut NodeDecl<Soldier>, name: &str, doc: &str, positions: Positions) -> PosIn {
        match positions {
            Positions::Vec2 => PosIn::Vec2(decl.input::<Vec2>(name).doc(doc).required()),
            Positions::List => {
                PosIn::List(decl.input::<Value>(name).doc(doc).typed(LIST).required())
            }
        }
    }

    fn read(&self, cx: &NodeCtx<'_, Soldier>) -> Option<Vec2> {
        match self {
            PosIn::Vec2(port) => cx.get(port),
            PosIn::List(port) => from_list(cx.get(port)?),
        }
    }
}

impl PosOut {
    fn declare(
        decl: &mut NodeDecl<Soldier>,
        name: &str,
        doc: &str,
        positions: Positions,
    ) -> PosOut {
        match positions {
            Positions::Vec2 => PosOut::Vec2(decl.output::<Vec2>(name).doc(doc).required()),
            Positions::List => {
                PosOut::List(decl.output::<Value>(name).doc(doc).typed(LIST).required())
            }
        }
    }

    fn write(&self, cx: &mut NodeCtx<'_, Soldier>, v: Vec2) {
        match self {
            PosOut::Vec2(port) => cx.set(port, v),
            // The key's type was checked at load; a list of two floats fits it.
            PosOut::List(port) => drop(cx.set_value(port, to_list(v))),
        }
    }
}

impl PosInOut {
    fn declare(
        decl: &mut NodeDecl<Soldier>,
        name: &str,
        doc: &str,
        positions: Positions,
    ) -> PosInOut {
        match positions {
            Positions::Vec2 => PosInOut::Vec2(decl.in_out::<Vec2>(name).doc(doc).required()),
            Positions::List => {
                PosInOut::List(decl.in_out::<Value>(name).doc(doc).typed(LIST).required())
            }
        }
    }

    fn read(&self, cx: &NodeCtx<'_, Soldier>) -> Option<Vec2> {
        match self {
            PosInOut::Vec2(port) => cx.get(port),
            PosInOut::List(port) => from_list(cx.get(port)?),
        }
    }

    fn write(&self, cx: &mut NodeCtx<'_, Soldier>, v: Vec2) {
        match self {
            PosInOut::Vec2(port) => cx.set(port, v),
            PosInOut::List(port) => drop(cx.set_value(port, to_list(v))),
        }
    }
}

/// Where the enemy is at tick `t`: circling the patrol square, slower than the soldier
/// runs (0.42 per tick).
fn enemy_at(t: f64) -> Vec2 {
    let angle = t * 0.03;
    Vec2::new(14.0 * angle.cos(), 14.0 * angle.sin())
}

/// Looks for the enemy: where it is, whether it is near, whether the soldier is hurt.
fn sense(positions: Positions) -> HostNode<Soldier> {
    let mut decl = NodeDecl::<Soldier>::action("Sense", "Looks for the enemy.");
    let pos = PosIn::declare(&mut decl, "pos", "Where the soldier is.", positions);
    let enemy = PosOut::declare(&mut decl, "enemy", "Where the enemy is.", positions);
    let near = decl
        .output::<bool>("near")
        .doc("Enemy within 6.")
        .required();
    let hurt = decl
        .output::<bool>("hurt")
        .doc("Below 30 hp until 80.")
        .required();
    decl.tick(move |cx| {
        let Some(at) = pos.read(cx) else {
            return Status::Failure;
        };
        let me = &mut *cx.agent;
        me.clock += 1.0;
        let seen = enemy_at(me.clock);
        // Hurt below 30, healed at 80: between them the soldier keeps doing what it does.
        if me.hp < 30.0 {
            me.hurt = true;
        } else if me.hp >= 80.0 {
            me.hurt = false;
        }
        let is_hurt = me.hurt;
        enemy.write(cx, seen);
        cx.set(&near, at.distance(seen) < 6.0);
        cx.set(&hurt, is_hurt);
        Status::Success
    })
}

/// Walks `speed` per tick toward `target` (or away from it, fleeing), writing `pos`.
fn walk(name: &str, flee: bool, positions: Positions) -> HostNode<Soldier> {
    let mut decl = NodeDecl::<Soldier>::action(name, "Walks toward (or away from) a point.");
    let target = PosIn::declare(&mut decl, "target", "The point.", positions);
    let pos = PosInOut::declare(&mut decl, "pos", "Where the soldier is.", positions);
    let speed = decl
        .input::<f64>("speed")
        .doc("Per tick.")
        .literal()
        .required();
    decl.tick(move |cx| {
        let (Some(to), Some(at), Some(speed)) = (target.read(cx), pos.read(cx), cx.get(&speed))
        else {
            return Status::Failure;
        };
        let to_target = to - at;
        if flee {
            let me = &mut *cx.agent;
            me.fled += 1;
            me.hp = (me.hp + 2.0).min(100.0);
            let hp = me.hp;
            pos.write(cx, at - to_target.normalized() * speed);
            return if hp >= 80.0 {
                Status::Success
            } else {
                Status::Running
            };
        }
        if to_target.length() <= speed {
            pos.write(cx, to);
            Status::Success
        } else {
            pos.write(cx, at + to_target.normalized() * speed);
            Status::Running
        }
    })
}

/// Picks the next patrol point.
fn next_waypoint(positions: Positions) -> HostNode<Soldier> {
    let mut decl = NodeDecl::<Soldier>::action("NextWaypoint", "Picks the next patrol point.");
    let waypoint = PosOut::declare(&mut decl, "waypoint", "The point.", positions);
    decl.tick(move |cx| {
        let me = &mut *cx.agent;
        me.waypoint = (me.waypoint + 1) % WAYPOINTS.len();
        me.patrolled += 1;
        let next = WAYPOINTS[me.waypoint];
        waypoint.write(cx, next);
        Status::Success
    })
}

/// Strikes; the enemy strikes back.
fn attack() -> HostNode<Soldier> {
    NodeDecl::<Soldier>::action("Attack", "Strikes; the enemy strikes back.").tick(|cx| {
        cx.agent.attacks += 1;
        cx.agent.hp -= 9.0;
        Status::Success
    })
}

/// The soldier's host nodes, each declared in one place with its ports (`NodeDecl`), as a
/// game declares its own; position ports of the given kind.
pub fn registry(positions: Positions) -> Registry<Soldier> {
    let mut registry = Registry::<Soldier>::new();
    registry
        .add(sense(positions))
        .add(walk("MoveTo", false, positions))
        .add(walk("FleeFrom", true, positions))
        .add(next_waypoint(positions))
        .add(attack());
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
