//! Work linear in the input: proved with the runtime's work
//! counters (`arbor_runtime::work`) on inputs of size n and 4n, never with a clock.

use arbor_runtime::btcpp::{import_file, import_str, ImportOptions};
use arbor_runtime::work::{measure, Counter};
use arbor_runtime::{check_str, LoadOptions, NodeTypes};
use serde_json::{json, Value};

use super::{grows_linearly, scratch};
use crate::common::tree_json;

fn many_keys(n: usize) -> String {
    let keys: Vec<Value> = (0..n)
        .map(|i| json!({"key": format!("key{i}"), "type": "int"}))
        .collect();
    tree_json(
        json!({"type": "Wait", "params": {"seconds": 1.0}}),
        json!(keys),
    )
    .to_string()
}

#[test]
fn declaring_many_blackboard_keys_is_linear() {
    let types = NodeTypes::builtin();
    let opts = LoadOptions::default();
    let work = |n| {
        let text = many_keys(n);
        let (report, work) = measure(Counter::KeyNames, || check_str(&text, None, &types, &opts));
        assert!(report.is_ok(), "{:?}", report.problems);
        work
    };
    let (small, large) = (work(5_000), work(20_000));
    // One lookup per key (it was one comparison per key already declared).
    assert_eq!(small, 5_000);
    assert!(grows_linearly(small, large, 5), "{small} -> {large}");
}

/// `n` SetBlackboard nodes writing undeclared keys, next to `declared` declared ones of
/// the same length (so no candidate is skipped by its length alone).
fn undeclared_uses(n: usize, declared: usize) -> String {
    let keys: Vec<Value> = (0..declared)
        .map(|i| json!({"key": format!("decl{i:06}"), "type": "int"}))
        .collect();
    let children: Vec<Value> = (0..n)
        .map(|i| {
            json!({"type": "SetBlackboard", "params": {"key": format!("miss{i:06}"), "value": 1}})
        })
        .collect();
    tree_json(
        json!({"type": "Sequence", "children": children}),
        json!(keys),
    )
    .to_string()
}

#[test]
fn did_you_mean_work_is_bounded_however_many_keys_are_undeclared() {
    let types = NodeTypes::builtin();
    let opts = LoadOptions::default();
    let work = |n| {
        let text = undeclared_uses(n, 2_000);
        let (report, work) = measure(Counter::SuggestCells, || {
            check_str(&text, None, &types, &opts)
        });
        let undeclared = report
            .problems
            .iter()
            .filter(|p| p.message().contains("is not declared"))
            .count();
        assert_eq!(undeclared, n);
        work
    };
    let (small, large) = (work(500), work(2_000));
    // At most 100 lookups of at most 250,000 cells each, however many keys are missing.
    assert!(large <= 100 * 250_000, "{large} cells");
    assert!(grows_linearly(small, large, 2), "{small} -> {large}");
}

#[test]
fn the_first_misspellings_still_get_suggestions() {
    let text = tree_json(
        json!({"type": "SetBlackboard", "params": {"key": "countr", "value": 1}}),
        json!([{"key": "counter", "type": "int"}]),
    )
    .to_string();
    let report = check_str(&text, None, &NodeTypes::builtin(), &LoadOptions::default());
    assert!(
        report.problems[0]
            .message()
            .contains("did you mean `counter`"),
        "{:?}",
        report.problems
    );
}

fn wide_sequence(n: usize) -> String {
    let mut xml = String::from(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n<BehaviorTree ID=\"Main\">\n<Sequence>\n",
    );
    for _ in 0..n {
        xml.push_str("  <AlwaysSuccess/>\n");
    }
    xml.push_str("</Sequence>\n</BehaviorTree>\n</root>\n");
    xml
}

#[test]
fn importing_a_wide_sequence_is_linear() {
    let work = |n| {
        let xml = wide_sequence(n);
        let (imported, work) = measure(Counter::XmlPositionBytes, || {
            import_str(&xml, &ImportOptions::new("wide"))
        });
        let imported = imported.expect("imports");
        assert_eq!(imported.main().nodes.len(), n + 1);
        // Each byte is scanned at most once for positions.
        assert!(work <= xml.len() as u64, "{work} > {}", xml.len());
        work
    };
    let (small, large) = (work(2_000), work(8_000));
    assert!(grows_linearly(small, large, 5), "{small} -> {large}");
}

#[test]
fn an_import_over_the_loaders_node_limit_is_refused_with_a_located_error() {
    let xml = wide_sequence(100_001);
    let err = import_str(&xml, &ImportOptions::new("huge")).expect_err("over the limit");
    let text = err.to_string();
    assert!(
        text.contains(
            ":3:1: <BehaviorTree ID=\"Main\"> has 100002 nodes; Arbor loads at most 100000"
        ),
        "{text}"
    );
}

#[test]
fn includes_are_confined_to_the_imported_documents_folder() {
    let dir = scratch("include-confined");
    let inner = dir.join("project");
    std::fs::create_dir_all(&inner).expect("folder");
    std::fs::write(dir.join("outside.xml"), "<root BTCPP_format=\"4\"/>").expect("write");
    for path in ["/etc/passwd", "../outside.xml"] {
        let main = inner.join("main.xml");
        std::fs::write(
            &main,
            format!(
                "<root BTCPP_format=\"4\">\n  <include path=\"{path}\"/>\n  <BehaviorTree ID=\"Main\"><AlwaysSuccess/></BehaviorTree>\n</root>\n"
            ),
        )
        .expect("write");
        let err = import_file(&main, "main").expect_err("refused");
        let text = err.to_string();
        assert!(
            text.contains(":2:3: <include path=")
                && text.contains("is outside the imported document's folder"),
            "{text}"
        );
        assert!(
            !text.contains("root:x:0"),
            "nothing of the file was read: {text}"
        );
    }
}

/// Allocations (and reallocations) made loading the generated tree of `n` nodes
/// (`wide_tree` of docs/performance.md's loading figures), from its text.
fn allocations_to_load(n: usize) -> u64 {
    use crate::engine::counting_alloc::allocations;
    use crate::engine::reference::{registry, wide_tree};
    let text = wide_tree(n).to_string();
    let registry = registry();
    let before = allocations();
    let tree = registry.loader().load_str(&text, None);
    let made = allocations() - before;
    let tree = tree.expect("the generated tree loads");
    assert_eq!(tree.len(), n);
    assert!(tree.warnings().is_empty(), "{:?}", tree.warnings());
    made as u64
}

#[test]
fn loading_a_large_tree_is_linear_with_a_few_allocations_per_node() {
    let (small, large) = (allocations_to_load(2_500), allocations_to_load(10_000));
    assert!(grows_linearly(small, large, 5), "{small} -> {large}");
    // About 6 per node today: the GUID, name, type and child link read from the file, and
    // a host leaf's action (boxed by its factory, then shared). Copying names into the
    // compiled tree or formatting a path per node, as the loader once did, made 11.
    assert!(large <= 8 * 10_000, "{large} allocations for 10,000 nodes");
}

/// A document of `n` elements, each with a raw `&&` in an attribute (BT.CPP accepts it;
/// the import reads it as `&amp;&amp;` with a located warning each).
fn raw_ampersands(n: usize) -> String {
    let mut xml = String::from(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n<BehaviorTree ID=\"Main\">\n<Sequence>\n",
    );
    for _ in 0..n {
        xml.push_str("  <AlwaysSuccess _skipIf=\"a && b\"/>\n");
    }
    xml.push_str("</Sequence>\n</BehaviorTree>\n</root>\n");
    xml
}

#[test]
fn locating_raw_ampersand_warnings_is_linear() {
    let work = |n| {
        let xml = raw_ampersands(n);
        let (imported, work) = measure(Counter::XmlPositionBytes, || {
            import_str(&xml, &ImportOptions::new("amps"))
        });
        let imported = imported.expect("imports");
        let raw = imported
            .warnings
            .iter()
            .filter(|w| w.message.contains("raw `&`"))
            .count();
        assert_eq!(raw, 2 * n);
        // Warnings scan the text forward from the last position, and elements the
        // repaired text (longer by each escape): about two passes, however many warnings.
        assert!(work <= 3 * xml.len() as u64, "{work} > 3 * {}", xml.len());
        work
    };
    let (small, large) = (work(1_000), work(4_000));
    assert!(grows_linearly(small, large, 5), "{small} -> {large}");
}

#[test]
fn an_element_with_too_many_attributes_is_refused_before_parsing_with_a_located_error() {
    let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"1\"")).collect();
    let xml = format!(
        "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"Main\">\n  <MyAction{attrs}/>\n</BehaviorTree>\n</root>\n"
    );
    let err = import_str(&xml, &ImportOptions::new("crowded")).expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains(":3:3: the element has more than 256 attributes; Arbor reads at most 256"),
        "{text}"
    );
    // At the limit the document is read.
    let attrs: String = (0..256).map(|i| format!(" a{i}=\"1\"")).collect();
    let xml = format!(
        "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"Main\">\n  <MyAction{attrs}/>\n</BehaviorTree>\n</root>\n"
    );
    import_str(&xml, &ImportOptions::new("full")).expect("256 attributes import");
}

/// One Script node assigning `n` keys, or `n` Script nodes assigning one key each.
fn script_keys(n: usize, one_script: bool) -> String {
    let body = if one_script {
        let code: Vec<String> = (0..n).map(|i| format!("k{i} := {i}")).collect();
        format!("<Script code=\"{}\"/>", code.join("; "))
    } else {
        let scripts: String = (0..n)
            .map(|i| format!("  <Script code=\"k{i} := {i}\"/>\n"))
            .collect();
        format!("<Sequence>\n{scripts}</Sequence>")
    };
    format!(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n<BehaviorTree ID=\"Main\">\n{body}\n</BehaviorTree>\n</root>\n"
    )
}

#[test]
fn keys_inferred_from_scripts_are_found_in_linear_work() {
    for one_script in [true, false] {
        let work = |n| {
            let xml = script_keys(n, one_script);
            let (imported, work) = measure(Counter::KeySteps, || {
                import_str(&xml, &ImportOptions::new("keys"))
            });
            let imported = imported.expect("imports");
            assert_eq!(imported.main().blackboard.len(), n);
            work
        };
        let (small, large) = (work(1_000), work(4_000));
        assert!(
            grows_linearly(small, large, 5),
            "one script: {one_script}: {small} -> {large}"
        );
    }
}

/// A tree file of a Sequence over `n` leaves.
fn wide_file(n: usize) -> arbor_runtime::format::TreeFile {
    let children: Vec<Value> = (0..n)
        .map(|_| json!({"type": "Wait", "params": {"seconds": 1.0}}))
        .collect();
    let text = tree_json(json!({"type": "Sequence", "children": children}), json!([]));
    arbor_runtime::parse_str(&text.to_string(), None).expect("parses")
}

#[test]
fn exporting_a_wide_tree_is_linear() {
    let types = NodeTypes::builtin();
    let work = |n| {
        let file = wide_file(n);
        let (exported, work) =
            measure(Counter::GuidSteps, || {
                arbor_runtime::btcpp::export(&file, None, &types, &mut |_| {
                    Err("no subtrees".to_owned())
                })
            });
        let exported = exported.expect("exports");
        assert_eq!(exported.xml.matches("<Sleep").count(), n);
        work
    };
    let (small, large) = (work(2_500), work(10_000));
    assert!(grows_linearly(small, large, 5), "{small} -> {large}");
}
