//! The soldier tree (benches/soldier_tree): positions in `vec2` keys tick with no heap
//! allocation per agent-tick once warm, while the same tree with `list<float>` keys
//! allocates on every position write; both variants do exactly the same thing.

use arbor_runtime::{Agent, TraceEvent, Value};

use super::counting_alloc::allocations;
use super::soldier_tree::{compile, Positions, Soldier};

const AGENTS: usize = 40;
const TICKS: usize = 1_500;

fn squad(positions: Positions) -> Vec<(Agent<Soldier>, Soldier)> {
    let tree = compile(positions);
    (0..AGENTS)
        .map(|i| (Agent::new(tree.clone(), i as u64), Soldier::new()))
        .collect()
}

/// Heap allocations per agent-tick over `TICKS` ticks of every agent, after one warm-up tick.
fn allocations_per_agent_tick(positions: Positions) -> f64 {
    let mut squad = squad(positions);
    for (agent, soldier) in &mut squad {
        agent.tick(soldier, 0.1);
    }
    let before = allocations();
    for _ in 0..TICKS {
        for (agent, soldier) in &mut squad {
            agent.tick(soldier, 0.1);
        }
    }
    (allocations() - before) as f64 / (AGENTS * TICKS) as f64
}

#[test]
fn soldier_with_vec2_positions_does_not_allocate_per_agent_tick() {
    assert_eq!(allocations_per_agent_tick(Positions::Vec2), 0.0);
}

#[test]
fn soldier_with_list_positions_allocates_on_position_writes() {
    // The comparison the vec2 test is meaningful against: the same tree with JSON lists.
    let per_agent_tick = allocations_per_agent_tick(Positions::List);
    // docs/performance.md quotes it ("Vectors on the blackboard"): run with --nocapture.
    println!("list<float> positions: {per_agent_tick:.2} allocations per agent-tick");
    assert!(per_agent_tick > 0.5);
}

#[test]
fn soldier_patrols_chases_flees_and_aborts() {
    let mut squad = squad(Positions::Vec2);
    let mut aborts = 0usize;
    let mut observer = |e: TraceEvent<'_>| {
        if matches!(e, TraceEvent::Abort(_)) {
            aborts += 1;
        }
    };
    for _ in 0..TICKS {
        for (agent, soldier) in &mut squad {
            agent.tick_traced(soldier, 0.1, &mut observer);
        }
    }
    let (agent, soldier) = &squad[0];
    assert!(soldier.patrolled > 2, "{soldier:?}");
    assert!(soldier.attacks > 2, "{soldier:?}");
    assert!(soldier.fled > 2, "{soldier:?}");
    assert!(aborts > AGENTS, "{aborts} aborts");
    let bb = agent.blackboard();
    assert!(bb.get_vec2(bb.key("pos").unwrap()).is_some());
}

#[test]
fn soldier_does_the_same_with_vec2_and_list_positions() {
    let mut vec2 = squad(Positions::Vec2);
    let mut list = squad(Positions::List);
    for _ in 0..300 {
        for ((a, sa), (b, sb)) in vec2.iter_mut().zip(&mut list) {
            assert_eq!(a.tick(sa, 0.1), b.tick(sb, 0.1));
        }
    }
    for ((a, sa), (b, sb)) in vec2.iter().zip(&list) {
        assert_eq!(
            (sa.hp, sa.attacks, sa.fled, sa.patrolled),
            (sb.hp, sb.attacks, sb.fled, sb.patrolled)
        );
        // The same JSON form: `[x, y]` either way.
        for key in ["pos", "enemy", "waypoint"] {
            let (ka, kb) = (
                a.blackboard().key(key).unwrap(),
                b.blackboard().key(key).unwrap(),
            );
            let va = a.blackboard().get(ka).map(Value::to_json);
            let vb = b.blackboard().get(kb).map(Value::to_json);
            assert_eq!(va, vb, "{key}");
        }
    }
}
