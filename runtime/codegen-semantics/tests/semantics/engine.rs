//! The engine the included tests run the helpers' trees on: each tree's generated module,
//! found by the hash of its text. The runtime's own test binary implements this module as
//! the interpreter (runtime/tests/common/interpreter.rs).

use std::io::Write as _;
use std::sync::Arc;

use arbor_codegen_semantics::generated::{MUTANTS, TREES};
use arbor_codegen_semantics::{find, refused};
use arbor_runtime::{CompiledTree, LoadError, Registry};

/// What refreshes `trees/` when a test's tree is missing.
pub const REFRESH: &str = "runtime/codegen-semantics/dump.sh";
/// Set: trees that have a mutant (build.rs) load it instead of their right program.
pub const MUTANT_ENV: &str = "ARBOR_SEMANTICS_MUTANT";
/// A file each load appends `<hash> <loops|root|refused> <test>` to (engine_checks).
pub const LOG_ENV: &str = "ARBOR_SEMANTICS_LOG";

/// Loads a tree's text as its generated module; a tree the generator refused (a load
/// error test) goes to the interpreter, which must refuse it too.
pub fn load(text: &str) -> Result<CompiledTree<()>, LoadError> {
    let hash = crate::common::tree_hash(text);
    if let Some(why) = refused(&hash) {
        log(&hash, "refused");
        return match Registry::<()>::new().loader().load_str(text, None) {
            Ok(_) => {
                panic!("tree {hash}: the generator refused it ({why}) but the interpreter loads it")
            }
            Err(e) => Err(e),
        };
    }
    let mutant = std::env::var_os(MUTANT_ENV).is_some();
    let Some(tree) = mutant
        .then(|| find(MUTANTS, &hash))
        .flatten()
        .or_else(|| find(TREES, &hash))
    else {
        panic!("tree {hash} not dumped: run {REFRESH}");
    };
    assert!(
        tree.source == text,
        "tree {hash}: trees/{hash}.json is not the text this test compiles: run {REFRESH}"
    );
    log(&hash, if tree.loops > 0 { "loops" } else { "root" });
    let loaded = (tree.load)(&Registry::new())?;
    assert!(
        loaded.is_generated(),
        "tree {hash}: no generated program installed"
    );
    match Arc::try_unwrap(loaded) {
        Ok(tree) => Ok(tree),
        Err(_) => panic!("tree {hash}: the generated load kept a second handle on the tree"),
    }
}

/// Appends one load to `LOG_ENV`'s file, named by the running test (libtest names each
/// test's thread after it).
fn log(hash: &str, how: &str) {
    let Some(path) = std::env::var_os(LOG_ENV) else {
        return;
    };
    let test = std::thread::current().name().unwrap_or("?").to_owned();
    let line = format!("{hash} {how} {test}\n");
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = written {
        panic!(
            "{LOG_ENV}: cannot append to {}: {e}",
            path.to_string_lossy()
        );
    }
}
