//! Compare panel: the parts that differ between the document and the version it is
//! compared with, to step through (Previous / Next, or a click on a row), what differs
//! about the one stepped to, and Close. The panel only reads and steps the comparison; the
//! canvas frames what it steps to ([`CompareAction`]). Nothing here changes the document.

use crate::i18n::{self, t};

use egui::{RichText, Ui};

use crate::compare::{Comparison, Entry, EntryKind, Target};
use crate::view::diff_colors::entry_color;

/// Rows drawn at most: a comparison of two unrelated trees lists the first ones rather
/// than laying out thousands of rows each frame (stepping still reaches every entry).
const MAX_ROWS: usize = 300;

/// What the user asked of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum CompareAction {
    /// Show this part on the canvas (it was stepped to).
    Go(Target),
    /// End the comparison.
    Close,
}

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ComparePanel;

impl ComparePanel {
    pub fn ui(&mut self, ui: &mut Ui, compare: &mut Comparison) -> Option<CompareAction> {
        let mut action = None;
        ui.horizontal(|ui| {
            ui.label(RichText::new(t("Compare")).strong());
            if ui.small_button(t("Close")).clicked() {
                action = Some(CompareAction::Close);
            }
        });
        ui.label(
            RichText::new(format!("{} {}", t("with"), compare.label()))
                .small()
                .weak(),
        );
        if compare.is_same() {
            ui.label(t("No differences"));
            ui.separator();
            return action;
        }
        let count = compare.entries().len();
        ui.horizontal(|ui| {
            if ui.button(t("Previous")).clicked() {
                action = compare
                    .step_previous()
                    .map(|e| CompareAction::Go(e.target.clone()));
            }
            if ui.button(t("Next")).clicked() {
                action = compare
                    .step_next()
                    .map(|e| CompareAction::Go(e.target.clone()));
            }
            let at = compare
                .cursor()
                .map_or("–".to_owned(), |i| (i + 1).to_string());
            ui.label(format!("{at} / {}", i18n::count(count, t("change"))));
        });
        if let Some(e) = compare.current() {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(RichText::new(&e.label).strong().color(entry_color(e.kind)))
                    .on_hover_text(&e.id);
                for d in &e.details {
                    ui.add(egui::Label::new(RichText::new(d).small().monospace()).wrap());
                }
            });
        }
        let mut chosen = None;
        let cursor = compare.cursor();
        for (i, e) in compare.entries().iter().enumerate().take(MAX_ROWS) {
            let text = RichText::new(format!(
                "{} {} {}",
                kind_word(e.kind),
                e.scope.as_str(),
                short_label(e)
            ))
            .small()
            .color(entry_color(e.kind));
            let row = ui.add(
                egui::Button::selectable(cursor == Some(i), text)
                    .truncate()
                    .min_size(egui::vec2(ui.available_width(), 0.0)),
            );
            if row.on_hover_text(e.details.join("\n")).clicked() {
                chosen = Some(i);
            }
        }
        if count > MAX_ROWS {
            ui.weak(format!("… {} {}", count - MAX_ROWS, t("more")));
        }
        if let Some(e) = chosen.and_then(|i| compare.select(i)) {
            action = Some(CompareAction::Go(e.target.clone()));
        }
        ui.separator();
        action
    }
}

/// An entry's label without the GUID the runtime's diff ends a node's or decorator's
/// with (the row's tooltip and the entry stepped to keep it).
fn short_label(e: &Entry) -> &str {
    e.label
        .strip_suffix(e.id.as_str())
        .map_or(e.label.as_str(), str::trim_end)
}

/// The list's word for a kind of entry.
fn kind_word(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::Added => t("added"),
        EntryKind::Removed => t("removed"),
        EntryKind::Changed => t("changed"),
        EntryKind::Moved => t("moved"),
    }
}
