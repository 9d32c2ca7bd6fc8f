//! The population mix: a soldier-like tree for many agents, most of them inside long host
//! actions that sleep, shared by `benches/population.rs` (criterion) and
//! `examples/population_mix.rs` (ns per agent-frame, frames per second, callgrind).
//!
//! ```text
//! Repeat
//!   Selector "mind"
//!     Sequence "flee"   [Threatened(hurt), abort LowerPriority]  FleeFrom
//!     Sequence "chase"  [Condition near, abort Both]            Chase, Attack
//!     Sequence "patrol"                                          NextWaypoint, Travel, Wait 2 s
//! ```
//!
//! `Threatened` is a host condition that observes its key (semantics rule 98), so it does
//! not keep a patrolling agent awake. `Travel` walks to the waypoint at 2 units a second
//! and sleeps until it arrives (rule 83); `Wait` sleeps too. `Chase` follows an enemy that
//! moves at every frame: a chasing agent is awake at every frame. One agent in
//! [`CHASERS_EVERY`] starts with the enemy near and chases for good; the others patrol,
//! asleep but for a tick at each waypoint and at the end of each rest.
#![allow(dead_code)] // each user takes what it needs

use std::sync::Arc;

use arbor_runtime::builder::{action, bind, decorator, node, sel, seq, TreeBuilder};
use arbor_runtime::{
    Agent, CompiledTree, NodeDecl, NodeType, Observes, Registry, Status, ValueType, Vec2,
};

/// One agent in this many chases (about 10 %); the others patrol.
pub const CHASERS_EVERY: u32 = 10;

/// The frame rate the mix runs at.
pub const DT: f64 = 1.0 / 60.0;

/// The host's per-agent data.
#[derive(Clone, Debug, Default)]
pub struct Trooper {
    pub pos: Vec2,
    pub waypoint: usize,
    /// When the running `Travel` arrives.
    pub arrive_at: Option<f64>,
    pub attacks: u32,
    pub arrivals: u32,
}

const WAYPOINTS: [Vec2; 4] = [
    Vec2::new(-10.0, -10.0),
    Vec2::new(10.0, -10.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(-10.0, 10.0),
];

/// Where the enemy is at time `t`: circling, always out of reach.
fn enemy_at(t: f64) -> Vec2 {
    Vec2::new(30.0 * t.cos(), 30.0 * t.sin())
}

/// The mix's host nodes.
pub fn registry() -> Registry<Trooper> {
    let mut registry = Registry::<Trooper>::new();
    let mut threatened = NodeDecl::<Trooper>::condition("Threatened", "Whether `hurt` is set.");
    let hurt = threatened.input::<bool>("hurt").required();
    registry.add(
        threatened
            .observes(Observes::ports())
            .tick(move |cx| Status::from_bool(cx.get(&hurt).unwrap_or(false))),
    );
    registry.action(NodeType::action("FleeFrom", "Runs off."), |cx| {
        cx.agent.pos = cx.agent.pos + Vec2::new(0.1, 0.0);
        Status::Running
    });
    registry.action(NodeType::action("Chase", "Follows the enemy."), |cx| {
        let (enemy, dt) = (enemy_at(cx.now()), cx.dt());
        let me = &mut *cx.agent;
        let to = enemy - me.pos;
        if to.length() < 1.0 {
            return Status::Success;
        }
        me.pos = me.pos + to.normalized() * (6.0 * dt);
        Status::Running
    });
    registry.action(NodeType::action("Attack", "Strikes."), |cx| {
        cx.agent.attacks += 1;
        Status::Success
    });
    registry.action(
        NodeType::action("NextWaypoint", "Picks the next point."),
        |cx| {
            let me = &mut *cx.agent;
            me.waypoint = (me.waypoint + 1) % WAYPOINTS.len();
            Status::Success
        },
    );
    registry.action(
        NodeType::action("Travel", "Walks to the waypoint, asleep.").may_run(),
        |cx| {
            let now = cx.now();
            let me = &mut *cx.agent;
            let target = WAYPOINTS[me.waypoint];
            let arrive = *me
                .arrive_at
                .get_or_insert(now + (target - me.pos).length() / 2.0);
            if now >= arrive {
                me.pos = target;
                me.arrive_at = None;
                me.arrivals += 1;
                return Status::Success;
            }
            cx.sleep_until(arrive);
            Status::Running
        },
    );
    registry
}

/// The mix's tree.
pub fn tree() -> TreeBuilder {
    TreeBuilder::new("mix")
        .key("near", ValueType::Bool, false)
        .key("hurt", ValueType::Bool, false)
        .root(
            node("Repeat").param("count", 0).child(
                sel([
                    seq([action("FleeFrom")]).name("flee").decorator(
                        decorator("Threatened")
                            .param("hurt", bind("hurt"))
                            .param("abort", "LowerPriority"),
                    ),
                    seq([action("Chase"), action("Attack")])
                        .name("chase")
                        .decorator(
                            decorator("Condition")
                                .param("key", "near")
                                .param("equals", true)
                                .param("abort", "Both"),
                        ),
                    seq([
                        action("NextWaypoint"),
                        action("Travel"),
                        action("Wait").param("seconds", 2.0),
                    ])
                    .name("patrol"),
                ])
                .name("mind"),
            ),
        )
}

/// The mix's tree, loaded.
pub fn compile() -> Arc<CompiledTree<Trooper>> {
    Arc::new(tree().build(&registry()).expect("the mix tree loads"))
}

/// Agent `i` of the mix, with its data: every [`CHASERS_EVERY`]th sees the enemy near.
pub fn agent(tree: &Arc<CompiledTree<Trooper>>, i: u32) -> (Agent<Trooper>, Trooper) {
    let mut agent = Agent::new(tree.clone(), u64::from(i));
    if i.is_multiple_of(CHASERS_EVERY) {
        let near = agent
            .blackboard()
            .key("near")
            .expect("the mix declares `near`");
        agent
            .blackboard_mut()
            .set(near, true)
            .expect("`near` is a bool");
    }
    let trooper = Trooper {
        pos: WAYPOINTS[(i % 4) as usize] * (0.5 + f64::from(i % 7) * 0.1),
        waypoint: (i % 4) as usize,
        ..Trooper::default()
    };
    (agent, trooper)
}

/// When agent `i` first ticks: spread over the first 2 s, as in a world whose agents did
/// not all start together.
pub fn start(i: u32) -> f64 {
    f64::from(i % 120) * DT
}
