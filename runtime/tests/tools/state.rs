//! `arbor run --save-state` / `--load-state` across processes (semantics rule 90): on the
//! random trees of the generated-code check's generator, N ticks, then M ticks from the
//! saved state in a second process, print exactly the last M lines of one run of N+M ticks.
//! Also: a state file that is not one, or is of another tree, stops the run.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::common::{arbor, text};

#[path = "../../codegen-check/gen/random_tree.rs"]
#[allow(dead_code)] // the generator's helpers that these tests do not call
mod random_tree;

/// Random trees checked, ticks per run.
const TREES: u64 = 300;
const TICKS: u64 = 24;

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-state-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// xorshift: stimuli and split points, the same on every machine.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Random inputs for ticks 1..=TICKS: blackboard writes (some with a ttl), events, triggers.
fn stimuli(d: &mut Draw) -> Value {
    let mut by_tick = Map::new();
    for tick in 1..=TICKS {
        let mut inputs = Map::new();
        if d.below(4) == 0 {
            let write = match d.below(4) {
                0 => json!({"b": d.below(2) == 0}),
                1 => json!({"c": {"value": d.below(2) == 0, "ttl": 0.2}}),
                2 => json!({"n": d.below(5)}),
                _ => json!({"f": {"value": d.below(4) as f64 * 0.5, "ttl": 0.3}}),
            };
            inputs.insert("set".into(), write);
        }
        if d.below(5) == 0 {
            inputs.insert(
                "events".into(),
                json!([if d.below(2) == 0 { "e1" } else { "e2" }]),
            );
        }
        if d.below(5) == 0 {
            inputs.insert(
                "triggers".into(),
                json!([if d.below(2) == 0 { "t1" } else { "t2" }]),
            );
        }
        if !inputs.is_empty() {
            by_tick.insert(tick.to_string(), Value::Object(inputs));
        }
    }
    Value::Object(by_tick)
}

/// `arbor run` on `tree` with the random trees' stubs; its trace lines, or the failure.
fn run(dir: &Path, tree: &Path, extra: &[&str]) -> Result<Vec<String>, String> {
    let manifest = dir.join("host.json");
    let stimuli = dir.join("stimuli.json");
    let (tree, manifest, stimuli) = (
        tree.display().to_string(),
        manifest.display().to_string(),
        stimuli.display().to_string(),
    );
    let mut args = vec![
        "run",
        &tree,
        "--trace",
        "--dt",
        "0.1",
        "--types",
        &manifest,
        "--stimuli",
        &stimuli,
        "--stub",
        "HostA=running,failure,success,running",
        "--stub",
        "HostB=success,running,failure",
        "--stub",
        "HostC=success,failure,failure",
        "--stub",
        "HostS=running,running,success",
    ];
    args.extend_from_slice(extra);
    let out = arbor(&args);
    if !out.status.success() {
        return Err(text(&out.stderr));
    }
    Ok(text(&out.stdout).lines().map(str::to_owned).collect())
}

#[test]
fn rule90_saved_state_goes_on_in_another_process_as_one_run() {
    let dir = tempdir("random");
    std::fs::write(dir.join("host.json"), random_tree::HOST_MANIFEST).expect("write");
    let mut d = Draw(0x51a7_e5a7);
    let (tree, state) = (dir.join("tree.json"), dir.join("state.json"));
    let state_arg = state.display().to_string();
    let mut running_at_split = 0;
    for i in 0..TREES {
        std::fs::write(&tree, random_tree::tree(i)).expect("write");
        std::fs::write(dir.join("stimuli.json"), stimuli(&mut d).to_string()).expect("write");
        let n = 1 + d.below(TICKS - 1);
        let m = (TICKS - n).to_string();
        let at = |what: &str| format!("tree {i}, split after {n}: {what}");
        let whole = run(&dir, &tree, &["--ticks", &TICKS.to_string(), "--seed", "7"])
            .unwrap_or_else(|e| panic!("{}", at(&e)));
        let first = run(
            &dir,
            &tree,
            &[
                "--ticks",
                &n.to_string(),
                "--seed",
                "7",
                "--save-state",
                &state_arg,
            ],
        )
        .unwrap_or_else(|e| panic!("{}", at(&e)));
        let second = run(&dir, &tree, &["--ticks", &m, "--load-state", &state_arg])
            .unwrap_or_else(|e| panic!("{}", at(&e)));
        assert_eq!(first[..], whole[..n as usize], "{}", at("the first run"));
        assert_eq!(
            second[..],
            whole[n as usize..],
            "{}",
            at("the continuation")
        );
        running_at_split += usize::from(whole[n as usize - 1].contains("\"running\""));
    }
    // Splits in the middle of running behaviour are the point; a generator that never
    // runs anything across a split would prove little. About a quarter do (71 of 300 with
    // the generator's guarded choices, whose branches a false condition skips).
    assert!(
        running_at_split > (TREES / 5) as usize,
        "only {running_at_split} splits while running"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rule93_a_bad_state_file_stops_the_run() {
    let dir = tempdir("bad");
    std::fs::write(dir.join("host.json"), random_tree::HOST_MANIFEST).expect("write");
    std::fs::write(dir.join("stimuli.json"), "{}").expect("write");
    let (tree, other, state) = (
        dir.join("tree.json"),
        dir.join("other.json"),
        dir.join("state.json"),
    );
    std::fs::write(&tree, random_tree::tree(1)).expect("write");
    std::fs::write(&other, random_tree::tree(2)).expect("write");
    let state_arg = state.display().to_string();
    run(&dir, &tree, &["--ticks", "3", "--save-state", &state_arg]).expect("runs");
    let err = run(&dir, &other, &["--ticks", "1", "--load-state", &state_arg])
        .expect_err("another tree's state");
    assert!(err.contains("the snapshot is of tree"), "{err}");
    std::fs::write(
        &state,
        "{\"format\": \"arbor-agent-snapshot\", \"version\": 9}",
    )
    .expect("write");
    let err = run(&dir, &tree, &["--ticks", "1", "--load-state", &state_arg])
        .expect_err("a future version");
    assert!(err.contains("version 9"), "{err}");
    let err = run(
        &dir,
        &tree,
        &["--ticks", "1", "--load-state", &state_arg, "--seed", "3"],
    )
    .expect_err("--seed with --load-state");
    assert!(err.contains("--seed"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
