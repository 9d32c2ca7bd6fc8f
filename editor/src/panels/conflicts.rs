//! Conflicts panel: the merge conflicts a file holds (its `conflicts` section, written by
//! `arbor merge`), each with the part and field concerned and the base, our and their
//! values. "Take ours" and "Take theirs" issue the model's `ResolveConflict` (undoable, the
//! runtime's own resolution); when none is left, the section is gone from the next save.
//! Shown only while the document has conflicts.

use crate::i18n::t;

use arbor_runtime::format::Conflict;
use arbor_runtime::merge::Side;
use egui::{RichText, Ui};
use serde_json::Value;

use crate::commands::ResolveConflict;
use crate::view::{Request, UiCx, View};

/// The colour of the panel's heading: the problems panel's warning yellow.
const HEADING: egui::Color32 = egui::Color32::from_rgb(230, 170, 60);

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ConflictsPanel;

impl View for ConflictsPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        let conflicts = cx.session.document().conflicts();
        if conflicts.is_empty() {
            return;
        }
        ui.label(
            RichText::new(format!("{} ({})", t("Merge conflicts"), conflicts.len()))
                .strong()
                .color(HEADING),
        );
        ui.label(
            RichText::new(t(
                "The merged file keeps ours; pick a side for each. Every pick can be undone.",
            ))
            .small()
            .weak(),
        );
        let mut picked = None;
        let mut frame = None;
        for (i, c) in conflicts.iter().enumerate() {
            ui.push_id(("conflict", i), |ui| {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    let part = part_label(cx, c);
                    let heading = ui.add(
                        egui::Label::new(RichText::new(&part).strong()).sense(egui::Sense::click()),
                    );
                    if c.scope == "node" && heading.on_hover_text(t("Click to frame it")).clicked()
                    {
                        frame = Some(c.id.clone());
                    }
                    ui.label(RichText::new(&c.message).small());
                    egui::Grid::new("values").num_columns(2).show(ui, |ui| {
                        for (name, value) in [
                            (t("base"), &c.base),
                            (t("ours"), &c.ours),
                            (t("theirs"), &c.theirs),
                        ] {
                            ui.label(RichText::new(name).small().weak());
                            ui.add(
                                egui::Label::new(RichText::new(shown(value)).small().monospace())
                                    .truncate(),
                            )
                            .on_hover_text(shown(value));
                            ui.end_row();
                        }
                    });
                    ui.horizontal(|ui| {
                        if ui.button(t("Take ours")).clicked() {
                            picked = Some((i, Side::Ours));
                        }
                        if ui.button(t("Take theirs")).clicked() {
                            picked = Some((i, Side::Theirs));
                        }
                    });
                });
            });
        }
        ui.separator();
        if let Some(guid) = frame {
            cx.requests.push(Request::Frame(vec![guid]));
        }
        if let Some((i, side)) = picked {
            match ResolveConflict::new(cx.session.document(), i, side) {
                Ok(cmd) => {
                    cx.apply(cmd);
                }
                Err(e) => cx.toasts.error(e.to_string()),
            }
        }
    }
}

/// The part and field for people: `node "Patrol" params.speed`.
fn part_label(cx: &UiCx<'_>, c: &Conflict) -> String {
    let doc = cx.session.document();
    let name = match c.scope.as_str() {
        "node" => doc.node(&c.id).map(|n| format!("\"{}\"", n.name)),
        "tree" => None,
        _ => Some(c.id.clone()).filter(|id| !id.is_empty()),
    };
    let mut out = c.scope.clone();
    for piece in [name.as_deref(), Some(c.field.as_str())]
        .into_iter()
        .flatten()
    {
        if !piece.is_empty() {
            out.push(' ');
            out.push_str(piece);
        }
    }
    out
}

/// A recorded value: its JSON, or that the side had none (the part or field was absent).
fn shown(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| t("(absent)").to_owned(), Value::to_string)
}
