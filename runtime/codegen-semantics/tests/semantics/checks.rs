//! Checks on the suite itself, each running this test binary again in a child process
//! (without these checks) so that it sees the whole suite: every dumped tree is compiled
//! by some test, how many tests ran on generated code, and a wrong generated program fails
//! some test (so a pass means something).

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Output};

use arbor_codegen_semantics::generated::{MUTANTS, REFUSED, TREES};

use crate::engine_under_test::{LOG_ENV, MUTANT_ENV, REFRESH};

/// This binary's tests other than these checks, with `env` set; its output.
fn suite(env: &[(&str, &str)]) -> Output {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => panic!("this test binary's path: {e}"),
    };
    // Two named threads: libtest names each test's thread after the test, which the log
    // records (with one thread, tests may run on the main thread).
    let mut child = Command::new(exe);
    child.args(["--test-threads=2", "--skip", "engine_checks::"]);
    for (k, v) in env {
        child.env(k, v);
    }
    match child.output() {
        Ok(out) => out,
        Err(e) => panic!("running the suite in a child process: {e}"),
    }
}

/// In the child process these checks do nothing (the filter skips them already; this
/// guards against a filter that does not).
fn in_child() -> bool {
    std::env::var_os(LOG_ENV).is_some() || std::env::var_os(MUTANT_ENV).is_some()
}

/// The `N` of libtest's `… N passed; M failed …` summary.
fn summary(stdout: &str, what: &str) -> usize {
    stdout
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .flat_map(|l| l.split(';'))
        .filter_map(|part| part.trim().rsplit_once(' ').filter(|(_, w)| *w == what))
        .filter_map(|(n, _)| n.rsplit(' ').next()?.parse::<usize>().ok())
        .sum()
}

#[test]
fn every_dumped_tree_is_compiled_by_the_suite_and_tests_run_generated_code() {
    if in_child() {
        return;
    }
    let log = std::env::temp_dir().join(format!("arbor-semantics-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let out = suite(&[(LOG_ENV, &log.to_string_lossy())]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the suite fails on generated code:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);

    // hash → how it loaded; test → the most generated of its loads.
    let mut hit = BTreeMap::new();
    let mut tests: BTreeMap<&str, Load> = BTreeMap::new();
    for line in text.lines() {
        let mut parts = line.splitn(3, ' ');
        let (Some(hash), Some(how), Some(test)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("malformed log line {line:?}");
        };
        let load = match how {
            "loops" => Load::Loops,
            "root" => Load::Root,
            "refused" => Load::Refused,
            _ => panic!("malformed log line {line:?}"),
        };
        hit.insert(hash, load);
        let most = tests.entry(test).or_insert(load);
        *most = (*most).max(load);
    }
    let dumped: BTreeSet<&str> = TREES
        .iter()
        .map(|t| t.hash)
        .chain(REFUSED.iter().map(|(h, _)| *h))
        .collect();
    let unused: Vec<&&str> = dumped.iter().filter(|h| !hit.contains_key(**h)).collect();
    assert!(
        unused.is_empty(),
        "{} dumped trees no test compiles any more ({unused:?}): run {REFRESH}",
        unused.len()
    );
    let passed = summary(&stdout, "passed");
    let count = |l: Load| tests.values().filter(|t| **t == l).count();
    let (loops, root) = (count(Load::Loops), count(Load::Root));
    let trees = |l: Load| hit.values().filter(|t| **t == l).count();
    println!(
        "{passed} tests passed: {loops} ran straight-line generated loops ({} trees), {root} \
         a generated program that hands its root to the interpreter's node code ({} trees), \
         {} only trees the generator refuses ({} trees: load errors, interpreter), {} no \
         helper tree (own registry: interpreter)",
        trees(Load::Loops),
        trees(Load::Root),
        count(Load::Refused),
        trees(Load::Refused),
        passed - tests.len()
    );
    assert!(
        (loops + root) * 2 > passed && loops > 0,
        "only {loops} + {root} of {passed} tests ran on generated code"
    );
}

/// How a test's tree was loaded, least generated first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Load {
    /// The generator refused the tree (a load error): the interpreter's verdict.
    Refused,
    /// Generated, with no Sequence/Selector emitted as code.
    Root,
    /// Generated, with at least one Sequence/Selector emitted as code.
    Loops,
}

#[test]
fn a_wrong_generated_program_fails_the_suite() {
    if in_child() {
        return;
    }
    assert!(!MUTANTS.is_empty(), "build.rs made no mutant to check with");
    let out = suite(&[(MUTANT_ENV, "1")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let failed = summary(&stdout, "failed");
    println!(
        "{} mutants (a loop resuming at its second child skips it): {failed} tests fail",
        MUTANTS.len()
    );
    assert!(
        !out.status.success() && failed > 0,
        "no test noticed {} wrong generated programs:\n{stdout}",
        MUTANTS.len()
    );
}

/// The dump's names are FNV-1a 64 (published test vectors) of each file's text, so a
/// file edited by hand, or a hash that changed, is caught here rather than as a missing tree.
#[test]
fn dumped_trees_are_named_by_the_fnv1a_hash_of_their_text() {
    use crate::common::tree_hash;
    assert_eq!(tree_hash(""), "cbf29ce484222325");
    assert_eq!(tree_hash("a"), "af63dc4c8601ec8c");
    assert_eq!(tree_hash("foobar"), "85944171f73967e8");
    for t in TREES {
        assert_eq!(
            tree_hash(t.source),
            t.hash,
            "trees/{}.json: run {REFRESH}",
            t.hash
        );
    }
}
