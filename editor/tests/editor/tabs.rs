//! Tabs: each owns its document and everything shown of it, so switching tabs shows the
//! other document's own problems and keeps each preview where it was.

use crate::common::{has_glyphs, session_with, Harness};

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

/// The tab labels as painted, left to right (the tab bar is the only place they show
/// with the unsaved mark or a file name alone).
fn tab_paths(h: &Harness) -> Vec<Option<std::path::PathBuf>> {
    h.app
        .tabs()
        .iter()
        .map(|t| t.session().path().map(ToOwned::to_owned))
        .collect()
}

#[test]
fn clicking_tabs_keeps_their_order_and_each_preview_where_it_was() {
    let villager = arbor_samples::trees_dir().join("villager.json");
    let counting = arbor_samples::trees_dir().join("counting.json");
    let mut h = Harness::new(arbor_editor::Session::open(&villager).expect("opens"));
    h.app.tab_mut().preview_mut().set_speed(60.0);
    h.frames(20);
    h.app
        .show_in_tab(arbor_editor::Session::open(&counting).expect("opens"));
    h.frames(20);
    let order = tab_paths(&h);
    assert_eq!(order.len(), 2);
    for round in 0..3 {
        for (i, name) in ["villager.json", "counting.json"].into_iter().enumerate() {
            let before: Vec<u64> = h.app.tabs().iter().map(|t| t.preview().ticks()).collect();
            let label = h
                .last_text_rect(name)
                .expect("the tab bar shows every file");
            h.click(label.center());
            h.frames(5);
            assert_eq!(h.app.active(), i, "round {round}: {name} is shown");
            assert_eq!(tab_paths(&h), order, "round {round}: the order stays");
            let after: Vec<u64> = h.app.tabs().iter().map(|t| t.preview().ticks()).collect();
            for (b, a) in before.iter().zip(&after) {
                assert!(a >= b, "round {round}: a preview restarted ({b} → {a})");
            }
        }
    }
    assert!(
        h.app.tabs()[0].preview().ticks() > 20,
        "the villager's preview went on"
    );
}

#[test]
fn an_unsaved_tab_shows_a_mark_its_font_can_draw_and_the_question_names_the_file() {
    let counting = arbor_samples::trees_dir().join("counting.json");
    let (other, _) = session_with(&[("Sequence", [0.0, 0.0]), ("Wait", [0.0, 100.0])]);
    let mut h = Harness::new(other);
    h.app
        .show_in_tab(arbor_editor::Session::open(&counting).expect("opens"));
    h.frames(2);
    let node = h
        .app
        .session()
        .document()
        .nodes()
        .next()
        .expect("a node")
        .guid
        .clone();
    let cmd = arbor_editor::commands::MoveItems::by(
        h.app.session().document(),
        &arbor_editor::document::Selection::of_nodes([node]),
        [10.0, 0.0],
    )
    .expect("finite");
    h.app.session_mut().apply(cmd).expect("moved");
    h.frames(2);
    let label = format!("counting.json {}", arbor_editor::app::UNSAVED_MARK);
    assert!(
        h.last_text_rect(&label).is_some(),
        "the tab says it is unsaved"
    );
    let font = egui::TextStyle::Button.resolve(&h.ctx.global_style());
    assert!(
        has_glyphs(&h.ctx, &font, &label),
        "every character of {label:?} has a glyph (no empty box)"
    );

    h.act(arbor_editor::app::Action::CloseTab);
    h.frames(2);
    let path = counting.display().to_string();
    assert!(
        h.texts()
            .iter()
            .any(|(t, _)| t.contains("“counting”") && t.contains(&path)),
        "the question names the tree and its file"
    );
}

/// A file that cannot be opened (from the command line or File > Open) shows its error in
/// the window, with the path and a Retry that opens it once it is fixed; the blank tab is
/// never passed off as that file.
#[test]
fn a_file_that_cannot_be_opened_shows_why_and_offers_retry() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("patrol.json");
    std::fs::write(&path, "{ not json").expect("written");
    let mut h = Harness::new(arbor_editor::Session::default());
    h.app.open(&path);
    h.frames(2);
    assert!(h.shows("Could not open the file"), "{:?}", h.texts());
    let retry = format!("Retry opening {}", path.display());
    let at = h.text_rect(&retry, |_| true).expect("a Retry button");
    assert!(
        h.app.session().path().is_none(),
        "the blank tab is not that file"
    );

    let (fixed, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    arbor_editor::document::io::save(fixed.document(), &path).expect("fixed");
    h.click(at.center());
    h.frames(2);
    assert_eq!(h.app.session().path(), Some(path.as_path()));
    assert!(!h.shows("Could not open the file"));
}
