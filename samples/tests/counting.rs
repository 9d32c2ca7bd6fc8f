//! The counting sample (rule 35, the MathTree of a Unity game-AI book): target 20 succeeds at the second AddTen
//! with current 20; target 30 fails with current 20; target 10 stops at the first AddTen.

mod common;

use arbor_runtime::Status;
use arbor_samples::counting::Counting;
use arbor_samples::{SampleMut, Simulation};
use common::{loaded, step};

fn counting(sim: &mut dyn Simulation) -> &mut Counting {
    match sim.sample_mut() {
        Some(SampleMut::Counting(sample)) => sample,
        _ => panic!("not the counting sample"),
    }
}

fn run_once(target: i64) -> (Option<Status>, Vec<(String, Status)>, Option<i64>) {
    let mut sim = Counting::with_target(1, target);
    sim.load_default().unwrap_or_else(|e| panic!("{e}"));
    let status = sim.tick(1.0, &mut ());
    (status, sim.world.branches.clone(), sim.world.current)
}

fn branches(list: &[(&str, Status)]) -> Vec<(String, Status)> {
    list.iter().map(|(n, s)| ((*n).to_owned(), *s)).collect()
}

#[test]
fn target_20_succeeds_at_the_second_add_ten() {
    let (status, seen, current) = run_once(20);
    assert_eq!(status, Some(Status::Success));
    assert_eq!(current, Some(20));
    assert_eq!(
        seen,
        branches(&[
            ("AddTen (2A)", Status::Failure),
            ("Inverter (2B)", Status::Failure),
            ("AddTen (2C)", Status::Success),
        ])
    );
}

#[test]
fn target_30_fails_with_current_20() {
    let (status, seen, current) = run_once(30);
    assert_eq!(status, Some(Status::Failure));
    assert_eq!(current, Some(20));
    assert_eq!(seen.len(), 3);
    assert!(seen.iter().all(|(_, s)| *s == Status::Failure), "{seen:?}");
}

#[test]
fn target_10_succeeds_at_the_first_add_ten_only() {
    let (status, seen, current) = run_once(10);
    assert_eq!(status, Some(Status::Success));
    assert_eq!(current, Some(10));
    assert_eq!(seen, branches(&[("AddTen (2A)", Status::Success)]));
}

#[test]
fn the_tree_default_is_20_and_the_target_lives_on_the_blackboard() {
    let mut sim = loaded("counting", 1);
    assert_eq!(counting(sim.as_mut()).world.target, Some(20));
    // The editor's blackboard view writes the target between ticks.
    let bb = sim.blackboard_mut().expect("an agent");
    bb.set_json("target", &serde_json::json!(30), None)
        .expect("an int key");
    let (status, _) = step(sim.as_mut(), 1.0);
    assert_eq!(status, Some(Status::Failure));
    assert_eq!(counting(sim.as_mut()).world.current, Some(20));
    // Rule 4: the next tick restarts the tree and AddTen (2A) reaches 30.
    let (status, _) = step(sim.as_mut(), 1.0);
    assert_eq!(status, Some(Status::Success));
    assert_eq!(counting(sim.as_mut()).world.current, Some(30));
}

#[test]
fn set_target_survives_reset() {
    let mut sim = loaded("counting", 1);
    counting(sim.as_mut()).set_target(30);
    sim.tick(1.0, &mut ());
    sim.reset();
    assert_eq!(counting(sim.as_mut()).world.target, Some(30));
    assert_eq!(counting(sim.as_mut()).world.current, Some(0));
    assert_eq!(sim.tick(1.0, &mut ()), Some(Status::Failure));
}
