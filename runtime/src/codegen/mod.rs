//! Code generation: a tree file compiled to a Rust module that runs it with the
//! interpreter's semantics (docs/embedding.md, "Generated code"; `arbor codegen`).
//!
//! The module embeds the tree file and loads it with the same [`crate::Loader`] at
//! construction, so parameters, bindings and scripts are the file's; it then checks the
//! compiled tree against the shape it was generated for and installs itself on the tree
//! ([`crate::CompiledTree::is_generated`]). Agents of that tree tick the generated code;
//! everything else (blackboard, clock, events, triggers, halt, reload, tracing) is the
//! agent's as usual. The common shapes are emitted as straight-line code: the root,
//! Sequences and Selectors (plain, `dynamic`, with children whose conditions abort lower
//! priorities, with attached decorators; not `memory` or `yield`) and decorator-free host
//! leaves. Their lifecycle, condition checks and aborts call the interpreter's own code
//! (`support`), and every other node is ticked by the interpreter's general path, so the
//! semantics have one implementation; the emitted nodes the interpreter reaches below such
//! a node are handed back to the generated code (`program::Loops`).

mod emit;
pub(crate) mod fingerprint;
mod plan;
#[doc(hidden)]
pub mod support;

use std::path::Path;
use std::sync::Arc;

use crate::compile::{compile_unbound, LoadError, LoadOptions, Problem, ProblemKind};
use crate::spec::NodeTypes;
use crate::tree::CompiledTree;

/// What [`generate`] needs besides the tree file.
#[derive(Clone, Debug)]
pub struct Options<'a> {
    /// The tree file's path as the generated code's `include_str!` names it: absolute
    /// (what a build script passes, e.g. under `CARGO_MANIFEST_DIR`) or relative to the
    /// generated file. Also the path the embedded text is loaded under, which anchors its
    /// subtree files.
    pub include_path: &'a str,
    /// Shown in the header comment: what produced the file.
    pub generator: &'a str,
}

/// Generates the Rust module for the tree file at `path`, checked against `types` (the
/// built-in kinds plus the program's host node types: [`crate::Registry::types`] or
/// manifests). Errors are the loader's, located as usual.
///
/// The module defines `pub fn load<C: 'static>(registry: &Registry<C>) ->
/// Result<Arc<CompiledTree<C>>, LoadError>`; `pub fn load_direct` (same arguments), which
/// returns a `Direct<C>` whose `tick(&mut agent, &mut data, dt)` is `agent.tick(&mut
/// data, dt)` with the code called directly, to be inlined into the caller's loop; and
/// `SOURCE` (the embedded file) and `PATH`.
pub fn generate(
    path: &Path,
    types: &NodeTypes,
    options: &Options<'_>,
) -> Result<String, LoadError> {
    let tree = compile_unbound(path, types, &LoadOptions::default())?;
    let files = embedded_names(path, &tree)?;
    let plan = plan::Plan::of(&tree);
    Ok(emit::module(&tree, &plan, &files, options))
}

/// The names the module embeds the tree's subtree files under: their paths relative to
/// the tree file's folder, `/`-separated. The loader only reads subtree files inside that
/// folder unless a program allows more; such a file cannot be embedded.
fn embedded_names<C>(path: &Path, tree: &CompiledTree<C>) -> Result<Vec<String>, LoadError> {
    let origin: Arc<str> = Arc::from(path.display().to_string());
    let problem = |message: String| LoadError {
        problems: vec![Problem::new(&origin, "$", ProblemKind::Subtree(message))],
    };
    let dir = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .ok_or_else(|| problem(format!("cannot resolve the folder of {}", path.display())))?;
    tree.subtree_files()
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(&dir).map_err(|_| {
                problem(format!(
                    "subtree file {} is outside the tree's folder {}: generated code embeds only files in that folder",
                    file.display(),
                    dir.display()
                ))
            })?;
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            Ok(parts.join("/"))
        })
        .collect()
}
