//! The samples' tree and manifest files: each loads with its sample's registry, is in
//! canonical form (exactly what `TreeFile::to_json_pretty` writes), lists its nodes
//! depth-first from the root with unique v4 GUIDs and a position each, and each manifest
//! equals its registry's current `manifest()`.
//!
//! After an intended change, `ARBOR_BLESS=1 cargo test -p arbor-samples --test trees`
//! rewrites the files in canonical form (trees) or from the registries (manifests).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use arbor_runtime::format::TreeFile;
use arbor_runtime::{check_tree, parse_str, LoadOptions, NodeTypes};
use arbor_samples::{all, manifests_dir, trees_dir};

fn bless() -> bool {
    std::env::var_os("ARBOR_BLESS").is_some_and(|v| v == "1")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(path: &Path) -> TreeFile {
    parse_str(&read(path), Some(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// Every tree file in `trees/`.
fn tree_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(trees_dir())
        .expect("the trees folder exists")
        .map(|e| e.expect("readable folder").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no tree file in {}",
        trees_dir().display()
    );
    files
}

fn is_v4_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit() && !c.is_ascii_uppercase(),
        })
        && b[14] == b'4'
        && matches!(b[19], b'8' | b'9' | b'a' | b'b')
}

#[test]
fn every_sample_loads_its_own_tree_without_problems() {
    for mut sim in all() {
        let outcome = sim
            .load_default()
            .unwrap_or_else(|e| panic!("{}: {e}", sim.name()));
        assert!(!outcome.reloaded);
        assert!(
            outcome.warnings.is_empty(),
            "{}: {:?}",
            sim.name(),
            outcome.warnings
        );
        let tree = sim.tree().expect("a tree after loading");
        assert_eq!(tree.name(), sim.name());
        assert!(sim.blackboard().is_some());
    }
}

#[test]
fn every_tree_file_belongs_to_a_sample() {
    let names: Vec<PathBuf> = all().iter().map(|s| s.tree_path()).collect();
    for file in tree_files() {
        assert!(
            names.contains(&file),
            "{} is not used by a sample",
            file.display()
        );
    }
    assert_eq!(tree_files().len(), names.len());
}

#[test]
fn tree_files_are_canonical() {
    let mut stale = Vec::new();
    for path in tree_files() {
        let text = read(&path);
        let canonical = parse(&path).to_json_pretty();
        if text != canonical {
            if bless() {
                std::fs::write(&path, &canonical).expect("writable tree file");
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "not in canonical form (ARBOR_BLESS=1 rewrites them): {stale:?}"
    );
}

#[test]
fn manifests_are_up_to_date() {
    let mut stale = Vec::new();
    for sim in all() {
        let path = manifests_dir().join(format!("{}.json", sim.name()));
        let current = sim.node_types().manifest_where(|t| t.host);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(current.as_str()) {
            if bless() {
                std::fs::write(&path, &current).expect("writable manifest");
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "out of date (ARBOR_BLESS=1 regenerates them): {stale:?}"
    );
}

#[test]
fn trees_check_clean_against_their_manifests_as_the_editor_would() {
    for path in tree_files() {
        let file = parse(&path);
        let editor = file.editor.as_ref().expect("editor data");
        let manifests = editor["manifests"].as_array().expect("a manifests list");
        assert_eq!(manifests.len(), 1, "{}", path.display());
        let manifest = path
            .parent()
            .expect("a folder")
            .join(manifests[0].as_str().expect("a path"));
        let mut types = NodeTypes::builtin();
        types
            .merge_manifest(&read(&manifest))
            .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
        let report = check_tree(&file, Some(&path), &types, &LoadOptions::default());
        assert!(
            report.problems.is_empty(),
            "{}: {:?}",
            path.display(),
            report.problems
        );
    }
}

#[test]
fn nodes_are_depth_first_with_unique_v4_guids_and_positions() {
    for path in tree_files() {
        let file = parse(&path);
        let where_ = path.display();
        // Depth-first pre-order from the root.
        let mut order = Vec::new();
        let mut stack = vec![file.root.clone().expect("a root")];
        while let Some(guid) = stack.pop() {
            let node = file.node(&guid).expect("children are nodes of the file");
            order.push(guid);
            stack.extend(node.children.iter().rev().cloned());
        }
        let listed: Vec<String> = file.nodes.iter().map(|n| n.guid.clone()).collect();
        assert_eq!(
            listed, order,
            "{where_}: nodes not depth-first from the root"
        );

        let editor = file.editor.as_ref().expect("editor data");
        let mut guids = vec![file.guid.clone()];
        for node in &file.nodes {
            guids.push(node.guid.clone());
            guids.extend(node.decorators.iter().map(|d| d.guid.clone()));
            let pos = &editor["positions"][&node.guid];
            assert!(
                pos.as_array().is_some_and(|p| p.len() == 2),
                "{where_}: no position for {}",
                node.name
            );
        }
        for part in ["notes", "groups"] {
            for item in editor[part].as_array().into_iter().flatten() {
                guids.push(item["guid"].as_str().expect("a guid").to_owned());
            }
        }
        let unique: HashSet<&String> = guids.iter().collect();
        assert_eq!(unique.len(), guids.len(), "{where_}: duplicate GUIDs");
        for guid in &guids {
            assert!(is_v4_uuid(guid), "{where_}: `{guid}` is not a v4 UUID");
        }
        assert!(
            editor["notes"].as_array().is_some_and(|n| !n.is_empty()),
            "{where_}: no notes"
        );
        // Left-to-right layout (the editor's): every child is right of its parent, and
        // siblings run top to bottom in execution order, as the editor orders them by y.
        let x = |g: &str| editor["positions"][g][0].as_f64().expect("a number");
        let y = |g: &str| editor["positions"][g][1].as_f64().expect("a number");
        for node in &file.nodes {
            for child in &node.children {
                assert!(
                    x(child) > x(&node.guid),
                    "{where_}: {child} left of its parent"
                );
            }
            for pair in node.children.windows(2) {
                assert!(
                    y(&pair[0]) < y(&pair[1]),
                    "{where_}: children of {} out of order by y",
                    node.name
                );
            }
        }
    }
}

#[test]
fn uuid_check_rejects_non_v4() {
    assert!(is_v4_uuid("0f8fad5b-d9cb-469f-a165-70867728950e"));
    assert!(!is_v4_uuid("00000000-0000-1000-8000-000000000000"));
    assert!(!is_v4_uuid("0F8FAD5B-D9CB-469F-A165-70867728950E"));
    assert!(!is_v4_uuid("not-a-guid"));
}
