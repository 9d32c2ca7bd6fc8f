//! The engine the runtime's own test binary runs the helpers' trees on: the interpreter.
//! runtime/codegen-semantics includes the same test modules with an engine of its own
//! (generated code); this hook is all that differs between the two suites.

use arbor_runtime::{CompiledTree, LoadError, Registry};

/// Loads a tree's text with the built-in node types.
pub fn load(text: &str) -> Result<CompiledTree<()>, LoadError> {
    Registry::<()>::new().loader().load_str(text, None)
}
