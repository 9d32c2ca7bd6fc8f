//! The guard sample: a sighting interrupts the patrol within the same tick (abort
//! LowerPriority, rule 24); losing the intruder ends the chase within the same tick (abort
//! Self, rule 23); both happen, and so do catches.

mod common;

use arbor_samples::guard::Guard;
use arbor_samples::{SampleMut, Simulation};
use common::{has, loaded, node, step};

fn guard(sim: &mut dyn Simulation) -> &mut Guard {
    match sim.sample_mut() {
        Some(SampleMut::Guard(sample)) => sample,
        _ => panic!("not the guard sample"),
    }
}

/// Runs 4000 ticks and checks, at every tick, the two abort rules.
fn check_aborts(seed: u64) -> (u32, u32, u32) {
    let mut sim = loaded("guard", seed);
    let patrol = node(sim.as_ref(), "Patrol");
    let chase = node(sim.as_ref(), "Chase");
    let chase_enemy = node(sim.as_ref(), "Run to last sighting");
    let (mut interruptions, mut lost) = (0, 0);
    for tick in 1..=4000 {
        let patrolling = sim.is_running(patrol);
        let chasing = sim.is_running(chase);
        let (_, events) = step(sim.as_mut(), 0.25);
        let bb = sim.blackboard().expect("an agent");
        let visible = bb.get_bool(bb.key("enemy_visible").expect("declared")) == Some(true);
        let tracked = bb.get_bool(bb.key("enemy_tracked").expect("declared")) == Some(true);
        if patrolling && visible {
            // Rule 24: the Selector re-checks Chase and aborts the patrol this very tick.
            interruptions += 1;
            assert!(
                has(&events, "abort Patrol"),
                "seed {seed} tick {tick}: {events:#?}"
            );
            assert!(
                has(&events, "enter Run to last sighting"),
                "seed {seed} tick {tick}: {events:#?}"
            );
            assert!(!sim.is_running(patrol));
            assert!(
                sim.is_running(chase_enemy) || has(&events, "exit Chase success"),
                "seed {seed} tick {tick}: {events:#?}"
            );
        }
        if chasing && !tracked {
            // Rule 23: the Self condition fails and the chase is aborted this very tick;
            // the Selector goes on to the patrol in the same tick.
            lost += 1;
            assert!(
                has(&events, "check Chase#1 false"),
                "seed {seed} tick {tick}: {events:#?}"
            );
            assert!(
                has(&events, "abort Chase"),
                "seed {seed} tick {tick}: {events:#?}"
            );
            assert!(
                has(&events, "enter Patrol"),
                "seed {seed} tick {tick}: {events:#?}"
            );
            assert!(!sim.is_running(chase));
        }
    }
    let catches = guard(sim.as_mut()).world.catches;
    (interruptions, lost, catches)
}

#[test]
fn sightings_interrupt_the_patrol_and_lost_intruders_end_the_chase_within_one_tick() {
    for seed in 1..=3 {
        let (interruptions, lost, catches) = check_aborts(seed);
        println!("seed {seed}: {interruptions} interruptions, {lost} lost, {catches} catches");
        assert!(
            interruptions > 0,
            "seed {seed}: the patrol was never interrupted"
        );
        assert!(lost > 0, "seed {seed}: no chase was ever lost");
        assert!(catches > 0, "seed {seed}: never caught the intruder");
    }
}

#[test]
fn the_patrol_visits_the_waypoints_in_order() {
    let mut sim = loaded("guard", 1);
    // Keep the intruder out of the way: far outside the yard and hidden.
    let seen = sim.log().total();
    for _ in 0..400 {
        let world = &mut guard(sim.as_mut()).world;
        world.intruder.pos = arbor_samples::Vec2::new(1000.0, 1000.0);
        world.intruder.mode = arbor_samples::guard::IntruderMode::Hide { until: 1e9 };
        sim.tick(0.25, &mut ());
    }
    let visits: Vec<String> = common::log_since(sim.as_ref(), seen)
        .into_iter()
        .filter(|l| l.starts_with("patrols to"))
        .collect();
    assert_eq!(
        visits[..5],
        [0, 1, 2, 3, 0].map(|i| format!("patrols to waypoint {i}"))
    );
}
