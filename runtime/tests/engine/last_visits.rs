//! `LastVisits` against the full trace: over ticks of a tree with running children,
//! aborts (rule 28: a LowerPriority condition interrupting a running sibling) and a Parallel,
//! it holds exactly each node's last event of the tick, read from a `Recorder` of the same
//! tick, and nothing of earlier ticks.

use crate::common;

use std::collections::BTreeMap;

use arbor_runtime::{LastVisits, NodeId, Observer, Recorded, Recorder, TraceEvent, Visit};
use common::{bb_set, compile, scripted, scripted_with, sel, seq};
use serde_json::json;

/// Each node's last lifecycle event in `rec`, as a visit.
fn last_from(rec: &Recorder) -> BTreeMap<usize, Visit> {
    let mut last = BTreeMap::new();
    for e in &rec.events {
        let (node, visit) = match e {
            Recorded::Enter(n) => (n, Visit::Running),
            Recorded::Tick(n, s) | Recorded::Exit(n, Some(s)) => (n, Visit::from_status(*s)),
            Recorded::Exit(n, None) | Recorded::Abort(n) => (n, Visit::Aborted),
            Recorded::Check { .. } | Recorded::Log(..) => continue,
        };
        last.insert(node.index(), visit);
    }
    last
}

/// Feeds one tick's events to both observers.
struct Both<'a>(&'a mut Recorder, &'a mut LastVisits);

impl Observer for Both<'_> {
    fn event(&mut self, event: TraceEvent<'_>) {
        self.0.event(event);
        self.1.event(event);
    }
}

#[test]
fn last_visits_hold_each_nodes_last_event_of_the_tick_and_nothing_older() {
    let root = sel(
        "Root",
        vec![
            scripted_with(
                "Guard",
                &["success"],
                json!([{"type": "Condition",
                        "params": {"key": "alarm", "equals": true, "abort": "LowerPriority"}}]),
            ),
            seq(
                "Work",
                vec![
                    scripted("Step", &["success"]),
                    scripted("Long", &["running", "running", "running", "success"]),
                ],
            ),
        ],
    );
    let tree = compile(
        root,
        json!([{"key": "alarm", "type": "bool", "default": false}]),
    );
    let mut agent = arbor_runtime::Agent::new(tree.clone(), 1);
    let mut visits = LastVisits::new(tree.len());
    let mut seen_abort = false;
    for tick in 0..8 {
        if tick == 2 {
            bb_set(&mut agent, "alarm", json!(true)); // interrupts the running Work
        }
        if tick == 4 {
            bb_set(&mut agent, "alarm", json!(false));
        }
        let mut rec = Recorder::default();
        visits.next_tick();
        let status = agent.tick_traced(&mut (), 1.0, &mut Both(&mut rec, &mut visits));
        let expected = last_from(&rec);
        let got: BTreeMap<usize, Visit> = visits.visited().map(|(n, v)| (n.index(), v)).collect();
        assert_eq!(got, expected, "tick {tick} ({status:?})");
        seen_abort |= got.values().any(|v| *v == Visit::Aborted);
        for i in 0..tree.len() {
            let id = NodeId::from_index(i);
            assert_eq!(visits.get(id), expected.get(&i).copied());
        }
    }
    assert!(seen_abort, "the guard's abort shows as Aborted");
}
