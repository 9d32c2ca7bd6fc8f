//! Rule 81: the Repeats and Retries of one tick share one budget of restarts,
//! `LOOP_BUDGET_PER_TICK`; a loop that would restart its child once it is spent returns
//! `running`, keeps its count and goes on in the next tick.

use arbor_runtime::{Status, LOOP_BUDGET_PER_TICK, MAX_LOOPS_PER_TICK};
use serde_json::{json, Value};

use crate::common::{agent, bb};

fn repeat(count: i64, child: Value) -> Value {
    json!({"type": "Repeat", "params": {"count": count}, "children": [child]})
}

fn seq(child: Value) -> Value {
    json!({"type": "Sequence", "children": [child]})
}

fn count_x() -> Value {
    json!({"type": "Script", "name": "Count", "params": {"code": "x := x + 1"}})
}

fn x_key() -> Value {
    json!([{"key": "x", "type": "int", "default": 0}])
}

fn x(a: &arbor_runtime::Agent<()>) -> i64 {
    bb(a, "x").as_i64().unwrap_or(-1)
}

/// The child runs of one tick once the budget is spent: the tick's first run, then one per
/// restart.
fn per_tick() -> i64 {
    i64::from(LOOP_BUDGET_PER_TICK) + 1
}

#[test]
fn rule81_nested_loops_share_one_budget_per_tick() {
    // A million runs of the script if the loops did not share a budget.
    let mut a = agent(repeat(1000, seq(repeat(1000, seq(count_x())))), x_key());
    assert_eq!(a.tick(&mut (), 1.0), Status::Running);
    assert_eq!(x(&a), per_tick());
    assert_eq!(a.tick(&mut (), 1.0), Status::Running);
    assert_eq!(x(&a), 2 * per_tick());
}

#[test]
fn rule81_loops_over_the_budget_keep_their_counts_and_complete_later() {
    // 27,000 runs: two full ticks and the rest, counts kept across ticks.
    let mut a = agent(
        repeat(30, seq(repeat(30, seq(repeat(30, count_x()))))),
        x_key(),
    );
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(a.tick(&mut (), 1.0));
        if statuses.last() == Some(&Status::Success) {
            break;
        }
    }
    assert_eq!(
        statuses,
        [Status::Running, Status::Running, Status::Success]
    );
    assert_eq!(x(&a), 27_000, "no run lost or repeated");
}

#[test]
fn rule81_sibling_loops_share_the_budget_in_order() {
    // Eleven loops, each within its own cap (999 restarts each): ten fit, the eleventh
    // gets what is left and resumes next tick with its count.
    let cap = i64::from(MAX_LOOPS_PER_TICK);
    let loops: Vec<Value> = (0..11).map(|_| repeat(cap, count_x())).collect();
    let mut a = agent(json!({"type": "Sequence", "children": loops}), x_key());
    assert_eq!(a.tick(&mut (), 1.0), Status::Running);
    let spent_by_ten = 10 * (cap - 1);
    let left = i64::from(LOOP_BUDGET_PER_TICK) - spent_by_ten;
    assert_eq!(x(&a), 10 * cap + left + 1);
    assert_eq!(a.tick(&mut (), 1.0), Status::Success);
    assert_eq!(x(&a), 11 * cap);
}

#[test]
fn rule81_retry_restarts_count_against_the_same_budget() {
    // Each attempt: a Repeat's 999 restarts, then the Retry's own restart.
    let attempt = json!({"type": "Sequence", "children": [
        repeat(1000, count_x()),
        {"type": "ScriptCondition", "params": {"code": "false"}},
    ]});
    let retry = json!({"type": "Retry", "params": {"attempts": 20}, "children": [attempt]});
    let mut a = agent(retry, x_key());
    assert_eq!(a.tick(&mut (), 1.0), Status::Running);
    assert_eq!(x(&a), per_tick());
}
