//! Renamed node types and parameters: the old names a type declares (`aliases`) load with a
//! warning naming the new name, the manifest lists the type once under its new name, and
//! `migrate` (and `arbor migrate`, tests/tools/cli.rs) rewrites a file to the new names.

use std::sync::Arc;

use arbor_runtime::{
    check_str, migrate, parse_str, Agent, LoadOptions, NodeDecl, NodeType, NodeTypes, ParamKind,
    ParamSpec, Registry, Renamed, Severity, Status,
};
use serde_json::json;

use crate::common::tree_json;

/// `Stride` was `Walk`, its `pace` was `speed`; the attached condition `IsCalm` was
/// `Calm`, its `level` was `threshold`.
pub(crate) fn renamed_types() -> NodeTypes {
    let mut types = NodeTypes::builtin();
    types.insert(
        NodeType::action("Stride", "Walks.")
            .alias("Walk")
            .param(ParamSpec::new("pace", ParamKind::Float, "Steps per tick.").alias("speed")),
    );
    types.insert(
        NodeType::condition("IsCalm", "Calm enough.")
            .alias("Calm")
            .param(ParamSpec::new("level", ParamKind::Int, "At most.").alias("threshold")),
    );
    types
}

fn old_file() -> String {
    tree_json(
        json!({"type": "Sequence", "children": [
            {"type": "Walk", "name": "go", "params": {"speed": 2.0},
             "decorators": [{"type": "Calm", "params": {"threshold": 3}}]}
        ]}),
        json!([]),
    )
    .to_string()
}

#[test]
fn an_old_file_loads_with_a_warning_naming_each_new_name() {
    let report = check_str(&old_file(), None, &renamed_types(), &LoadOptions::default());
    assert!(report.is_ok(), "{:?}", report.problems);
    let warnings: Vec<String> = report
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Warning)
        .map(ToString::to_string)
        .collect();
    let expected = [
        "$.nodes[1].type (node \"go\" (Stride)): node type `Walk` is now called `Stride`; \
         `arbor migrate` rewrites the file",
        "$.nodes[1].params.speed (node \"go\" (Stride)): parameter `speed` is now called \
         `pace`",
        "$.nodes[1].decorators[0].type (node \"go\" (Stride)): node type `Calm` is now called \
         `IsCalm`",
        "$.nodes[1].decorators[0].params.threshold (node \"go\" (Stride)): parameter \
         `threshold` is now called `level`",
    ];
    for needle in expected {
        assert_eq!(
            warnings.iter().filter(|w| w.contains(needle)).count(),
            1,
            "{needle}: {warnings:#?}"
        );
    }
    assert_eq!(warnings.len(), 4, "{warnings:#?}");
}

#[test]
fn an_old_file_runs_the_renamed_types_code() {
    let mut registry = Registry::<f64>::new();
    let mut stride = NodeDecl::<f64>::action("Stride", "Walks.").alias("Walk");
    let pace = stride.input::<f64>("pace").alias("speed").required();
    registry.add(stride.tick(move |cx| {
        *cx.agent += cx.get(&pace).unwrap_or(0.0);
        Status::Success
    }));
    let tree = registry.loader().load_str(
        &tree_json(
            json!({"type": "Sequence", "children": [
                {"type": "Walk", "params": {"speed": 2.5}}
            ]}),
            json!([]),
        )
        .to_string(),
        None,
    );
    let tree = tree.expect("an old file loads");
    assert_eq!(tree.warnings().len(), 2, "{:?}", tree.warnings());
    let mut agent = Agent::new(Arc::new(tree), 1);
    let mut walked = 0.0;
    agent.tick(&mut walked, 1.0);
    assert_eq!(walked, 2.5);
    // The manifest lists the type once, by its new name, with its old one as an alias.
    let manifest: serde_json::Value =
        serde_json::from_str(&registry.manifest()).expect("manifest JSON");
    let names: Vec<&str> = manifest["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["Stride"]);
    assert_eq!(manifest["nodes"][0]["aliases"], json!(["Walk"]));
    assert_eq!(
        manifest["nodes"][0]["params"][0]["aliases"],
        json!(["speed"])
    );
}

#[test]
fn migrate_rewrites_old_names_and_saves_the_new_ones() {
    let types = renamed_types();
    let mut file = parse_str(&old_file(), None).expect("parses");
    let renames = migrate(&mut file, &types);
    let shown: Vec<String> = renames.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "$.nodes[1].type: type `Walk` -> `Stride`",
            "$.nodes[1].params.speed: parameter `speed` -> `pace`",
            "$.nodes[1].decorators[0].type: type `Calm` -> `IsCalm`",
            "$.nodes[1].decorators[0].params.threshold: parameter `threshold` -> `level`",
        ]
    );
    assert_eq!(renames[0].what, Renamed::Type);
    let saved = file.to_json_pretty();
    // Names are free text and stay as they are; types and parameter keys are renamed.
    for old in [
        "\"type\": \"Walk\"",
        "\"speed\":",
        "\"type\": \"Calm\"",
        "\"threshold\":",
    ] {
        assert!(!saved.contains(old), "{old} in {saved}");
    }
    // The rewritten file loads with no warning, and migrating again changes nothing.
    let report = check_str(&saved, None, &types, &LoadOptions::default());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(migrate(&mut file, &types).is_empty());
}

#[test]
fn a_current_name_is_never_rewritten_and_a_given_new_name_wins() {
    let mut types = renamed_types();
    // `Walk` is an alias of Stride, but also a current type: the current type wins.
    types.insert(NodeType::action("Walk", "Another walk."));
    let text = tree_json(
        json!({"type": "Sequence", "children": [
            {"type": "Walk"},
            {"type": "Stride", "params": {"pace": 1.0, "speed": 2.0}}
        ]}),
        json!([]),
    )
    .to_string();
    let mut file = parse_str(&text, None).expect("parses");
    assert!(migrate(&mut file, &types).is_empty());
    let report = check_str(&text, None, &types, &LoadOptions::default());
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.is_error() && p.to_string().contains("unknown parameter `speed`")),
        "{:?}",
        report.problems
    );
}
