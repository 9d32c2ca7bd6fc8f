//! History panel: the undo history as a list, oldest first, below a row for the state the
//! document was opened in. Undone steps are greyed; the current position is marked.
//! Clicking a row undoes or redoes up to it ([`crate::Session::go_to`]); nothing is lost
//! until a new edit drops the undone steps (the history is linear).

use crate::i18n::t;

use egui::{Button, RichText, Ui};

use crate::view::{UiCx, View};

/// See the module documentation.
#[derive(Debug, Default)]
pub struct HistoryPanel {}

/// The label of the row for the state before any step.
pub const START: &str = "Opened";

impl HistoryPanel {}

impl View for HistoryPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        ui.horizontal(|ui| {
            ui.heading(t("History"));
            let undo = ui
                .add_enabled(cx.session.can_undo(), Button::new(t("Undo")))
                .on_hover_text(cx.session.undo_text().unwrap_or_default())
                .on_disabled_hover_text(t("Nothing to undo"));
            if undo.clicked() {
                cx.session.undo();
            }
            let redo = ui
                .add_enabled(cx.session.can_redo(), Button::new(t("Redo")))
                .on_hover_text(cx.session.redo_text().unwrap_or_default())
                .on_disabled_hover_text(t("Nothing to redo"));
            if redo.clicked() {
                cx.session.redo();
            }
        });
        let steps = cx.session.steps();
        // Steps are applied from the start, so the position is how many are done.
        let position = steps.iter().filter(|s| s.done).count();
        let mut go_to = None;
        let rows = std::iter::once((START.to_owned(), true))
            .chain(steps.iter().map(|s| (s.label.clone(), s.done)));
        for (n, (label, done)) in rows.enumerate() {
            let current = n == position;
            let text = if done {
                RichText::new(label)
            } else {
                RichText::new(label).weak().italics()
            };
            let hover = if current {
                "The current state"
            } else if done {
                "Undo back to here"
            } else {
                "Redo up to here"
            };
            let r = ui.horizontal(|ui| {
                ui.label(if current { "▶" } else { " " });
                ui.selectable_label(current, text).on_hover_text(hover)
            });
            if r.inner.clicked() && !current {
                go_to = Some(n);
            }
        }
        if let Some(n) = go_to {
            cx.session.go_to(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::testing::{central, Harness};
    use crate::Session;

    #[test]
    fn clicking_a_step_goes_there_and_the_buttons_undo_and_redo() {
        let mut s = Session::default();
        s.add_node("Sequence", [0.0, 0.0]).unwrap();
        s.add_node("Wait", [0.0, 100.0]).unwrap();
        s.add_node("Log", [0.0, 200.0]).unwrap();
        let mut h = Harness::new(s);
        let mut panel = HistoryPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        assert!(h.shows(START) && h.shows("Add \"Log\""));
        h.click_text("Add \"Sequence\"", &mut draw);
        assert_eq!(h.session.document().node_count(), 1);
        assert_eq!(h.session.steps().iter().filter(|s| s.done).count(), 1);
        h.click_text("Add \"Log\"", &mut draw);
        assert_eq!(h.session.document().node_count(), 3);
        h.click_text(START, &mut draw);
        assert_eq!(h.session.document().node_count(), 0);
        assert!(!h.session.can_undo());
        h.click_text("Redo", &mut draw);
        assert_eq!(h.session.document().node_count(), 1);
        h.click_text("Undo", &mut draw);
        assert_eq!(h.session.document().node_count(), 0);
        assert_eq!(h.session.history().len(), 3, "going back loses nothing");
    }
}
