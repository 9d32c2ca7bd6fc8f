//! Compiles the card duel's tree to Rust with `arbor_runtime::codegen::generate`, as any
//! program embedding a tree would (docs/embedding.md, "Generated code"): the module lands
//! in `OUT_DIR` and `src/card_duel/generated.rs` includes it. The node types are the
//! built-in kinds plus the sample's manifest, which tests/trees.rs keeps equal to the
//! registry's own declarations.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let tree = dir.join("trees/card_duel.json");
    let manifest = dir.join("manifests/card_duel.json");
    println!("cargo:rerun-if-changed={}", tree.display());
    println!("cargo:rerun-if-changed={}", manifest.display());

    let mut types = arbor_runtime::NodeTypes::builtin();
    let text = std::fs::read_to_string(&manifest).expect("the card duel's manifest is readable");
    types
        .merge_manifest(&text)
        .expect("the card duel's manifest is valid");
    let include = tree.display().to_string();
    let options = arbor_runtime::codegen::Options {
        include_path: &include,
        generator: "samples/build.rs",
    };
    // A tree that does not load fails the build with the loader's located messages.
    let code = match arbor_runtime::codegen::generate(&tree, &types, &options) {
        Ok(code) => code,
        Err(e) => panic!("{e}"),
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("card_duel_tree.rs"), code).expect("OUT_DIR is writable");
}
