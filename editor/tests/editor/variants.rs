//! Headless UI tests of a variant file in the editor: it opens as its base tree with the
//! overridden nodes badged and the switched-off ones greyed, and it refuses edits to the
//! tree's structure (a variant changes values only).

use arbor_editor::document::Selection;
use arbor_editor::Session;
use egui::{Key, Modifiers};

use crate::common::{Harness, CTRL};

/// HaveRest: its `until` is 95 in the villager, 75 in the impatient villager.
const HAVE_REST: &str = "2696222a-da4d-46ca-93a1-e7a73b49933a";
/// "Poor?": switched off by the impatient villager.
const POOR: &str = "43866b56-ce3a-4082-9003-4cefc892b8ef";

fn impatient_villager() -> Harness {
    let path = arbor_samples::trees_dir().join("variants/villager_impatient.json");
    Harness::new(Session::open(&path).expect("the sample variant opens"))
}

/// The texts painted inside node `guid`'s widget.
fn texts_on(h: &Harness, guid: &str) -> Vec<String> {
    let rect = h.app.canvas().drawn(guid).expect("drawn").content;
    h.texts()
        .into_iter()
        .filter(|(_, r)| rect.contains(r.center()))
        .map(|(t, _)| t)
        .collect()
}

#[test]
fn a_variant_opens_on_its_base_with_overrides_badged_and_switched_off_nodes_greyed() {
    let mut h = impatient_villager();
    // At 100 %, where nodes are widgets with their badges.
    h.app
        .canvas_mut()
        .frame(&[HAVE_REST.to_owned(), POOR.to_owned()]);
    h.frames(3);
    let doc = h.app.session().document();
    assert!(doc.variant().is_some());
    assert_eq!(doc.overrides_on(HAVE_REST), 1);
    assert!(doc.is_disabled(POOR));
    let rest = texts_on(&h, HAVE_REST);
    assert!(rest.iter().any(|t| t == "overridden 1"), "{rest:?}");
    assert!(rest.iter().any(|t| t == "until = 75.0"), "{rest:?}");
    let poor = texts_on(&h, POOR);
    assert!(poor.iter().any(|t| t == "off"), "{poor:?}");
    assert!(poor.iter().any(|t| t == "overridden 1"), "{poor:?}");
    // The Alive node is the base's own.
    let alive = "a285e7c0-6486-46b4-95f4-305a0e1e0bc4";
    h.app.canvas_mut().frame(&[alive.to_owned()]);
    h.frames(3);
    assert!(!texts_on(&h, alive)
        .iter()
        .any(|t| t.starts_with("overridden")));
}

#[test]
fn a_variant_refuses_structural_edits_with_a_message_and_changes_nothing() {
    let mut h = impatient_villager();
    let before = h.app.session().document().clone();
    h.app.set_selection(Selection::of_nodes([HAVE_REST]));
    h.frames(2);
    h.key(Key::Delete, Modifiers::NONE);
    h.frames(2);
    assert_eq!(*h.app.session().document(), before);
    let toasts = h.app.toasts().texts().join("\n");
    assert!(toasts.contains("a variant changes values only"), "{toasts}");
    h.key(Key::Z, CTRL);
    assert!(!h.app.session().is_modified());
}
