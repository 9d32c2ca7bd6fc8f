//! Code generation: a tree file compiled to a Rust module that runs it with the
//! interpreter's semantics (docs/embedding.md, "Generated code"; `arbor codegen`).
//!
//! The module embeds the tree file and loads it with the same [`crate::Loader`] at
//! construction, so parameters, bindings and scripts are the file's; it then checks the
//! compiled tree against the shape it was generated for and installs itself on the tree
//! ([`crate::CompiledTree::is_generated`]). Agents of that tree tick the generated code;
//! everything else (blackboard, clock, events, triggers, halt, reload, tracing) is the
//! agent's as usual. Only the hot shapes are emitted as straight-line code: the root,
//! plain Sequences and Selectors, decorator-free host leaves. Every other node is ticked
//! by the interpreter's own code, so the semantics have one implementation.

mod emit;
pub(crate) mod fingerprint;
mod plan;
#[doc(hidden)]
pub mod support;

use std::path::Path;

use crate::compile::{compile_unbound, LoadError, LoadOptions};
use crate::spec::NodeTypes;

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
/// Result<Arc<CompiledTree<C>>, LoadError>`, `SOURCE` (the embedded file) and `PATH`.
pub fn generate(
    path: &Path,
    types: &NodeTypes,
    options: &Options<'_>,
) -> Result<String, LoadError> {
    let tree = compile_unbound(path, types, &LoadOptions::default())?;
    let plan = plan::Plan::of(&tree);
    Ok(emit::module(&tree, &plan, options))
}
