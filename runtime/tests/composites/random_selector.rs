//! Rule 77: RandomSelector. Tries children in a weighted random order, drawn from the
//! agent's seeded generator, until one succeeds; a running child is resumed without a draw;
//! weight 0 is never tried; the same seed gives the same order.

use crate::common;

use arbor_runtime::Status;
use common::{agent_seeded, agent_v2, bb_set, scripted, step, ticked, try_compile};
use serde_json::{json, Value};

fn random(weights: Option<Value>, children: Vec<Value>) -> Value {
    let mut node = json!({"type": "RandomSelector", "name": "R", "children": children});
    if let Some(w) = weights {
        node["params"] = json!({"weights": w});
    }
    node
}

fn leaves(returns: &str) -> Vec<Value> {
    ["A", "B", "C"]
        .iter()
        .map(|n| scripted(n, &[returns]))
        .collect()
}

/// The children ticked on the first tick of a fresh agent with `seed`.
fn first_order(weights: Option<Value>, returns: &str, seed: u64) -> Vec<String> {
    let mut a = agent_seeded(random(weights, leaves(returns)), json!([]), seed);
    let (_, events) = step(&mut a);
    ticked(&events).into_iter().filter(|n| n != "R").collect()
}

#[test]
fn rule77_tries_every_child_once_until_one_succeeds() {
    for seed in 0..20 {
        let mut order = first_order(None, "failure", seed);
        assert_eq!(order.len(), 3, "seed {seed}: {order:?}");
        order.sort();
        assert_eq!(order, ["A", "B", "C"]);
        assert_eq!(first_order(None, "success", seed).len(), 1);
    }
}

#[test]
fn rule77_all_failing_fails_and_one_success_succeeds() {
    let mut a = agent_seeded(random(None, leaves("failure")), json!([]), 3);
    assert_eq!(step(&mut a).0, Status::Failure);
    let mut a = agent_seeded(random(None, leaves("success")), json!([]), 3);
    assert_eq!(step(&mut a).0, Status::Success);
}

#[test]
fn rule77_the_same_seed_gives_the_same_order() {
    for seed in 0..10 {
        assert_eq!(
            first_order(None, "failure", seed),
            first_order(None, "failure", seed)
        );
    }
    let orders: std::collections::BTreeSet<Vec<String>> =
        (0..40).map(|s| first_order(None, "failure", s)).collect();
    assert!(orders.len() > 1, "seeds give different orders: {orders:?}");
}

#[test]
fn rule77_weight_zero_is_never_tried_and_heavier_children_come_first_more_often() {
    let mut firsts = std::collections::BTreeMap::new();
    for seed in 0..400 {
        let order = first_order(Some(json!([0, 9, 1])), "failure", seed);
        assert!(!order.contains(&"A".to_owned()), "{order:?}");
        assert_eq!(order.len(), 2);
        *firsts.entry(order[0].clone()).or_insert(0) += 1;
    }
    // 9 to 1: B first about nine times in ten (a loose bound: the draw is seeded).
    assert!(firsts["B"] > 300, "{firsts:?}");
    assert!(firsts["C"] > 10, "{firsts:?}");
}

#[test]
fn rule77_all_weights_zero_or_no_children_fail() {
    let mut a = agent_seeded(
        random(Some(json!([0, 0, 0])), leaves("success")),
        json!([]),
        1,
    );
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(ticked(&events), ["R"]);
    let mut a = agent_seeded(random(None, vec![]), json!([]), 1);
    assert_eq!(step(&mut a).0, Status::Failure);
}

#[test]
fn rule77_a_running_child_is_resumed_without_a_draw() {
    let children = vec![
        scripted("A", &["running", "running", "success"]),
        scripted("B", &["running", "running", "success"]),
    ];
    for seed in 0..10 {
        let mut a = agent_seeded(random(None, children.clone()), json!([]), seed);
        let (_, first) = step(&mut a);
        let chosen: Vec<String> = ticked(&first).into_iter().filter(|n| n != "R").collect();
        assert_eq!(chosen.len(), 1);
        for expected in [Status::Running, Status::Success] {
            let (status, events) = step(&mut a);
            assert_eq!(status, expected);
            let again: Vec<String> = ticked(&events).into_iter().filter(|n| n != "R").collect();
            assert_eq!(again, chosen, "seed {seed}");
        }
    }
}

#[test]
fn rule77_past_the_list_a_child_weighs_one_and_a_bad_bound_list_fails() {
    // Weights [0]: A never, B and C weigh 1.
    for seed in 0..20 {
        let order = first_order(Some(json!([0])), "failure", seed);
        assert_eq!(order.len(), 2);
        assert!(!order.contains(&"A".to_owned()));
    }
    let mut a = agent_v2(
        random(Some(json!({"$key": "w"})), leaves("success")),
        json!([{"key": "w", "type": "list<float>"}]),
        1,
    );
    assert_eq!(step(&mut a).0, Status::Failure, "no value: failure");
    bb_set(&mut a, "w", json!([1, 1, 1]));
    assert_eq!(step(&mut a).0, Status::Success);
    bb_set(&mut a, "w", json!([1, -1, 1]));
    assert_eq!(step(&mut a).0, Status::Failure, "a negative weight");
}

#[test]
fn rule77_negative_literal_weights_are_refused_at_load() {
    let err = try_compile(random(Some(json!([1, -2])), leaves("success")), json!([]))
        .expect_err("a negative weight");
    assert!(err.to_string().contains("weights"), "{err}");
}
