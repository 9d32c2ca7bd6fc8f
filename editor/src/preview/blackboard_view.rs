//! BlackboardView: the running agent's blackboard: each key's valid value (rule 33: `—`
//! when it has none) and, for values that expire, the seconds left. While the preview is
//! paused the values are editable; an edit is a host input to the agent (a stimulus), not
//! a change to the document, and is applied by [`super::Preview::set_blackboard`].

use std::collections::HashMap;

use arbor_runtime::Blackboard;

/// Text being typed per key, and the last refused edit.
#[derive(Debug, Default)]
pub struct BlackboardView {
    drafts: HashMap<String, String>,
    error: Option<(String, String)>,
}

impl BlackboardView {
    /// Draws the blackboard; returns `(key, text)` when the user committed an edit (Enter
    /// or clicking away), for the preview to apply.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        bb: Option<&Blackboard>,
        editable: bool,
    ) -> Option<(String, String)> {
        ui.horizontal(|ui| {
            ui.strong("Blackboard");
            if !editable {
                ui.weak("(pause to edit)");
            }
        });
        if !editable {
            // Drafts start from the live value again the next time the preview pauses.
            self.drafts.clear();
        }
        let Some(bb) = bb else {
            ui.weak("No agent is running.");
            return None;
        };
        if bb.keys().next().is_none() {
            ui.weak("The tree declares no keys.");
            return None;
        }
        let mut edit = None;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("arbor_preview_blackboard")
                    .num_columns(3)
                    .striped(true)
                    .show(ui, |ui| {
                        for (key, info) in bb.keys() {
                            ui.label(&info.name)
                                .on_hover_text(format!("{} key", info.ty.as_str()));
                            let value = bb
                                .get(key)
                                .map_or_else(|| "—".to_owned(), |v| v.to_json().to_string());
                            if editable {
                                let draft = self
                                    .drafts
                                    .entry(info.name.clone())
                                    .or_insert_with(|| value.clone());
                                let response = ui.add(
                                    egui::TextEdit::singleline(draft)
                                        .desired_width(120.0)
                                        .code_editor(),
                                );
                                if response.lost_focus() && *draft != value {
                                    edit = Some((info.name.clone(), draft.clone()));
                                } else if !response.has_focus() {
                                    // Follow the value until the user starts typing.
                                    *draft = value;
                                }
                                response.on_hover_text(
                                    "JSON, e.g. 12, true, \"red\"; {\"value\": v, \"ttl\": 3} expires",
                                );
                            } else {
                                ui.monospace(value);
                            }
                            match bb.remaining(key) {
                                Some(left) => ui
                                    .label(format!("expires in {left:.1} s"))
                                    .on_hover_text("Seconds until the value expires (ttl)"),
                                None => ui.label(""),
                            };
                            ui.end_row();
                            if let Some((_, message)) =
                                self.error.as_ref().filter(|(k, _)| *k == info.name)
                            {
                                ui.label("");
                                ui.colored_label(ui.visuals().error_fg_color, message);
                                ui.end_row();
                            }
                        }
                    });
            });
        edit
    }

    /// The outcome of an edit returned by [`BlackboardView::ui`].
    pub fn edited(&mut self, key: &str, result: Result<(), String>) {
        match result {
            Ok(()) => {
                self.error = None;
                self.drafts.remove(key);
            }
            Err(message) => self.error = Some((key.to_owned(), message)),
        }
    }
}
