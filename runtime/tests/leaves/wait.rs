//! Rule 9: the Wait leaf records `start = now` on enter and succeeds once
//! `now - start >= seconds`, checking on the entering tick too (so `Wait 0` succeeds at
//! once). Durations use the host clock of rule 2.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, run_n, scripted, seq, step, step_dt, step_lifecycle, strs, ticked, try_compile,
};
use serde_json::json;

fn wait(seconds: f64) -> serde_json::Value {
    json!({"type": "Wait", "name": "W", "params": {"seconds": seconds}})
}

#[test]
fn rule9_wait_zero_succeeds_at_once() {
    let mut a = agent(wait(0.0), json!([]));
    assert_eq!(
        step(&mut a),
        (
            Status::Success,
            strs(&["enter W", "tick W success", "exit W success"])
        )
    );
}

#[test]
fn rule9_wait_n_with_dt_1_runs_n_ticks_then_succeeds() {
    let mut a = agent(wait(3.0), json!([]));
    assert_eq!(
        run_n(&mut a, 5),
        vec![
            Status::Running, // enters at now 1: 0 elapsed
            Status::Running, // 1
            Status::Running, // 2
            Status::Success, // 3 >= 3
            Status::Running, // restarted by the root at now 5
        ]
    );
}

#[test]
fn rule9_with_dt_tenth_ten_ticks_reach_one_second() {
    let mut a = agent(wait(1.0), json!([]));
    // Enters on the first tick at now = 0.1; ten more ticks of 0.1 make one second, which
    // must count as reached despite floating-point rounding.
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Running);
    for k in 1..10 {
        assert_eq!(
            step_dt(&mut a, 0.1).0,
            Status::Running,
            "after {k} more ticks"
        );
    }
    assert_eq!(step_dt(&mut a, 0.1).0, Status::Success);
}

#[test]
fn rule9_start_is_recorded_on_enter_not_at_tree_start() {
    let root = seq(
        "Seq",
        vec![scripted("A", &["running", "running", "success"]), wait(2.0)],
    );
    let mut a = agent(root, json!([]));
    step(&mut a);
    step(&mut a);
    let (_, events) = step_lifecycle(&mut a);
    assert!(events.contains(&"enter W".to_owned()), "{events:?}");
    assert_eq!(step(&mut a).0, Status::Running, "1 s after entering");
    assert_eq!(step(&mut a).0, Status::Success, "2 s after entering");
}

#[test]
fn rule9_larger_steps_overshoot() {
    let mut a = agent(wait(1.5), json!([]));
    assert_eq!(step_dt(&mut a, 1.0).0, Status::Running);
    assert_eq!(step_dt(&mut a, 1.0).0, Status::Running, "1 < 1.5");
    assert_eq!(step_dt(&mut a, 1.0).0, Status::Success, "2 >= 1.5");
}

#[test]
fn rule9_abort_clears_start() {
    // Timeout 2 aborts the Wait 5 at its third tick; the next execution waits afresh.
    let root =
        json!({"type": "Timeout", "name": "T", "params": {"seconds": 2}, "children": [wait(5.0)]});
    let mut a = agent(root, json!([]));
    assert_eq!(
        run_n(&mut a, 3),
        vec![Status::Running, Status::Running, Status::Failure]
    );
    let (_, events) = step_lifecycle(&mut a);
    assert_eq!(
        events,
        strs(&["enter T", "enter W", "tick W running", "tick T running"])
    );
    assert_eq!(ticked(&events), strs(&["W", "T"]));
}

#[test]
fn rule9_negative_seconds_is_a_load_error() {
    assert!(try_compile(wait(-1.0), json!([])).is_err());
}
