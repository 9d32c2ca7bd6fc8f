//! The headless binaries run briefly, print a log and a summary, exit 0, and reject bad
//! flags with a usage message and exit code 2.

use std::process::{Command, Output};

fn run(exe: &str, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{exe}: {e}"))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn each_binary_runs_and_summarises() {
    let cases = [
        (env!("CARGO_BIN_EXE_villager"), "heads for the"),
        (env!("CARGO_BIN_EXE_card_duel"), "round 1: the player"),
        (env!("CARGO_BIN_EXE_counting"), "AddTen (2C) success"),
        (env!("CARGO_BIN_EXE_guard"), "patrols to waypoint"),
    ];
    for (exe, expected) in cases {
        let out = run(exe, &["--ticks", "400", "--seed", "3"]);
        let text = stdout(&out);
        assert!(out.status.success(), "{exe}: {out:?}");
        assert!(text.contains(expected), "{exe}:\n{text}");
        assert!(text.contains("after "), "{exe}: no summary:\n{text}");
        let again = stdout(&run(exe, &["--ticks", "400", "--seed", "3"]));
        assert_eq!(text, again, "{exe}: not deterministic");
    }
}

#[test]
fn counting_takes_a_target() {
    let out = run(env!("CARGO_BIN_EXE_counting"), &["--target", "30"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("-> failure; current = 20, target = 30"),
        "{text}"
    );
}

#[test]
fn trace_prints_node_lifecycles() {
    let out = run(env!("CARGO_BIN_EXE_counting"), &["--trace"]);
    let text = stdout(&out);
    assert!(text.contains("tick 1: root success"), "{text}");
    assert!(text.contains("    exit  AddTen (2A) failure"), "{text}");
}

#[test]
fn bad_flags_exit_2_with_usage() {
    for (exe, args) in [
        (env!("CARGO_BIN_EXE_villager"), &["--ticks", "lots"][..]),
        (env!("CARGO_BIN_EXE_guard"), &["--speed", "9"][..]),
        (env!("CARGO_BIN_EXE_card_duel"), &["--dt", "0"][..]),
        (env!("CARGO_BIN_EXE_counting"), &["--target", "twenty"][..]),
    ] {
        let out = run(exe, args);
        assert_eq!(out.status.code(), Some(2), "{exe} {args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("Usage:"), "{exe}: {err}");
    }
    let help = run(env!("CARGO_BIN_EXE_villager"), &["--help"]);
    assert!(help.status.success());
    assert!(stdout(&help).contains("--seed S"));
}

#[test]
fn a_tree_that_does_not_load_exits_1() {
    let out = run(
        env!("CARGO_BIN_EXE_guard"),
        &["--tree", "no/such/tree.json"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

/// `--tree` naming a FIFO nobody writes to exits 1 with a message, rather than blocking
/// in `open` for ever. The child is waited for on a thread; if it never ends it is killed
/// and the test fails (the timeout is a guard, it measures nothing).
#[cfg(unix)]
#[test]
fn a_fifo_as_the_tree_exits_1() {
    let dir = std::env::temp_dir().join(format!("arbor-binaries-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pipe = dir.join("pipe.json");
    let made = Command::new("mkfifo").arg(&pipe).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for exe in [env!("CARGO_BIN_EXE_guard"), env!("CARGO_BIN_EXE_villager")] {
        let child = Command::new(exe)
            .arg("--tree")
            .arg(&pipe)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{exe}: {e}"));
        let pid = child.id();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        let Ok(out) = rx.recv_timeout(std::time::Duration::from_secs(120)) else {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("{exe} --tree FIFO never ended");
        };
        let out = out.expect("waited");
        assert_eq!(out.status.code(), Some(1), "{exe}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("not a regular file"), "{exe}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The per-tick lines of a run (its trace and log), with each tick renumbered from `first`
/// on as 1, 2, …: what a run from a save game prints of the same ticks.
fn ticks_from(text: &str, first: u64) -> Vec<String> {
    let mut out = Vec::new();
    let mut keep = false;
    for line in text.lines() {
        if line.starts_with("after ") {
            break;
        }
        if let Some(rest) = line.strip_prefix("tick ") {
            let (n, tail) = rest.split_once(':').expect("tick N: root …");
            let n: u64 = n.parse().expect("a tick number");
            keep = n >= first;
            if keep {
                out.push(format!("tick {}:{tail}", n - first + 1));
            }
            continue;
        }
        if keep {
            out.push(line.to_owned());
        }
    }
    out
}

#[test]
fn a_villager_saved_after_n_ticks_goes_on_in_another_process_as_if_never_stopped() {
    let exe = env!("CARGO_BIN_EXE_villager");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let save = dir.path().join("villager.save.json");
    let save = save.to_str().expect("a UTF-8 path");
    let (n, m) = (900u64, 700u64);
    let whole = run(exe, &["--ticks", "1600", "--seed", "2", "--trace"]);
    assert!(whole.status.success(), "{whole:?}");
    let first = run(
        exe,
        &["--ticks", "900", "--seed", "2", "--save", save, "--quiet"],
    );
    assert!(first.status.success(), "{first:?}");
    // No seed: the save game's RNG and world decide.
    let rest = run(exe, &["--ticks", "700", "--load", save, "--trace"]);
    assert!(rest.status.success(), "{rest:?}");
    let expected = ticks_from(&stdout(&whole), n + 1);
    let resumed = ticks_from(&stdout(&rest), 1);
    assert!(expected.len() as u64 > m, "a trace line per tick at least");
    assert_eq!(resumed, expected);
    // The summaries agree too: the same world after N+M ticks.
    let summary = |text: &str| text.lines().last().map(str::to_owned);
    assert_eq!(summary(&stdout(&rest)), summary(&stdout(&whole)));
}

#[test]
fn a_missing_or_foreign_save_game_exits_1_with_the_reason() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let missing = dir.path().join("none.json");
    let out = run(
        env!("CARGO_BIN_EXE_villager"),
        &["--load", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.json"));
    let guard_save = dir.path().join("guard.json");
    let out = run(
        env!("CARGO_BIN_EXE_guard"),
        &["--ticks", "5", "--save", guard_save.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot save its world"), "{err}");
}
