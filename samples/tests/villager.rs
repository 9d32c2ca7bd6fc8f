//! The villager sample: it survives, errands pre-empt and give up as designed, and death
//! ends the tree.

mod common;

use arbor_runtime::Status;
use arbor_samples::villager::{Activity, Need, Villager, ZoneColor};
use arbor_samples::{save_game, SampleMut, Simulation};
use common::{has, loaded, log_since, step};

fn villager(sim: &mut dyn Simulation) -> &mut Villager {
    match sim.sample_mut() {
        Some(SampleMut::Villager(sample)) => sample,
        _ => panic!("not the villager sample"),
    }
}

#[test]
fn keeps_every_need_above_zero_for_10000_ticks() {
    for seed in 1..=3 {
        let mut sim = loaded("villager", seed);
        let dt = sim.default_dt();
        for tick in 1..=10_000 {
            let status = sim.tick(dt, &mut ());
            assert_eq!(status, Some(Status::Running), "seed {seed}, tick {tick}");
        }
        let world = &villager(sim.as_mut()).world;
        let (need, lowest) = world.lowest.lowest();
        println!(
            "seed {seed}: lowest need over 10,000 ticks: {} {lowest:.1}; {} errands",
            need.name(),
            world.errands
        );
        assert!(world.alive, "seed {seed}");
        assert!(
            lowest > 0.0,
            "seed {seed}: {} fell to {lowest}",
            need.name()
        );
        let log: Vec<String> = log_since(sim.as_ref(), 0);
        for done in ["eating", "drinking", "resting", "having fun", "working"] {
            let wanted = format!("done {done}");
            assert!(
                log.iter().any(|l| l.starts_with(&wanted)),
                "seed {seed}: never {done}"
            );
        }
    }
}

/// Puts the villager in the middle of the zone of `color`.
fn stand_in(sim: &mut dyn Simulation, color: ZoneColor) {
    let world = &mut villager(sim).world;
    let zone = world
        .zones
        .iter()
        .find(|z| z.color == color)
        .copied()
        .expect("a zone of that colour");
    world.pos = zone.center;
}

#[test]
fn an_emergency_interrupts_rest_by_self_abort_and_sends_the_villager_to_drink() {
    let mut sim = loaded("villager", 5);
    stand_in(sim.as_mut(), ZoneColor::White);
    {
        let world = &mut villager(sim.as_mut()).world;
        for need in Need::ALL {
            world.needs.set(need, 80.0);
        }
        world.needs.set(Need::Energy, 20.0);
    }
    let (_, events) = step(sim.as_mut(), 0.25);
    assert!(has(&events, "enter HaveRest"), "{events:#?}");
    assert_eq!(
        villager(sim.as_mut()).world.activity,
        Activity::Doing(Need::Energy)
    );

    villager(sim.as_mut()).world.needs.set(Need::Water, 19.9);
    let (status, events) = step(sim.as_mut(), 0.25);
    assert_eq!(status, Some(Status::Running));
    // Rule 23: the Self condition is re-checked while Rest runs and aborts it this tick.
    assert!(has(&events, "check Rest#0 false"), "{events:#?}");
    assert!(has(&events, "abort Rest"), "{events:#?}");
    assert!(has(&events, "exit HaveRest aborted"), "{events:#?}");
    assert_eq!(villager(sim.as_mut()).world.activity, Activity::Idle);

    // The Selector failed (Work is blocked too); next tick it starts over and picks Drink.
    step(sim.as_mut(), 0.25);
    assert_eq!(
        villager(sim.as_mut()).world.activity,
        Activity::Walking(ZoneColor::Blue)
    );
}

#[test]
fn walk_to_plans_with_a_ttl_and_gives_up_when_it_expires() {
    let mut sim = loaded("villager", 2);
    stand_in(sim.as_mut(), ZoneColor::Blue);
    {
        let world = &mut villager(sim.as_mut()).world;
        for need in Need::ALL {
            world.needs.set(need, 80.0);
        }
        world.needs.set(Need::Food, 40.0);
    }
    step(sim.as_mut(), 0.25);
    assert_eq!(
        villager(sim.as_mut()).world.activity,
        Activity::Walking(ZoneColor::Red)
    );
    let bb = sim.blackboard_mut().expect("an agent");
    let target = bb.key("target").expect("declared");
    assert_eq!(bb.get_str(target), Some("red"));
    assert_eq!(bb.remaining(target), Some(30.0), "WalkTo's give_up");

    // Make the plan expire now: the next tick the walk is abandoned.
    bb.set_with_ttl(target, "red", Some(0.0))
        .expect("a string key");
    let seen = sim.log().total();
    let (_, events) = step(sim.as_mut(), 0.25);
    assert!(
        has(&events, "exit Walk to the red zone failure"),
        "{events:#?}"
    );
    assert!(has(&events, "exit Eat failure"), "{events:#?}");
    assert!(
        log_since(sim.as_ref(), seen)
            .iter()
            .any(|l| l == "gives up walking to the red zone"),
        "{:?}",
        log_since(sim.as_ref(), seen)
    );
}

#[test]
fn a_need_at_zero_ends_the_tree() {
    let mut sim = loaded("villager", 1);
    for _ in 0..10 {
        sim.tick(0.25, &mut ());
    }
    villager(sim.as_mut()).world.needs.set(Need::Food, 0.05);
    let (status, events) = step(sim.as_mut(), 0.25);
    // Alive and the errands fail: 2 failures > n - need, so the Parallel and Repeat fail.
    assert_eq!(status, Some(Status::Failure), "{events:#?}");
    assert!(
        has(&events, "exit Errands while alive failure"),
        "{events:#?}"
    );
    assert!(sim.finished());
    assert_eq!(villager(sim.as_mut()).world.activity, Activity::Dead);
    assert_eq!(sim.tick(0.25, &mut ()), None);
    assert!(sim
        .log()
        .last()
        .is_some_and(|l| l.text == "dies: out of food"));
}

#[test]
fn the_impatient_variant_loads_on_the_villager_and_keeps_it_alive() {
    let path = arbor_samples::trees_dir().join("variants/villager_impatient.json");
    for seed in 1..=3 {
        let mut sim = arbor_samples::by_name("villager", seed).expect("the villager sample");
        let outcome = sim.load_file(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
        assert_eq!(sim.tree().expect("loaded").name(), "impatient villager");
        let dt = sim.default_dt();
        for tick in 1..=5_000 {
            let status = sim.tick(dt, &mut ());
            assert_eq!(status, Some(Status::Running), "seed {seed}, tick {tick}");
        }
        let log = log_since(sim.as_ref(), 0);
        // Its chores end at 75, and the switched-off "Poor?" check lets it work at will.
        // "done resting (energy 77)": one tick's gain past 75, far from the base's 95.
        let rested: Vec<f64> = log
            .iter()
            .filter_map(|l| l.strip_prefix("done resting (energy "))
            .filter_map(|l| l.trim_end_matches(')').parse().ok())
            .collect();
        assert!(!rested.is_empty(), "seed {seed}: never rested");
        assert!(
            rested.iter().all(|e| (75.0..85.0).contains(e)),
            "seed {seed}: {rested:?}"
        );
        assert!(villager(sim.as_mut()).world.alive, "seed {seed}");
    }
}

/// N ticks, a save game written to a file, then M ticks, against N ticks, the save read
/// back into a fresh sample (of another seed: the save decides), then M ticks: the same
/// trace and log tick for tick, and the same agent and world at the end.
#[test]
fn a_game_saved_mid_way_and_loaded_in_a_fresh_sample_has_the_same_future() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut mid_action = 0;
    for seed in 1..=4u64 {
        let (n, m) = (600 + 137 * seed as usize, 1_500);
        let mut straight = loaded("villager", seed);
        let dt = straight.default_dt();
        for _ in 0..n {
            straight.tick(dt, &mut ());
        }
        let path = dir.path().join(format!("villager-{seed}.json"));
        save_game::write(&straight.save_game().expect("saves"), &path).expect("written");
        let activity = villager(straight.as_mut()).world.activity;
        if matches!(activity, Activity::Walking(_) | Activity::Doing(_)) {
            mid_action += 1;
        }

        let mut resumed = loaded("villager", 99);
        let save = save_game::read(&path).expect("reads back");
        resumed.load_game(&save).expect("loads");
        assert_eq!(resumed.seed(), seed);
        let (mut seen_a, mut seen_b) = (straight.log().total(), resumed.log().total());
        assert_eq!(seen_a, seen_b);
        for tick in 1..=m {
            let a = step(straight.as_mut(), dt);
            let b = step(resumed.as_mut(), dt);
            assert_eq!(a, b, "seed {seed}: tick {} after the save", tick);
            let (log_a, log_b) = (
                log_since(straight.as_ref(), seen_a),
                log_since(resumed.as_ref(), seen_b),
            );
            assert_eq!(log_a, log_b, "seed {seed}: tick {tick} after the save");
            (seen_a, seen_b) = (straight.log().total(), resumed.log().total());
        }
        let (end_a, end_b) = (straight.save_game().unwrap(), resumed.save_game().unwrap());
        assert_eq!(
            end_a, end_b,
            "seed {seed}: the agent and world after {m} ticks"
        );
    }
    assert!(mid_action >= 2, "most saves fall mid-walk or mid-chore");
}

#[test]
fn a_save_game_of_another_sample_or_a_broken_world_is_refused_and_changes_nothing() {
    let mut villager_sim = loaded("villager", 1);
    let dt = villager_sim.default_dt();
    for _ in 0..50 {
        villager_sim.tick(dt, &mut ());
    }
    let before = villager_sim.save_game().unwrap();
    let mut other = before.clone();
    other.program["sample"] = "guard".into();
    let err = villager_sim.load_game(&other).unwrap_err().to_string();
    assert!(err.contains("guard"), "{err}");
    let mut broken = before.clone();
    broken.program["world"]["needs"] = "plenty".into();
    let err = villager_sim.load_game(&broken).unwrap_err().to_string();
    assert!(err.starts_with("the saved world"), "{err}");
    let mut plain = before.clone();
    plain.program = serde_json::Value::Null;
    assert!(villager_sim.load_game(&plain).is_err());
    assert_eq!(villager_sim.save_game().unwrap(), before);
    // The guard sample keeps no save games of its own.
    let guard = loaded("guard", 1);
    assert!(guard.save_game().is_err());
}
