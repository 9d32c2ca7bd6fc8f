//! Bounded fuzzing on the stable toolchain: a deterministic mutation loop over
//! seed inputs for the loader, the XML importer and the debug protocol (line framing and
//! message parsing). Each target runs a fixed number of cases inside `cargo test`, sized to
//! a few seconds; `ARBOR_FUZZ_CASES=N` runs N cases per target and `ARBOR_FUZZ_SEED=S`
//! changes the sequence (docs/reliability.md, "Fuzzing longer"). A panic stops the loop
//! and the input is written to the temp folder, named in the failure, to replay it.
//!
//! Why not cargo-fuzz: it needs nightly and a sanitizer runtime, which this project does
//! not assume; `runtime/tests/loading/fuzz_loader.rs` generates structured documents with
//! proptest, this loop mutates real files byte by byte.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use arbor_runtime::btcpp::{import_str, ImportOptions};
use arbor_runtime::{check_str, LoadOptions, NodeTypes};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens worth splicing in: they reach deeper than random bytes.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b",",
    b":",
    b"null",
    b"-1",
    b"1e999",
    b"\"$key\"",
    b"\\u0000",
    b"\n",
    b"\xff",
    b"<",
    b"/>",
    b"</",
    b"&amp;",
    b"&#0;",
    b"<include path=\"/etc/passwd\"/>",
    b"<![CDATA[",
    b"<!--",
    b"\"children\"",
    b"\"type\"",
    b"\"Subtree\"",
    b"\"path\"",
];

fn mutate(rng: &mut Rng, input: &mut Vec<u8>) {
    for _ in 0..=rng.below(4) {
        let at = rng.below(input.len() + 1);
        match rng.below(6) {
            0 if !input.is_empty() => {
                let i = rng.below(input.len());
                input[i] ^= 1 << rng.below(8);
            }
            1 => input.insert(at, rng.next() as u8),
            2 if !input.is_empty() => {
                let end = (at + rng.below(32)).min(input.len());
                input.drain(at.min(end)..end);
            }
            3 if !input.is_empty() => {
                let start = rng.below(input.len());
                let end = (start + rng.below(64)).min(input.len());
                let copy = input[start..end].to_vec();
                input.splice(at..at, copy);
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
        }
    }
}

fn cases(default: usize) -> usize {
    std::env::var("ARBOR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn seed() -> u64 {
    std::env::var("ARBOR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_a4b0)
        | 1
}

/// Runs `target` on `cases` mutations of the seeds; a panic names the saved input.
fn fuzz(name: &str, seeds: &[Vec<u8>], default_cases: usize, target: impl Fn(&[u8])) {
    let mut rng = Rng(seed());
    for case in 0..cases(default_cases) {
        let mut input = seeds[rng.below(seeds.len())].clone();
        mutate(&mut rng, &mut input);
        if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
            let saved = std::env::temp_dir().join(format!("arbor-fuzz-{name}-{case}.bin"));
            let _ = std::fs::write(&saved, &input);
            panic!(
                "fuzz target {name} panicked on case {case}; input saved to {}",
                saved.display()
            );
        }
    }
}

fn files(folder: &str, ext: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("seed folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no .{ext} seed in {}", dir.display());
    out
}

#[test]
fn the_loader_never_panics_on_mutated_tree_files() {
    let seeds = files("../samples/trees", "json");
    let types = NodeTypes::builtin();
    let opts = LoadOptions::default();
    fuzz("loader", &seeds, 1_500, |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            let _ = arbor_runtime::files::text(bytes.to_vec());
            return;
        };
        let report = check_str(text, None, &types, &opts);
        for p in &report.problems {
            let line = p.to_string();
            assert!(!line.contains('\n'), "one line per problem: {line:?}");
        }
    });
}

#[test]
fn the_xml_importer_never_panics_on_mutated_documents() {
    let seeds = files("tests/data/btcpp", "xml");
    fuzz("xml", &seeds, 800, |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        // No folder: includes are skipped with a warning, nothing is read from disk.
        if let Err(e) = import_str(text, &ImportOptions::new("fuzz")) {
            assert!(!e.problems.is_empty());
        }
    });
}

#[cfg(feature = "debug-protocol")]
#[test]
fn the_debug_protocol_never_panics_on_mutated_streams() {
    use arbor_runtime::debug::{Framed, LineReader, Request, ServerMessage};
    let seeds: Vec<Vec<u8>> = [
        Request::hello("fuzz", Some("token".into())).to_line(),
        "{\"id\":1,\"type\":\"pause\",\"instance\":3}\n{\"id\":2,\"type\":\"step\"}\n".to_owned(),
        "{\"type\":\"welcome\",\"server\":\"arbor\",\"protocol\":1}\n{\"type\":\"error\",\"id\":7,\"code\":\"bad_request\",\"message\":\"x\"}\n".to_owned(),
    ]
    .into_iter()
    .map(String::into_bytes)
    .collect();
    fuzz("protocol", &seeds, 3_000, |bytes| {
        // A small buffer splits lines across reads, as a socket does.
        let reader = std::io::BufReader::with_capacity(7, bytes);
        let mut lines = LineReader::new(reader);
        for _ in 0..64 {
            match lines.read() {
                Ok(Framed::Line(line)) => {
                    let _ = serde_json::from_slice::<Request>(line);
                    let _ = ServerMessage::from_line(line);
                }
                Ok(Framed::TooLong) | Ok(Framed::Eof) | Err(_) => break,
            }
        }
    });
}
