//! A tick's work is bounded however loops nest (docs/semantics.md rule 81): three nested
//! `Repeat count=1000` over one Script, a 4-node file that `arbor check` accepts, would run
//! the script a billion times in one tick if each loop were bounded alone.

use std::path::PathBuf;

use arbor_runtime::{
    Agent, LoadOptions, NodeTypes, Registry, Status, TraceEvent, LOOP_BUDGET_PER_TICK,
};

fn nested_repeats() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/limits/nested_repeats.json")
}

#[test]
fn rule81_three_nested_repeats_run_at_most_the_budget_in_one_tick() {
    let path = nested_repeats();
    let report = arbor_runtime::check_file(&path, &NodeTypes::builtin(), &LoadOptions::default());
    assert!(report.is_ok(), "{:?}", report.problems);
    let tree = Registry::<()>::new()
        .loader()
        .load_file(&path)
        .expect("the file loads");
    let script = tree
        .find("00000000-0000-4000-8000-000000000004")
        .expect("the Script node");
    let mut agent = Agent::new(std::sync::Arc::new(tree), 1);
    // The work is counted, not timed: runs of the script. Past the bound the observer
    // stops the test at once instead of letting the tick run on.
    let bound = u64::from(LOOP_BUDGET_PER_TICK) + 1;
    for tick in 1..=3u64 {
        let mut runs = 0u64;
        let mut count = |e: TraceEvent<'_>| {
            if matches!(e, TraceEvent::Tick(n, _) if n == script) {
                runs += 1;
                assert!(
                    runs <= bound,
                    "tick {tick} ran the script more than {bound} times"
                );
            }
        };
        let status = agent.tick_traced(&mut (), 1.0, &mut count);
        assert_eq!(status, Status::Running);
        assert_eq!(runs, bound, "tick {tick}");
    }
    let x = agent
        .blackboard()
        .key("x")
        .and_then(|k| agent.blackboard().get(k).cloned());
    assert_eq!(x.map(|v| v.to_json()), Some(serde_json::json!(3 * bound)));
}
