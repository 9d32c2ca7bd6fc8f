//! The `custom_nodes` example's code (runtime/examples/shared/custom_nodes.rs), run as the
//! example runs it: a weighted random selector and a cooldown decorator written with the
//! public API, over its tree file, for 12 ticks.

#[path = "../../examples/shared/custom_nodes.rs"]
mod custom_nodes;

#[test]
fn the_custom_nodes_example_runs_its_tree_and_traces_both_nodes() {
    let lines = match custom_nodes::run(12) {
        Ok(lines) => lines,
        Err(e) => panic!("the example fails: {e}"),
    };
    let ticks = lines.iter().filter(|l| l.starts_with("tick ")).count();
    assert_eq!(ticks, 12, "{lines:#?}");
    // The cooldown lets Shoot run on ticks 1, 4, 7 and 10 (three seconds apart, dt 1) and
    // fails without ticking it in between.
    let shots = lines
        .iter()
        .filter(|l| l.trim() == "tick  Shoot -> success")
        .count();
    assert_eq!(shots, 4, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.trim() == "tick  Recharge -> failure"),
        "{lines:#?}"
    );
    // The weighted choice ran its children in between.
    assert!(
        lines.iter().any(|l| l.trim().starts_with("tick  Patrol")),
        "{lines:#?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("4 shots")),
        "{lines:#?}"
    );
}

/// The same seed gives the same trace (rule 2): the random choice is the agent's.
#[test]
fn the_custom_nodes_example_is_deterministic() {
    let run = || custom_nodes::run(12).map_err(|e| e.to_string());
    assert_eq!(run(), run());
}
