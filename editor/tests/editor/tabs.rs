//! Tabs: each owns its document and everything shown of it, so switching tabs shows the
//! other document's own problems and keeps each preview where it was.

use crate::common::{session_with, Harness};

fn errors(h: &Harness) -> usize {
    h.app
        .report()
        .problems
        .iter()
        .filter(|p| p.is_error())
        .count()
}

#[test]
fn problems_and_previews_belong_to_their_tab() {
    let path = arbor_samples::trees_dir().join("villager.json");
    let villager = arbor_editor::Session::open(&path).expect("the sample opens");
    let mut h = Harness::new(villager);
    h.app.tab_mut().preview_mut().set_speed(60.0);
    h.frames(30);
    assert_eq!(errors(&h), 0, "the sample is valid");
    let ticks = h.app.tab().preview().ticks();
    assert!(ticks > 0, "the villager runs");

    // A second document with a problem: a decorator without its child.
    let (broken, _) = session_with(&[("Inverter", [0.0, 0.0])]);
    h.app.show_in_tab(broken);
    assert_eq!(h.app.tabs().len(), 2);
    h.frames(2);
    assert!(errors(&h) > 0, "the new tab's own problems");

    h.app.switch_to(0);
    h.frame();
    assert_eq!(errors(&h), 0, "back to the villager's (empty) list");
    let preview = h.app.tab().preview();
    assert_eq!(preview.sample(), Some("villager"));
    assert!(
        preview.ticks() >= ticks,
        "the preview went on where it was ({} < {ticks})",
        preview.ticks()
    );
    assert!(h.app.tabs()[1]
        .report()
        .problems
        .iter()
        .any(|p| p.is_error()));
}
