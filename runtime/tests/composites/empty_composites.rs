//! Rule 12 (and Arbor's rule-36 choice): a Sequence, Selector or Parallel with no children
//! returns success, at the root and below it; the loader warns about every empty composite.

use crate::common;

use arbor_runtime::{ProblemKind, Severity, Status};
use common::{agent, compile, run_n, scripted, sel, seq, step, strs, ticked};
use serde_json::json;

#[test]
fn rule12_empty_composites_at_the_root_succeed() {
    for kind in ["Sequence", "Selector", "Parallel"] {
        let root = json!({"type": kind, "name": "E"});
        let mut a = agent(root, json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "{kind}");
        assert_eq!(
            events,
            strs(&["enter E", "tick E success", "exit E success"]),
            "{kind}"
        );
        assert_eq!(run_n(&mut a, 2), vec![Status::Success; 2], "{kind}");
    }
}

#[test]
fn rule12_dynamic_and_need_params_do_not_change_empty_result() {
    for root in [
        json!({"type": "Sequence", "params": {"dynamic": true}}),
        json!({"type": "Selector", "params": {"dynamic": true}}),
        json!({"type": "Parallel", "params": {"need": 3}}),
    ] {
        let mut a = agent(root.clone(), json!([]));
        assert_eq!(step(&mut a).0, Status::Success, "{root}");
    }
}

#[test]
fn rule36_nested_empty_composites_succeed() {
    // Arbor's choice: an empty composite below the root also succeeds, so an empty
    // Selector satisfies an enclosing Sequence and an empty Sequence ends a Selector.
    for kind in ["Sequence", "Selector", "Parallel"] {
        let root = seq(
            "Outer",
            vec![
                json!({"type": kind, "name": "E"}),
                scripted("A", &["success"]),
            ],
        );
        let mut a = agent(root, json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "{kind}");
        assert_eq!(ticked(&events), strs(&["E", "A", "Outer"]), "{kind}");

        let root = sel(
            "Outer",
            vec![
                json!({"type": kind, "name": "E"}),
                scripted("A", &["success"]),
            ],
        );
        let mut a = agent(root, json!([]));
        let (status, events) = step(&mut a);
        assert_eq!(status, Status::Success, "{kind}");
        assert_eq!(ticked(&events), strs(&["E", "Outer"]), "{kind}");
    }
}

#[test]
fn rule36_loader_warns_about_empty_composites() {
    let tree = compile(
        seq(
            "Outer",
            vec![
                json!({"type": "Selector", "name": "E"}),
                scripted("A", &["success"]),
            ],
        ),
        json!([]),
    );
    let warnings: Vec<_> = tree.warnings().iter().collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].severity, Severity::Warning);
    assert_eq!(
        warnings[0].kind,
        ProblemKind::EmptyComposite("Selector".into())
    );
    assert_eq!(warnings[0].node.as_deref(), Some(common::guid(2).as_str()));

    let root_only = compile(json!({"type": "Parallel"}), json!([]));
    assert_eq!(root_only.warnings().len(), 1);
    let non_empty = compile(seq("S", vec![scripted("A", &["success"])]), json!([]));
    assert!(non_empty.warnings().is_empty());
}
