//! The editor's layering, read from the source: the arrows in docs/architecture.md point
//! one way, and this fails the build's tests when one turns round.
//!
//! - The model crate (`editor/model`: `document`, `commands`, `session`) depends on no UI
//!   crate and names none in its code.
//! - The view modules (`canvas`, `panels`, `preview`, `remote`) never import `app` (they
//!   get what they need through the `view` contract below them), nor each other, except
//!   that they all may use the `live` status contract.
//! - The contracts (`view`, `live`) import none of their users.
//! - The painter crate (`editor/viewer`) depends on egui and the runtime only: a game links
//!   it without eframe, the node-graph library or the editor.
//!
//! A plain text check on `use` paths and qualified paths (`crate::app::…`), comments
//! skipped: enough to catch an import, which is how a cycle starts.

use std::path::{Path, PathBuf};

const UI_CRATES: &[&str] = &["egui", "eframe", "egui_node_editor", "rfd"];

fn editor_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `path` (or `path` itself if it is a file).
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
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

/// The code lines of a file (line number, text), with `//` comments removed.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).expect("a readable source file");
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let code = line.split("//").next().unwrap_or("").trim();
            (!code.is_empty()).then(|| (i + 1, code.to_owned()))
        })
        .collect()
}

/// Lines of the files under `module` that refer to `crate::<other>` for each `other`.
fn imports_of(module: &str, others: &[&str]) -> Vec<String> {
    let src = editor_dir().join("src");
    let path = if src.join(module).is_dir() {
        src.join(module)
    } else {
        src.join(format!("{module}.rs"))
    };
    imports_in(&path, others)
}

fn imports_in(path: &Path, others: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in rust_files(path) {
        for (n, line) in code_lines(&file) {
            for other in others {
                let direct = format!("crate::{other}");
                let grouped = line.starts_with("use crate::{") && has_word(&line, other);
                if line.contains(&(direct.clone() + "::"))
                    || line.contains(&(direct + ";"))
                    || grouped
                {
                    found.push(format!("{}:{n}: {line}", file.display()));
                }
            }
        }
    }
    found
}

fn has_word(line: &str, word: &str) -> bool {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

#[test]
fn view_modules_do_not_import_the_app_or_each_other() {
    let rules: &[(&str, &[&str])] = &[
        ("canvas", &["app", "panels", "preview", "remote"]),
        ("panels", &["app", "canvas", "preview", "remote"]),
        ("preview", &["app", "canvas", "panels", "remote"]),
        ("remote", &["app", "canvas", "panels", "preview"]),
        (
            "view",
            &["app", "canvas", "panels", "preview", "remote", "live"],
        ),
        (
            "live",
            &["app", "canvas", "panels", "preview", "remote", "view"],
        ),
    ];
    let mut wrong = Vec::new();
    for (module, others) in rules {
        wrong.extend(imports_of(module, others));
    }
    assert!(
        wrong.is_empty(),
        "imports against the layering (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_model_crate_has_no_ui() {
    let model = editor_dir().join("model");
    let manifest = std::fs::read_to_string(model.join("Cargo.toml")).expect("model manifest");
    for line in manifest
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
    {
        let name = line.split(['=', '.', ' ']).next().unwrap_or("").trim();
        assert!(
            !UI_CRATES.contains(&name),
            "editor/model/Cargo.toml depends on a UI crate: {line}"
        );
    }
    let mut wrong = Vec::new();
    for file in rust_files(&model.join("src")) {
        for (n, line) in code_lines(&file) {
            if UI_CRATES
                .iter()
                .any(|c| has_word(&line, c) && line.contains(&format!("{c}::")))
            {
                wrong.push(format!("{}:{n}: {line}", file.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "UI code in the model:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_viewer_crate_depends_on_egui_and_the_runtime_only() {
    let manifest = std::fs::read_to_string(editor_dir().join("viewer").join("Cargo.toml"))
        .expect("viewer manifest");
    let section = manifest
        .split("\n[")
        .find(|s| s.starts_with("dependencies]"))
        .expect("a [dependencies] section");
    let names: Vec<&str> = section
        .lines()
        .skip(1)
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(['=', '.', ' ']).next().unwrap_or("").trim())
        .collect();
    assert_eq!(names, ["arbor-runtime", "egui"], "editor/viewer/Cargo.toml");
}

#[test]
fn the_check_itself_sees_an_import() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("x.rs");
    let text = "// use crate::app::UiCx; (a comment)\nuse crate::app::UiCx;\nuse crate::{app, view};\nuse crate::application;\n";
    std::fs::write(&file, text).expect("written");
    assert_eq!(imports_in(&file, &["app"]).len(), 2);
    assert!(imports_in(&file, &["canvas"]).is_empty());
}
