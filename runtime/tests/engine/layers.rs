//! The runtime's layering, read from the source: code generation (`src/codegen/`) builds
//! on the core, never the reverse. The core defines the hook a generated program plugs
//! into (`src/program.rs`); no other module names `codegen` in its code, so no import
//! cycle runs through it (docs/architecture.md).
//!
//! A plain text check of every source file's code lines, `//` comments skipped: enough to
//! catch an import or a qualified path, which is how a cycle starts (a message that names
//! the `arbor codegen` command is neither).

use std::path::{Path, PathBuf};

/// The files allowed to name `codegen`: the module itself, the crate root that declares
/// it, and the command-line tool that calls it.
const ALLOWED: &[&str] = &["codegen", "lib.rs", "bin"];

/// Every `.rs` file under `dir` whose first component below `src` is not allowed.
fn core_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            let top = path.strip_prefix(src).ok().and_then(|p| p.iter().next());
            if top.is_some_and(|t| ALLOWED.iter().any(|a| t == *a)) {
                continue;
            }
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The lines of `text` whose code (before any `//`) names the `codegen` module: a path
/// through it, or a `use` that lists it.
fn naming_codegen(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let code = line.split("//").next().unwrap_or("").trim();
            let listed = code.starts_with("use ")
                && code
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .any(|word| word == "codegen");
            listed || code.contains("codegen::")
        })
        .map(|(i, line)| (i + 1, line.trim()))
        .collect()
}

#[test]
fn the_core_does_not_import_code_generation() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = core_files(&src);
    // The core is most of the crate: a wrong root would find nothing and pass.
    assert!(
        files.len() > 100 && files.iter().any(|f| f.ends_with("exec/mod.rs")),
        "{} files under {}",
        files.len(),
        src.display()
    );
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (n, line) in naming_codegen(&text) {
            wrong.push(format!("{}:{n}: {line}", file.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "core modules naming `codegen` (it builds on the core through `program::Program`):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_imports_and_paths_but_not_comments() {
    let text = "use crate::codegen::support::Run;\n\
                let x: Box<dyn crate::codegen::support::Program<C>>;\n\
                use crate::{codegen, exec};\n\
                // generated code (`codegen::support`)\n\
                /// installed by `codegen::support::install`\n\
                #[error(\"run `arbor codegen` again\")]\n\
                let codegen_free = 1;";
    let found: Vec<usize> = naming_codegen(text).iter().map(|(n, _)| *n).collect();
    assert_eq!(found, vec![1, 2, 3]);
}
