//! Generates the trees the differential test runs (tests/differential.rs): every project
//! tree file that loads with the built-in kinds and the declared host types, and
//! `ARBOR_CODEGEN_TREES` (default 300) random trees (gen/random_tree.rs), each compiled to
//! Rust with `arbor_runtime::codegen::generate`, as a program's build script would.

#[path = "gen/json_files.rs"]
mod json_files;
#[path = "gen/random_tree.rs"]
mod random_tree;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arbor_runtime::codegen::{generate, Options};
use arbor_runtime::NodeTypes;

const DEFAULT_TREES: u64 = 300;

fn main() {
    println!("cargo:rerun-if-env-changed=ARBOR_CODEGEN_TREES");
    println!("cargo:rerun-if-changed=gen/random_tree.rs");
    println!("cargo:rerun-if-changed=gen/json_files.rs");
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest_dir.join("../..");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let count = std::env::var("ARBOR_CODEGEN_TREES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_TREES);

    let mut types = NodeTypes::builtin();
    let mut manifests: Vec<PathBuf> = json_files::json_files(&root.join("samples/manifests"));
    manifests.push(root.join("runtime/tests/data/cli/host_types.json"));
    for m in &manifests {
        println!("cargo:rerun-if-changed={}", m.display());
        let text = std::fs::read_to_string(m).expect("manifest readable");
        types.merge_manifest(&text).expect("manifest valid");
    }
    types
        .merge_manifest(random_tree::HOST_MANIFEST)
        .expect("the random trees' manifest is valid");

    let mut project: Vec<PathBuf> = Vec::new();
    for dir in [
        "samples/trees",
        "samples/trees/lib",
        "runtime/tests/data/good",
        "runtime/tests/data/good/lib",
        "runtime/tests/data/cli",
    ] {
        project.extend(
            json_files::json_files(&root.join(dir))
                .into_iter()
                .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"arbor-tree\""))),
        );
    }

    let mut modules = String::new();
    let mut table = String::from("pub static TREES: &[Tree] = &[\n");
    let mut skipped = Vec::new();
    let generate_at = |path: &Path, generator: &str| {
        let include = path.display().to_string();
        let options = Options {
            include_path: &include,
            generator,
        };
        generate(path, &types, &options).map(|code| (code, include))
    };
    let mut k = 0;
    // How many generated modules emit each of the walks' lifecycle calls, so that the test
    // shows the random trees exercise them.
    let mut coverage = Coverage::default();
    let random_dir = out.join("random");
    std::fs::create_dir_all(&random_dir).expect("OUT_DIR writable");
    let random: Vec<PathBuf> = (0..count)
        .map(|i| {
            let path = random_dir.join(format!("r{i}.json"));
            std::fs::write(&path, random_tree::tree(i)).expect("OUT_DIR writable");
            path
        })
        .collect();
    for path in &project {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let all = project
        .iter()
        .map(|p| (p, false))
        .chain(random.iter().map(|p| (p, true)));
    for (path, is_random) in all {
        let path = path.canonicalize().expect("tree file exists");
        match generate_at(&path, "arbor-codegen-check/build.rs") {
            Ok((code, include)) => {
                let module = Module {
                    out: &out,
                    name: format!("t{k}"),
                    include: &include,
                };
                coverage.count(&code);
                module.write(&code, "", is_random, &mut modules, &mut table);
                k += 1;
            }
            Err(e) => skipped.push((path.display().to_string(), is_random, e.to_string())),
        }
    }
    table.push_str("];\n");

    // Mutants: generated code with a deliberately wrong loop (a loop resuming at its second
    // child skips it), for the test that shows the comparison catches such a bug.
    table.push_str("pub static MUTANTS: &[Tree] = &[\n");
    let mut made = 0;
    for path in &random {
        if made == 12 {
            break;
        }
        let Ok((code, include)) = generate_at(path, "arbor-codegen-check/build.rs (mutant)") else {
            continue;
        };
        if !code.contains("1 => break 'c1,") {
            continue;
        }
        let module = Module {
            out: &out,
            name: format!("m{made}"),
            include: &include,
        };
        module.write(
            &code.replacen("1 => break 'c1,", "1 => break 'c2,", 1),
            "#[allow(unused_labels)] // the mutation leaves `'c1` unused\n",
            true,
            &mut modules,
            &mut table,
        );
        made += 1;
    }
    table.push_str("];\n");

    // Walk mutants: generated code whose pre-empting child leaves the running child
    // running (the first abort of a walk dropped).
    table.push_str("pub static WALK_MUTANTS: &[Tree] = &[\n");
    let mut made = 0;
    for path in &random {
        if made == 12 {
            break;
        }
        let Ok((code, include)) = generate_at(path, "arbor-codegen-check/build.rs (walk mutant)")
        else {
            continue;
        };
        let Some(at) = code.find("x.abort_child::<") else {
            continue;
        };
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        let module = Module {
            out: &out,
            name: format!("w{made}"),
            include: &include,
        };
        let mutant = format!("{}let _ = current{}", &code[..at], &code[at + end..]);
        module.write(&mutant, "", true, &mut modules, &mut table);
        made += 1;
    }
    table.push_str("];\n");
    let _ = writeln!(
        table,
        "pub static COVERAGE: Coverage = Coverage {{ decorated: {}, preempting: {}, rechecking: {} }};",
        coverage.decorated, coverage.preempting, coverage.rechecking
    );
    let mut skipped_text = String::from("pub static SKIPPED: &[(&str, bool, &str)] = &[\n");
    for (path, random, why) in &skipped {
        let _ = writeln!(skipped_text, "    ({path:?}, {random}, {why:?}),");
    }
    skipped_text.push_str("];\n");
    std::fs::write(
        out.join("trees.rs"),
        format!("{modules}\n{table}\n{skipped_text}"),
    )
    .expect("OUT_DIR writable");
}

/// One generated module written to `OUT_DIR`.
struct Module<'a> {
    out: &'a Path,
    name: String,
    /// The tree file, as the module's `include_str!` names it.
    include: &'a str,
}

impl Module<'_> {
    /// Writes `code`, and lists the module (with `attributes`) in `modules` and its tree in
    /// `table`.
    fn write(
        &self,
        code: &str,
        attributes: &str,
        random: bool,
        modules: &mut String,
        table: &mut String,
    ) {
        let Module { out, name, include } = self;
        let file = out.join(format!("{name}.rs"));
        std::fs::write(&file, code).expect("OUT_DIR writable");
        let _ = writeln!(
            modules,
            "{attributes}pub mod {name} {{ include!({:?}); crate::direct!(); }}",
            file.display().to_string()
        );
        let _ = writeln!(
            table,
            "    Tree {{ path: {include:?}, random: {random}, load: {name}::load::<crate::Host>, direct: {name}::direct }},"
        );
    }
}

/// Counts of generated modules by what their walks call (`codegen::support::Fixed`).
#[derive(Default)]
struct Coverage {
    /// A decorated Sequence or Selector: the general lifecycle around an emitted walk.
    decorated: usize,
    /// A child that pre-empts or fails the node while a later one runs (an abort).
    preempting: usize,
    /// A Sequence re-checking an earlier child's LowerPriority/Both conditions.
    rechecking: usize,
}

impl Coverage {
    fn count(&mut self, code: &str) {
        self.decorated += usize::from(code.contains("x.full_start::<"));
        self.preempting += usize::from(code.contains("x.abort_child::<"));
        self.rechecking += usize::from(code.contains("x.lower_priority_holds::<"));
    }
}
