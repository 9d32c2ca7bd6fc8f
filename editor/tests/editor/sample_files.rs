//! The editor opens every sample and reference tree, and saving one that is already in
//! canonical form writes back the very same bytes (the runtime's and the editor's notion of
//! the canonical form agree), but for a version-1 file's version, which becomes 2. The
//! samples are laid out cleanly: no node or note on another, group frames around their
//! members only, measured at the size the editor draws the nodes.

use std::path::{Path, PathBuf};

use crate::common::Harness;
use arbor_editor::document::{io, Bounds, GROUP_TITLE};
use arbor_editor::Session;

fn trees() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for dir in ["samples/trees", "runtime/tests/data/good"] {
        let entries = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: cannot list the folder: {e}"));
        let before = out.len();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
        assert!(out.len() > before, "no tree file in {dir}");
    }
    out.sort();
    out
}

#[test]
fn canonical_files_save_back_byte_for_byte() {
    let files = trees();
    assert!(!files.is_empty(), "no sample trees found");
    let dir = tempfile::tempdir().expect("temp dir");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let doc = io::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = dir.path().join("out.json");
        io::save(&doc, &out).expect("save");
        let saved = std::fs::read_to_string(&out).expect("read back");
        // The editor saves the format version it writes: an older file comes back the
        // same but for that field (docs/format.md, Versions).
        let newest = arbor_runtime::format::FORMAT_VERSION;
        let expected = (1..newest).fold(text.clone(), |t, v| {
            t.replacen(
                &format!("\"version\": {v},"),
                &format!("\"version\": {newest},"),
                1,
            )
        });
        assert_eq!(saved, expected, "{} changed when saved", path.display());
    }
}

#[test]
fn sample_trees_open_with_their_manifests_and_validate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/trees");
    for path in trees().into_iter().filter(|p| p.starts_with(&root)) {
        let session = Session::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            session.manifest_errors().is_empty(),
            "{}: {:?}",
            path.display(),
            session.manifest_errors()
        );
        let report = session.validate();
        assert!(report.is_ok(), "{}: {:?}", path.display(), report.problems);
    }
}

/// A sample's nodes, notes and group frames in canvas units, nodes at the size the editor
/// draws them (each node framed once at 100 %, so every size is measured).
struct Layout {
    nodes: Vec<(String, Bounds)>,
    notes: Vec<(String, Bounds)>,
    groups: Vec<(String, Bounds, Vec<String>)>,
}

fn measured_layout(path: &Path) -> Layout {
    let session = Session::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut h = Harness::new(session);
    let guids: Vec<String> = h
        .app
        .session()
        .document()
        .nodes()
        .map(|n| n.guid.clone())
        .collect();
    for guid in &guids {
        h.app.canvas_mut().frame(std::slice::from_ref(guid));
        h.frames(2);
    }
    let sizes = h.app.canvas().measured_sizes();
    let doc = h.app.session().document();
    let rect = |[x, y, w, h]: [f64; 4]| Bounds {
        min: [x, y],
        max: [x + w, y + h],
    };
    Layout {
        nodes: guids
            .iter()
            .filter_map(|g| {
                let [w, h] = *sizes.get(g)?;
                let [x, y] = doc.position(g)?;
                Some((g.clone(), rect([x, y, w, h])))
            })
            .collect(),
        notes: doc
            .notes()
            .iter()
            .map(|n| {
                (
                    n.guid.clone(),
                    rect([n.pos[0], n.pos[1], n.size[0], n.size[1]]),
                )
            })
            .collect(),
        groups: doc
            .groups()
            .iter()
            .map(|g| (g.title.clone(), rect(g.rect), g.members.clone()))
            .collect(),
    }
}

fn inside(inner: &Bounds, outer: &Bounds) -> bool {
    inner.min[0] >= outer.min[0]
        && inner.min[1] >= outer.min[1]
        && inner.max[0] <= outer.max[0]
        && inner.max[1] <= outer.max[1]
}

/// Every way a sample's layout can overlap wrongly: nodes on nodes or notes, notes on
/// notes, group frames crossing (rather than nesting or standing apart), members outside
/// their frame or under its title, other items half inside a frame.
fn overlaps(layout: &Layout) -> Vec<String> {
    let mut found = Vec::new();
    let items: Vec<(&String, &Bounds)> = layout
        .nodes
        .iter()
        .chain(&layout.notes)
        .map(|(g, b)| (g, b))
        .collect();
    for (i, (a, ra)) in items.iter().enumerate() {
        for (b, rb) in &items[i + 1..] {
            if ra.overlaps(rb) {
                found.push(format!("{a} overlaps {b}"));
            }
        }
    }
    for (i, (a, ra, _)) in layout.groups.iter().enumerate() {
        for (b, rb, _) in &layout.groups[i + 1..] {
            if ra.overlaps(rb) && !inside(ra, rb) && !inside(rb, ra) {
                found.push(format!("group {a} crosses group {b}"));
            }
        }
    }
    for (title, frame, members) in &layout.groups {
        let body = Bounds {
            min: [frame.min[0], frame.min[1] + GROUP_TITLE],
            max: frame.max,
        };
        for (guid, b) in &items {
            let member = members.contains(guid);
            if member && !inside(b, &body) {
                found.push(format!("{guid} is not inside its group {title}"));
            }
            if !member && frame.overlaps(b) {
                found.push(format!("{guid} lies on group {title} without being in it"));
            }
        }
    }
    found
}

#[test]
fn samples_have_no_overlapping_nodes_notes_or_groups() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/trees");
    let files: Vec<PathBuf> = trees()
        .into_iter()
        .filter(|p| p.starts_with(&root))
        .collect();
    assert!(files.len() >= 4, "the samples are found");
    let mut problems = Vec::new();
    for path in files {
        let layout = measured_layout(&path);
        assert!(
            !layout.nodes.is_empty(),
            "{}: nodes measured",
            path.display()
        );
        for p in overlaps(&layout) {
            problems.push(format!("{}: {p}", path.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_overlap_check_finds_overlaps() {
    let b = |x: f64, y: f64| Bounds {
        min: [x, y],
        max: [x + 100.0, y + 50.0],
    };
    let frame = Bounds {
        min: [0.0, 0.0],
        max: [300.0, 300.0],
    };
    let layout = Layout {
        nodes: vec![("a".into(), b(10.0, 40.0)), ("b".into(), b(50.0, 60.0))],
        notes: vec![("n".into(), b(250.0, 250.0))],
        groups: vec![
            ("G".into(), frame, vec!["a".into(), "b".into()]),
            ("H".into(), b(250.0, 250.0), vec![]),
        ],
    };
    let found = overlaps(&layout);
    assert!(found.contains(&"a overlaps b".to_owned()));
    assert!(found.contains(&"group G crosses group H".to_owned()));
    assert!(found.contains(&"n lies on group G without being in it".to_owned()));
    assert_eq!(found.len(), 4, "{found:?}"); // and n lies on group H
}
