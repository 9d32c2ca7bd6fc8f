//! The interface language and Chinese text: the menu bar follows the language switch, the
//! choice is kept in the preferences, and Chinese names and notes are drawn with glyphs
//! (or, on a machine without a CJK font, the editor says so and carries on).

use arbor_editor::app::ArborApp;
use arbor_editor::commands::{SetNote, SetText, TextField};
use arbor_editor::document::Note;
use arbor_editor::fonts;
use arbor_editor::i18n::Lang;

use crate::common::{has_glyphs, session_with, Harness};

#[test]
fn switching_the_language_changes_the_menu_labels() {
    let (session, _) = session_with(&[("Sequence", [0.0, 0.0])]);
    let mut h = Harness::new(session);
    assert!(h.shows("File") && h.shows("Edit") && h.shows("View"));
    assert!(!h.shows("文件"));

    h.app.set_language(Lang::Chinese);
    h.frames(2);
    assert!(h.shows("文件") && h.shows("编辑") && h.shows("视图") && h.shows("预览"));
    assert!(!h.shows("File") && !h.shows("Edit"));
    assert!(h.shows("1 个节点"), "the status bar is translated too");
    assert_eq!(
        h.app.prefs().language,
        Some(Lang::Chinese),
        "kept in the preferences"
    );

    h.app.set_language(Lang::English);
    h.frames(2);
    assert!(h.shows("File") && !h.shows("文件"));
}

#[test]
fn the_language_comes_from_the_preferences_before_the_locale() {
    let mut app = ArborApp::new(session_with(&[]).0);
    assert_eq!(app.language(), Lang::English, "tests start in English");
    app.set_language(Lang::Chinese);
    assert_eq!(app.prefs().language, Some(Lang::Chinese));
}

#[test]
fn chinese_names_and_notes_render_with_a_cjk_font_or_the_editor_says_why_not() {
    let (mut session, guids) = session_with(&[("Sequence", [0.0, 0.0])]);
    let doc = session.document().clone();
    session
        .apply(SetText::new(&doc, TextField::NodeName(guids[0].clone()), "守卫职责").unwrap())
        .unwrap();
    session
        .apply(SetNote::add(Note {
            text: "巡逻：走到下一个路点".to_owned(),
            pos: [0.0, 200.0],
            ..Note::default()
        }))
        .unwrap();
    let mut h = Harness::unstarted(session, 1.0 / 60.0);
    let font = egui::FontId::proportional(14.0);
    match fonts::install(&h.ctx) {
        Ok(file) => {
            h.frames(3);
            assert!(h.shows("守卫职责"), "the node's name is drawn");
            assert!(h.shows("巡逻：走到下一个路点"), "the note is drawn");
            assert!(
                has_glyphs(&h.ctx, &font, "守卫职责巡逻路点"),
                "drawn with glyphs from {}",
                file.path.display()
            );
        }
        Err(why) => {
            // No CJK font here: the editor still runs, with egui's fonts.
            assert!(!why.to_string().is_empty());
            h.frames(3);
            assert!(h.shows("守卫职责"));
        }
    }
}
