//! The panels' small print is readable: hints, counts and tags are 11 px or more (egui's
//! own small style is 9 px).

use arbor_editor::Session;

use crate::common::Harness;

#[test]
fn hints_counts_and_tags_in_the_panels_are_at_least_11_px() {
    let path = arbor_samples::trees_dir().join("guard.json");
    let mut h = Harness::new(Session::open(&path).expect("the guard sample opens"));
    h.preview_mut().pause();
    h.frames(2);
    let painted = h.painted();
    for small in [
        "Drag a type onto the canvas",
        "1 read · 1 write",
        "sensed",
        "Runs children in order",
    ] {
        let found: Vec<_> = painted
            .iter()
            .filter(|p| p.text.starts_with(small))
            .collect();
        assert!(!found.is_empty(), "{small:?} is shown");
        for p in found {
            assert!(p.size >= 11.0, "{p:?} is under 11 px");
        }
    }
}
