//! Generates a Rust module per tree of `trees/` (the trees the runtime's semantic tests
//! compile, dumped by `dump.sh`) with `arbor_runtime::codegen::generate`, as a program's
//! build script would, and the tables src/lib.rs exposes: hash → generated `load`, the
//! trees the generator refused (with why), and mutants (generated code with one loop
//! deliberately wrong) for the test that shows the suite catches a wrong program.

#[path = "../codegen-check/gen/json_files.rs"]
mod json_files;

use std::fmt::Write as _;
use std::path::PathBuf;

use arbor_runtime::codegen::{generate, Options};
use arbor_runtime::NodeTypes;

/// The wrong loop of a mutant: a Sequence/Selector resuming at its second child skips it
/// and resumes at the third (the same mutation runtime/codegen-check uses).
const RIGHT: &str = "1 => break 'c1,";
const WRONG: &str = "1 => break 'c2,";
/// How generated code starts a Sequence/Selector it emitted as straight-line code: with
/// the loop's lifecycle, or a decorated one's general lifecycle.
const LOOPS: [&str; 2] = ["x.loop_start::<", "x.full_start::<"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let dir = manifest_dir.join("trees");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed=../codegen-check/gen/json_files.rs");

    // The helpers' trees use the built-in node types only (`Registry::<()>::new()`).
    let types = NodeTypes::builtin();
    let mut modules = String::new();
    let mut trees = String::from("pub static TREES: &[Tree] = &[\n");
    let mut mutants = String::from("pub static MUTANTS: &[Tree] = &[\n");
    let mut refused = String::from("pub static REFUSED: &[(&str, &str)] = &[\n");
    // Sorted by name, so by hash: the tables are searched by it.
    for path in json_files::json_files(&dir) {
        let Some(hash) = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else {
            continue;
        };
        let include = path.display().to_string();
        let options = Options {
            include_path: &include,
            generator: "arbor-codegen-semantics/build.rs",
        };
        // A tree the loader refuses (a test of load errors through `try_compile`) has no
        // code; the test engine checks that the interpreter refuses it too.
        let code = match generate(&path, &types, &options) {
            Ok(code) => code,
            Err(e) => {
                let _ = writeln!(refused, "    ({hash:?}, {:?}),", e.to_string());
                continue;
            }
        };
        let mut add = |name: &str, code: &str, table: &mut String| {
            let module = out.join(format!("{name}.rs"));
            std::fs::write(&module, code).expect("OUT_DIR writable");
            // A mutant's skipped block leaves its label unused.
            let allow = if name.starts_with('m') {
                "#[allow(unused_labels)] "
            } else {
                ""
            };
            let _ = writeln!(
                modules,
                "{allow}pub mod {name} {{ include!({:?}); }}",
                module.display().to_string()
            );
            let _ = writeln!(
                table,
                "    Tree {{ hash: {hash:?}, source: {name}::SOURCE, load: {name}::load::<()>, \
                 loops: {} }},",
                LOOPS.iter().map(|l| code.matches(l).count()).sum::<usize>()
            );
        };
        add(&format!("t_{hash}"), &code, &mut trees);
        if code.contains(RIGHT) {
            add(
                &format!("m_{hash}"),
                &code.replacen(RIGHT, WRONG, 1),
                &mut mutants,
            );
        }
    }
    for table in [&mut trees, &mut mutants, &mut refused] {
        table.push_str("];\n");
    }
    std::fs::write(
        out.join("trees.rs"),
        format!("{modules}\n{trees}\n{mutants}\n{refused}"),
    )
    .expect("OUT_DIR writable");
}
