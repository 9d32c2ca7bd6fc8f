//! `arbor stub` and `node_stub`: the Rust skeleton printed for a manifest's host action or
//! condition compiles (the files in tests/data/stubs are the printed skeletons, compiled
//! into this test binary) and declares the ports the manifest declares.

use std::path::{Path, PathBuf};

use arbor_runtime::{node_stub, NodeTypes, Registry};

use crate::common::{arbor, text};

mod take_cover {
    include!("../data/stubs/take_cover.rs");
}
mod raise_alarm {
    include!("../data/stubs/raise_alarm.rs");
}
mod can_see_enemy {
    include!("../data/stubs/can_see_enemy.rs");
}

/// The stubs compiled above, by type: regenerate one with
/// `cargo arbor stub TYPE --manifest samples/projects/outpost/manifests/outpost.json`.
const STUBS: [(&str, &str); 3] = [
    ("TakeCover", include_str!("../data/stubs/take_cover.rs")),
    ("RaiseAlarm", include_str!("../data/stubs/raise_alarm.rs")),
    (
        "CanSeeEnemy",
        include_str!("../data/stubs/can_see_enemy.rs"),
    ),
];

fn outpost() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/projects/outpost")
}

fn manifest() -> PathBuf {
    outpost().join("manifests/outpost.json")
}

fn outpost_types() -> NodeTypes {
    let text = std::fs::read_to_string(manifest()).expect("the sample manifest");
    let mut types = NodeTypes::builtin();
    types
        .merge_manifest(&text)
        .expect("the sample manifest loads");
    types
}

#[test]
fn the_printed_stubs_are_the_compiled_ones() {
    let types = outpost_types();
    for (name, compiled) in STUBS {
        let ty = types.node(name).expect("declared in the sample manifest");
        assert_eq!(
            node_stub(ty).unwrap(),
            compiled,
            "{name}: regenerate the stub file"
        );
    }
}

#[test]
fn a_registered_stub_declares_what_the_manifest_declares() {
    let types = outpost_types();
    let mut registry = Registry::<()>::new();
    take_cover::register_take_cover(&mut registry);
    raise_alarm::register_raise_alarm(&mut registry);
    can_see_enemy::register_can_see_enemy(&mut registry);
    let mut registered = NodeTypes::builtin();
    registered
        .merge_manifest(&registry.manifest())
        .expect("the registry's manifest loads");
    for (name, _) in STUBS {
        let (want, got) = (types.node(name).unwrap(), registered.node(name).unwrap());
        assert_eq!(got.category, want.category, "{name}");
        assert_eq!(got.description, want.description, "{name}");
        let ports = |t: &arbor_runtime::NodeType| {
            t.params
                .iter()
                .map(|p| {
                    (
                        p.name.clone(),
                        p.direction,
                        p.default.clone(),
                        p.description.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(ports(got), ports(want), "{name}");
    }
}

#[test]
fn arbor_stub_prints_the_skeleton_from_a_manifest_or_the_project_folder() {
    let manifest = manifest().display().to_string();
    let out = arbor(&["stub", "TakeCover", "--manifest", &manifest]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), STUBS[0].1);

    let exe = env!("CARGO_BIN_EXE_arbor");
    let out = std::process::Command::new(exe)
        .args(["stub", "RaiseAlarm"])
        .current_dir(outpost())
        .output()
        .expect("the arbor binary runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), STUBS[1].1);

    let out = arbor(&["stub", "Priority", "--manifest", &manifest]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("`Priority` is a Composite: stubs are written for actions and conditions"),
        "{}",
        text(&out.stderr)
    );
    let out = arbor(&["stub", "Nope", "--manifest", &manifest]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no node type `Nope`"),
        "{}",
        text(&out.stderr)
    );
}
