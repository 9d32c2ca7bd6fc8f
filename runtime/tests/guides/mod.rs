//! The guides' Rust snippets are compiled as doctests (the `guides` module of src/lib.rs
//! includes each guide); this checks that no guide with a Rust snippet is left out, and
//! that no snippet opts out of compiling.

use std::path::Path;

#[test]
fn every_guide_with_rust_snippets_is_compiled_as_doctests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The runtime's lib includes its guides; the Bevy crate's lib includes docs/bevy.md.
    let lib = std::fs::read_to_string(root.join("runtime/src/lib.rs")).expect("lib.rs")
        + &std::fs::read_to_string(root.join("runtime/bevy/src/lib.rs")).expect("bevy lib.rs");
    let mut guides = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("a docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            guides.push(path);
        }
    }
    let mut missing = Vec::new();
    for path in guides {
        let text = std::fs::read_to_string(&path).expect("a guide");
        let name = path
            .strip_prefix(&root)
            .expect("under the workspace")
            .display()
            .to_string();
        for line in text.lines().map(str::trim_start) {
            if let Some(lang) = line.strip_prefix("```rust") {
                assert!(
                    !["ignore", "no_run", "compile_fail"]
                        .iter()
                        .any(|opt| lang.contains(opt)),
                    "{name}: `{line}`: snippets compile and run"
                );
            }
        }
        let has_rust = text.lines().any(|l| l.trim_start().starts_with("```rust"));
        let included = lib.contains(&format!("include_str!(\"../../{name}\")"))
            || lib.contains(&format!("include_str!(\"../../../{name}\")"));
        if has_rust && !included {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "guides with Rust snippets not compiled by src/lib.rs's `guides` module: {missing:?}"
    );
}
