//! Generated code (`arbor_runtime::codegen`) for the reference tree: the checked-in modules
//! of benches/reference/generated are up to date, they run the tree exactly as the
//! interpreter does, and a module whose tree changed shape is refused at load.
//!
//! After an intended change, `ARBOR_BLESS=1 cargo test -p arbor-runtime --test tests
//! engine::generated` rewrites the tree files, the node-types manifest and the modules.
//! The modules are exactly what `arbor codegen` writes, so when they no longer compile (the
//! support API changed), regenerate them first with
//! `cargo arbor codegen runtime/benches/reference/generated/a.json --types
//! runtime/benches/reference/generated/types.json -o runtime/benches/reference/generated/a.rs`
//! (and `b`).

use std::path::{Path, PathBuf};

use arbor_runtime::{codegen, Agent, NodeTypes, ProblemKind, Recorder, Status};

use super::reference::{self, generated_a, generated_b, Counter};
use super::soldier_tree::{self, Positions, Soldier};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/reference/generated")
}

fn bless() -> bool {
    std::env::var_os("ARBOR_BLESS").is_some_and(|v| v == "1")
}

/// Compares `path` with `text`, or rewrites it when blessing; returns it if stale.
fn up_to_date(path: &Path, text: &str) -> Option<String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return None;
    }
    if bless() {
        std::fs::write(path, text).expect("writable");
        return None;
    }
    Some(path.display().to_string())
}

#[test]
fn the_checked_in_reference_modules_are_up_to_date() {
    let registry = reference::registry();
    let types = registry.types().clone();
    let mut stale = Vec::new();
    stale.extend(up_to_date(&dir().join("types.json"), &registry.manifest()));
    let generator = format!(
        "`arbor codegen` (arbor-runtime {})",
        env!("CARGO_PKG_VERSION")
    );
    for (variant, running) in [("a", false), ("b", true)] {
        let json = dir().join(format!("{variant}.json"));
        let text = serde_json::to_string_pretty(&reference::reference_tree(running))
            .expect("serialisable")
            + "\n";
        stale.extend(up_to_date(&json, &text));
        let options = codegen::Options {
            include_path: &format!("{variant}.json"),
            generator: &generator,
        };
        let code = codegen::generate(&json, &types, &options).expect("generates");
        stale.extend(up_to_date(&dir().join(format!("{variant}.rs")), &code));
    }
    assert!(
        stale.is_empty(),
        "stale generated files (ARBOR_BLESS=1 rewrites them): {stale:?}"
    );
    // Built-ins alone do not declare the reference leaves: a located load error.
    let json = dir().join("a.json");
    let options = codegen::Options {
        include_path: "a.json",
        generator: "test",
    };
    let e = codegen::generate(&json, &NodeTypes::builtin(), &options).expect_err("unknown types");
    assert!(e.to_string().contains("a.json"), "{e}");
}

#[test]
fn generated_reference_trees_tick_as_the_interpreter() {
    for running in [false, true] {
        let registry = reference::registry();
        let generated = if running {
            generated_b::load(&registry)
        } else {
            generated_a::load(&registry)
        }
        .expect("the generated tree loads");
        assert!(generated.is_generated());
        let interpreted = reference::compile(running);
        assert!(!interpreted.is_generated());
        let (mut g, mut i) = (Agent::new(generated, 1), Agent::new(interpreted, 1));
        let (mut cg, mut ci) = (Counter::default(), Counter::default());
        for tick in 0..5 {
            let (mut rg, mut ri) = (Recorder::default(), Recorder::default());
            let sg = g.tick_traced(&mut cg, 0.1, &mut rg);
            let si = i.tick_traced(&mut ci, 0.1, &mut ri);
            assert_eq!(sg, si, "tick {tick}");
            assert_eq!(rg.events, ri.events, "tick {tick}");
            assert!(!rg.events.is_empty());
            assert_eq!(g.tick(&mut cg, 0.1), i.tick(&mut ci, 0.1));
            assert_eq!(cg.n, ci.n);
        }
        let expected = if running {
            Status::Running
        } else {
            Status::Success
        };
        assert_eq!(g.tick(&mut cg, 0.1), expected);
    }
}

/// `Direct::tick` (the generated code called without `Agent::tick`'s dynamic call) ticks
/// as `Agent::tick`, and an agent of another tree is ticked as `agent.tick` would.
#[test]
fn direct_ticks_as_agent_tick_and_falls_back_for_another_tree() {
    macro_rules! check {
        ($module:ident, $running:expr) => {{
            let registry = reference::registry();
            let direct = reference::$module::load_direct(&registry).expect("loads");
            assert!(direct.tree().is_generated());
            let mut d = direct.agent(1);
            let mut i = Agent::new(reference::compile($running), 1);
            // Its own tree, loaded again: not this `Direct`'s, so `agent.tick`.
            let mut other = Agent::new(reference::$module::load(&registry).expect("loads"), 1);
            let (mut cd, mut ci, mut co) =
                (Counter::default(), Counter::default(), Counter::default());
            for tick in 0..6 {
                let si = i.tick(&mut ci, 0.1);
                assert_eq!(direct.tick(&mut d, &mut cd, 0.1), si, "tick {tick}");
                assert_eq!(direct.tick(&mut other, &mut co, 0.1), si, "tick {tick}");
                assert_eq!((cd.n, co.n), (ci.n, ci.n), "tick {tick}");
                assert_eq!((d.ticks(), other.ticks()), (i.ticks(), i.ticks()));
                assert_eq!((d.now(), other.now()), (i.now(), i.now()));
            }
            // Traced ticks and halts on the same agent see what `Direct::tick` left.
            let (mut rd, mut ri) = (Recorder::default(), Recorder::default());
            assert_eq!(
                d.tick_traced(&mut cd, 0.1, &mut rd),
                i.tick_traced(&mut ci, 0.1, &mut ri)
            );
            assert_eq!(rd.events, ri.events);
            let (mut rd, mut ri) = (Recorder::default(), Recorder::default());
            d.halt(&mut cd, &mut rd);
            i.halt(&mut ci, &mut ri);
            assert_eq!(rd.events, ri.events);
            assert_eq!(direct.tick(&mut d, &mut cd, 0.1), i.tick(&mut ci, 0.1));
            assert_eq!(cd.n, ci.n);
        }};
    }
    check!(generated_a, false);
    check!(generated_b, true);
}

#[test]
fn a_module_whose_tree_changed_shape_is_refused() {
    // Module A loaded with variant B's tree: same node count, another leaf kind only, so it
    // loads; but a tree with a node more or fewer is refused with a clear message.
    let registry = reference::registry();
    let text = generated_a::SOURCE.replacen("\"Sequence\"", "\"Selector\"", 1);
    let tree = registry.loader().load_str(&text, None).expect("loads");
    let e = arbor_runtime::codegen::support::check(&tree, tree.len(), 0).expect_err("stale");
    assert!(
        matches!(&e.problems[0].kind, ProblemKind::StaleCode(why) if why.contains("shape changed")),
        "{e}"
    );
    assert!(e.to_string().contains("run `arbor codegen` again"), "{e}");
    let e = arbor_runtime::codegen::support::check(&tree, 7, 0).expect_err("stale");
    assert!(
        e.to_string()
            .contains("the code is for 7 nodes, the tree has 21"),
        "{e}"
    );
}

fn soldier_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/soldier_tree/generated")
}

/// The soldier tree's generated module, as `arbor codegen` writes it: up to date, and
/// every one of its nodes emitted as code (its selectors and sequences carry conditions
/// with aborts and a `dynamic` root), none left to the interpreter's general path.
#[test]
fn the_checked_in_soldier_module_is_up_to_date_and_all_code() {
    let registry = soldier_tree::registry(Positions::Vec2);
    let mut stale = Vec::new();
    stale.extend(up_to_date(
        &soldier_dir().join("types.json"),
        &registry.manifest(),
    ));
    let json = soldier_dir().join("soldier.json");
    stale.extend(up_to_date(
        &json,
        &(soldier_tree::tree(Positions::Vec2).to_json() + "\n"),
    ));
    let options = codegen::Options {
        include_path: "soldier.json",
        generator: &format!(
            "`arbor codegen` (arbor-runtime {})",
            env!("CARGO_PKG_VERSION")
        ),
    };
    let code = codegen::generate(&json, registry.types(), &options).expect("generates");
    stale.extend(up_to_date(&soldier_dir().join("soldier.rs"), &code));
    assert!(
        stale.is_empty(),
        "stale generated files (ARBOR_BLESS=1 rewrites them): {stale:?}"
    );
    assert!(
        !code.contains("x.node::<"),
        "a soldier node is left to the interpreter:\n{code}"
    );
}

/// The generated soldier, through `agent.tick` and `Direct::tick`, does what the
/// interpreter does, tick by tick: statuses, traces (every fifth tick traced), and the
/// host's counts, across many switches between patrol, chase and flight.
#[test]
fn the_generated_soldier_ticks_as_the_interpreter() {
    let registry = soldier_tree::registry(Positions::Vec2);
    let direct = soldier_tree::generated::load_direct(&registry).expect("loads");
    let generated = soldier_tree::generated::load(&registry).expect("loads");
    assert!(generated.is_generated());
    let mut i = Agent::new(soldier_tree::compile(Positions::Vec2), 1);
    let mut g = Agent::new(generated, 1);
    let mut d = direct.agent(1);
    let mut hosts = [Soldier::new(), Soldier::new(), Soldier::new()];
    let counts = |s: &Soldier| (s.attacks, s.fled, s.patrolled, s.hp.to_bits(), s.hurt);
    for tick in 0..3_000 {
        let [hi, hg, hd] = &mut hosts;
        if tick % 5 == 0 {
            let mut r = [
                Recorder::default(),
                Recorder::default(),
                Recorder::default(),
            ];
            let si = i.tick_traced(hi, 0.1, &mut r[0]);
            assert_eq!(g.tick_traced(hg, 0.1, &mut r[1]), si, "tick {tick}");
            assert_eq!(d.tick_traced(hd, 0.1, &mut r[2]), si, "tick {tick}");
            assert_eq!(r[1].events, r[0].events, "tick {tick}");
            assert_eq!(r[2].events, r[0].events, "tick {tick}");
        } else {
            let si = i.tick(hi, 0.1);
            assert_eq!(g.tick(hg, 0.1), si, "tick {tick}");
            assert_eq!(direct.tick(&mut d, hd, 0.1), si, "tick {tick}");
        }
        assert_eq!(counts(hg), counts(hi), "tick {tick}");
        assert_eq!(counts(hd), counts(hi), "tick {tick}");
    }
    // The run saw every branch, and flights pre-empted by the chase's condition.
    let s = &hosts[0];
    assert!(s.attacks > 0 && s.fled > 0 && s.patrolled > 0, "{s:?}");
}
