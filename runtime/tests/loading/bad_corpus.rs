//! The corpus of hostile and broken files (`tests/data/bad/`), kept as regression tests:
//! each is refused by the loader and by `arbor check` (exit 1, no panic), with the located
//! message listed for it in `tests/data/bad/expected.txt` (`file<TAB>text it must contain`,
//! one line per expected fragment). A new file without expectations fails the test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use arbor_runtime::Registry;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad")
}

/// File name -> fragments its error must contain.
fn expectations() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(corpus().join("expected.txt")).expect("expected.txt");
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let (file, fragment) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("expected.txt line {}: no tab", n + 1));
        map.entry(file.to_owned())
            .or_default()
            .push(fragment.to_owned());
    }
    map
}

fn files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .expect("the corpus folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_file_has_expectations_and_every_expectation_a_file() {
    let names = files();
    let expected = expectations();
    assert!(names.len() >= 25, "the corpus shrank: {names:?}");
    for name in &names {
        assert!(
            expected.contains_key(name),
            "{name} has no line in expected.txt"
        );
    }
    for name in expected.keys() {
        assert!(
            names.contains(name),
            "expected.txt names {name}, which is not in the corpus"
        );
    }
}

#[test]
fn the_loader_refuses_each_file_with_its_located_message() {
    let registry = Registry::<()>::new();
    let mut failures = Vec::new();
    for (name, fragments) in expectations() {
        match registry.loader().load_file(corpus().join(&name)) {
            Ok(_) => failures.push(format!("{name}: loaded")),
            Err(e) => {
                let text = e.to_string();
                for fragment in fragments.iter().filter(|f| !text.contains(f.as_str())) {
                    failures.push(format!("{name}: missing `{fragment}` in:\n{text}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn arbor_check_exits_1_with_the_message_and_never_panics() {
    let mut failures = Vec::new();
    for (name, fragments) in expectations() {
        let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
            .arg("check")
            .arg(corpus().join(&name))
            .output()
            .expect("arbor runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) {
            failures.push(format!("{name}: exit {:?}", out.status.code()));
        }
        if stderr.contains("panicked") {
            failures.push(format!("{name}: panicked: {stderr}"));
        }
        for fragment in fragments.iter().filter(|f| !stderr.contains(f.as_str())) {
            failures.push(format!("{name}: stderr lacks `{fragment}`:\n{stderr}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
