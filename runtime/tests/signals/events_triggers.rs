//! Rules 31 and 32: events and triggers. An external event is visible during the tick it
//! was raised for only; a SendEvent's event is visible for the rest of its tick and, in the
//! next tick, only to checks by nodes at or before the sender in pre-order; re-sending
//! refreshes it; checks never consume events. Triggers stay set until reset: Immediate
//! clears on a successful check, EnterNode when the owner enters, LeaveNode when it exits
//! or is aborted; a failed or short-circuited check never changes a trigger.

use crate::common;

use arbor_runtime::Status;
use common::{
    agent, bb_set, checks, run_n, scripted, scripted_with, sel, seq, step, step_with, strs, ticked,
};
use serde_json::{json, Value};

fn check_event(name: &str) -> Value {
    scripted_with(
        name,
        &["success"],
        json!([{"type": "CheckEvent", "params": {"event": "e"}}]),
    )
}

/// `Sel[checker (CheckEvent e), fallback]`: always succeeds; the check shows in the trace.
fn probe(sel_name: &str, checker: &str) -> Value {
    sel(
        sel_name,
        vec![
            check_event(checker),
            scripted(&format!("{checker}F"), &["success"]),
        ],
    )
}

fn send_times(name: &str, times: i64) -> Value {
    json!({"type": "Succeeder", "children": [
        {"type": "Limiter", "params": {"max": times}, "children": [
            {"type": "SendEvent", "name": name, "params": {"event": "e"}}
        ]}
    ]})
}

/// Root(0) [Early(1)[X(2), XF(3)], Succeeder(4)[Limiter(5)[S(6)]], Late(7)[Y(8), YF(9)]]
fn sender_between(times: i64) -> Value {
    seq(
        "Root",
        vec![
            probe("Early", "X"),
            send_times("S", times),
            probe("Late", "Y"),
        ],
    )
}

// ---- Rule 31: events ----

#[test]
fn rule31_external_event_visible_during_its_tick_only() {
    let mut a = agent(sender_between(0), json!([]));
    let (_, events) = step_with(&mut a, 1.0, |a| assert!(a.raise_event("e")));
    // Both checkers see it, before and after any sender: checking does not consume it.
    assert_eq!(checks(&events), strs(&["check X#0 true", "check Y#0 true"]));
    let (_, events) = step(&mut a);
    assert_eq!(
        checks(&events),
        strs(&["check X#0 false", "check Y#0 false"])
    );
}

#[test]
fn rule31_raising_an_event_no_node_uses_has_no_effect() {
    let mut a = agent(sender_between(0), json!([]));
    assert!(!a.raise_event("nobody"));
}

#[test]
fn rule31_sent_event_visible_rest_of_tick_then_only_to_nodes_at_or_before_sender() {
    let mut a = agent(sender_between(1), json!([]));
    let (_, e1) = step(&mut a);
    let (_, e2) = step(&mut a);
    let (_, e3) = step(&mut a);
    // Tick 1: X checked before the send (not yet visible), Y after it.
    assert_eq!(checks(&e1), strs(&["check X#0 false", "check Y#0 true"]));
    // Tick 2: X (index 2 <= 6) still sees it; Y (index 8 > 6) does not.
    assert_eq!(checks(&e2), strs(&["check X#0 true", "check Y#0 false"]));
    // Tick 3: gone.
    assert_eq!(checks(&e3), strs(&["check X#0 false", "check Y#0 false"]));
}

#[test]
fn rule31_send_event_succeeds() {
    let mut a = agent(
        json!({"type": "SendEvent", "name": "S", "params": {"event": "e"}}),
        json!([]),
    );
    assert_eq!(
        step(&mut a),
        (
            Status::Success,
            strs(&["enter S", "tick S success", "exit S success"])
        )
    );
}

#[test]
fn rule31_sent_event_visible_to_earlier_nodes_checked_later_in_the_same_tick() {
    // Repeat(0)[Body(1)[Pick(2)[X(3), XF(4)], Succeeder(5)[Limiter(6)[S(7)]]]]: the second
    // iteration checks X again, after the send, in the same tick.
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 2}, "children": [
        seq("Body", vec![probe("Pick", "X"), send_times("S", 1)])
    ]});
    let mut a = agent(root, json!([]));
    let (_, events) = step(&mut a);
    assert_eq!(
        checks(&events),
        strs(&["check X#0 false", "check X#0 true"])
    );
}

#[test]
fn rule31_the_sender_itself_is_at_or_before_the_sender() {
    // S carries the CheckEvent: in the next tick it is its own index, so it sees the event.
    let root = seq(
        "Root",
        vec![json!({"type": "Succeeder", "children": [
            {"type": "SendEvent", "name": "S", "params": {"event": "e"},
             "decorators": [{"type": "CheckEvent", "params": {"event": "e", "invert": true}}]}
        ]})],
    );
    let mut a = agent(root, json!([]));
    // Tick 1: not yet sent: the inverted check passes and S sends.
    assert_eq!(checks(&step(&mut a).1), strs(&["check S#0 true"]));
    // Tick 2: S sees its own event (index equal), so the inverted check fails.
    assert_eq!(checks(&step(&mut a).1), strs(&["check S#0 false"]));
    // Tick 3: gone again.
    assert_eq!(checks(&step(&mut a).1), strs(&["check S#0 true"]));
}

#[test]
fn rule31_resending_refreshes_the_event() {
    let mut a = agent(sender_between(2), json!([]));
    let statuses: Vec<Vec<String>> = (0..4).map(|_| checks(&step(&mut a).1)).collect();
    assert_eq!(statuses[0], strs(&["check X#0 false", "check Y#0 true"]));
    // Tick 2: visible to X from tick 1's send; re-sent, so Y sees it too.
    assert_eq!(statuses[1], strs(&["check X#0 true", "check Y#0 true"]));
    // Tick 3: from tick 2's send, for X only.
    assert_eq!(statuses[2], strs(&["check X#0 true", "check Y#0 false"]));
    assert_eq!(statuses[3], strs(&["check X#0 false", "check Y#0 false"]));
}

#[test]
fn rule31_latest_send_decides_next_tick_visibility() {
    // Rule 31: the latest send replaces the earlier one, sender index included.
    // Pre-order: R(0) > Body(1) > Pick(2) > [LowSend(3) > [Second(4), SLow(5)], Z(6),
    // SHigh(7)]. In tick 1, SHigh (7) sends, then SLow (5) sends in the second
    // iteration; in tick 2 only nodes at or before 5 see it, so Z (6) does not.
    let root = json!({"type": "Repeat", "name": "R", "params": {"count": 2}, "children": [
        seq("Body", vec![sel("Pick", vec![
            seq("LowSend", vec![
                scripted("Second", &["failure", "success", "failure"]),
                json!({"type": "SendEvent", "name": "SLow", "params": {"event": "e"}})
            ]),
            scripted_with("Z", &["failure"], json!([{"type": "CheckEvent", "params": {"event": "e"}}])),
            json!({"type": "SendEvent", "name": "SHigh", "params": {"event": "e"}})
        ])])
    ]});
    let mut a = agent(root, json!([]));
    let (_, events) = step(&mut a);
    assert_eq!(
        ticked(&events),
        strs(&[
            "Second", "LowSend", "SHigh", "Pick", "Body", "Second", "SLow", "LowSend", "Pick",
            "Body", "R"
        ])
    );
    assert_eq!(checks(&events), strs(&["check Z#0 false"]));
    let (_, events) = step(&mut a);
    // First check of Z in tick 2: SLow (5) was the latest sender, Z is 6: not visible.
    // After SHigh re-sends in this tick, Z sees it.
    assert_eq!(
        checks(&events),
        strs(&["check Z#0 false", "check Z#0 true"])
    );
}

#[test]
fn rule31_event_check_with_self_abort_sees_the_event_vanish() {
    // A runs while the event is visible; when it is gone, the Self check aborts A.
    let root = scripted_with(
        "A",
        &["running"],
        json!([{"type": "CheckEvent", "params": {"event": "e", "abort": "Self"}}]),
    );
    let mut a = agent(root, json!([]));
    assert_eq!(step(&mut a).0, Status::Failure);
    let (status, _) = step_with(&mut a, 1.0, |a| {
        a.raise_event("e");
    });
    assert_eq!(status, Status::Running);
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["check A#0 false", "abort A", "exit A aborted"])
    );
}

// ---- Rule 32: triggers ----

fn check_trigger(reset: &str) -> Value {
    json!({"type": "CheckTrigger", "params": {"trigger": "t", "reset": reset}})
}

fn gate() -> Value {
    json!({"type": "Condition", "params": {"key": "go", "equals": true}})
}

fn go() -> Value {
    json!([{"key": "go", "type": "bool", "default": true}])
}

fn set_t(a: &mut arbor_runtime::Agent<()>) {
    assert!(a.set_trigger("t"));
}

fn t_is_set(a: &arbor_runtime::Agent<()>) -> bool {
    a.triggers_set().any(|t| t == "t")
}

#[test]
fn rule32_immediate_consumed_even_if_a_later_condition_blocks_the_node() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([check_trigger("Immediate"), gate()]),
    );
    let mut a = agent(node, go());
    bb_set(&mut a, "go", json!(false));
    // Not set: the check fails.
    assert_eq!(checks(&step(&mut a).1), strs(&["check A#0 false"]));
    // Set: the check succeeds and consumes it at once, although `go` then blocks A.
    let (status, events) = step_with(&mut a, 1.0, set_t);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, strs(&["check A#0 true", "check A#1 false"]));
    assert!(!t_is_set(&a));
}

#[test]
fn rule32_trigger_persists_across_ticks_while_unchecked() {
    let root = seq(
        "S",
        vec![
            gate(),
            scripted_with("A", &["success"], json!([check_trigger("Immediate")])),
        ],
    );
    let mut a = agent(root, go());
    bb_set(&mut a, "go", json!(false));
    set_t(&mut a);
    run_n(&mut a, 3);
    assert!(t_is_set(&a));
    bb_set(&mut a, "go", json!(true));
    assert_eq!(step(&mut a).0, Status::Success);
    assert!(!t_is_set(&a));
    assert_eq!(
        step(&mut a).0,
        Status::Failure,
        "consumed: the next check fails"
    );
}

#[test]
fn rule32_reset_defaults_to_immediate() {
    let node = scripted_with(
        "A",
        &["running"],
        json!([{"type": "CheckTrigger", "params": {"trigger": "t"}}]),
    );
    let mut a = agent(node, json!([]));
    assert_eq!(step_with(&mut a, 1.0, set_t).0, Status::Running);
    assert!(!t_is_set(&a), "consumed by the check, before A even exits");
}

#[test]
fn rule32_immediate_is_cleared_at_once_within_the_same_node() {
    // Two checks of the same trigger on one node: the first consumes it, the second fails.
    let node = scripted_with(
        "A",
        &["success"],
        json!([check_trigger("Immediate"), check_trigger("Immediate")]),
    );
    let mut a = agent(node, json!([]));
    let (status, events) = step_with(&mut a, 1.0, set_t);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        checks(&events),
        strs(&["check A#0 true", "check A#1 false"])
    );
}

#[test]
fn rule32_enter_node_clears_on_enter_only() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([check_trigger("EnterNode"), gate()]),
    );
    let mut a = agent(node, go());
    bb_set(&mut a, "go", json!(false));
    let (status, events) = step_with(&mut a, 1.0, set_t);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        checks(&events),
        strs(&["check A#0 true", "check A#1 false"])
    );
    assert!(t_is_set(&a), "A did not enter: the trigger stays set");
    bb_set(&mut a, "go", json!(true));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(events.contains(&"enter A".to_owned()));
    assert!(!t_is_set(&a), "cleared when A entered");
}

#[test]
fn rule32_enter_node_is_cleared_before_the_body_runs() {
    // A SetTrigger child of the owner sets it again after the owner entered: it stays set.
    let root = json!({"type": "Sequence", "name": "S", "decorators": [check_trigger("EnterNode")],
                      "children": [{"type": "SetTrigger", "params": {"trigger": "t"}}]});
    let mut a = agent(root, json!([]));
    assert_eq!(step_with(&mut a, 1.0, set_t).0, Status::Success);
    assert!(t_is_set(&a));
}

#[test]
fn rule32_leave_node_clears_on_exit_not_while_running() {
    let node = scripted_with(
        "A",
        &["running", "running", "failure"],
        json!([check_trigger("LeaveNode")]),
    );
    let mut a = agent(node, json!([]));
    assert_eq!(step_with(&mut a, 1.0, set_t).0, Status::Running);
    assert!(t_is_set(&a));
    assert_eq!(step(&mut a).0, Status::Running);
    assert!(t_is_set(&a));
    assert_eq!(step(&mut a).0, Status::Failure);
    assert!(!t_is_set(&a), "cleared when A exited (whatever its status)");
}

#[test]
fn rule32_leave_node_clears_on_abort() {
    let root = json!({"type": "Timeout", "name": "T", "params": {"seconds": 1}, "children": [
        scripted_with("A", &["running"], json!([check_trigger("LeaveNode")]))
    ]});
    let mut a = agent(root, json!([]));
    step_with(&mut a, 1.0, set_t);
    assert!(t_is_set(&a));
    let (_, events) = step(&mut a);
    assert!(events.contains(&"abort A".to_owned()));
    assert!(!t_is_set(&a));
}

#[test]
fn rule32_leave_node_not_cleared_when_owner_blocked() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([check_trigger("LeaveNode"), gate()]),
    );
    let mut a = agent(node, go());
    bb_set(&mut a, "go", json!(false));
    step_with(&mut a, 1.0, set_t);
    assert!(t_is_set(&a));
}

#[test]
fn rule32_failed_check_never_changes_a_trigger() {
    // Inverted: the trigger is set, so the check fails and must not consume it.
    for reset in ["Immediate", "EnterNode", "LeaveNode"] {
        let node = scripted_with(
            "A",
            &["success"],
            json!([{"type": "CheckTrigger", "params": {"trigger": "t", "reset": reset, "invert": true}}]),
        );
        let mut a = agent(node, json!([]));
        let (status, events) = step_with(&mut a, 1.0, set_t);
        assert_eq!(status, Status::Failure, "{reset}");
        assert_eq!(events, strs(&["check A#0 false"]), "{reset}");
        assert!(t_is_set(&a), "{reset}");
    }
}

#[test]
fn rule32_short_circuit_does_not_evaluate_or_consume_trigger() {
    let node = scripted_with(
        "A",
        &["success"],
        json!([gate(), check_trigger("Immediate")]),
    );
    let mut a = agent(node, go());
    bb_set(&mut a, "go", json!(false));
    let (status, events) = step_with(&mut a, 1.0, set_t);
    assert_eq!(status, Status::Failure);
    assert_eq!(checks(&events), strs(&["check A#0 false"]));
    assert!(t_is_set(&a));
    bb_set(&mut a, "go", json!(true));
    assert_eq!(step(&mut a).0, Status::Success);
    assert!(!t_is_set(&a));
}

#[test]
fn rule32_set_trigger_leaf_sets_it_and_succeeds() {
    let root = seq(
        "S",
        vec![
            json!({"type": "SetTrigger", "name": "Set", "params": {"trigger": "t"}}),
            scripted_with("A", &["success"], json!([check_trigger("Immediate")])),
        ],
    );
    let mut a = agent(root, json!([]));
    let (status, events) = step(&mut a);
    assert_eq!(status, Status::Success);
    assert!(events.contains(&"tick Set success".to_owned()));
    assert!(events.contains(&"check A#0 true".to_owned()));
    assert!(!t_is_set(&a));
}

#[test]
fn rule32_unknown_trigger_is_refused() {
    let mut a = agent(
        scripted_with("A", &["success"], json!([check_trigger("Immediate")])),
        json!([]),
    );
    assert!(!a.set_trigger("other"));
    assert_eq!(a.triggers_set().count(), 0);
}
