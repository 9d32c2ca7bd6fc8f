//! LiveBlackboard: the blackboard of a running agent, the local preview's or an attached
//! program's, drawn and edited by one widget: each key's value (`—` when it has none,
//! rule 33), the seconds left for a value that expires, and while the agent is paused a
//! field per key. An edit is committed when the field loses focus (Enter or clicking
//! away) with a changed text; the owner applies it as a host input to the agent (a
//! stimulus, not a change to the document) and reports the outcome with
//! [`LiveBlackboard::edited`]. The text is read by [`parse_value`].
//!
//! A key the program itself writes before each tick (a sample's senses) is tagged, and a
//! committed edit to it says that the next tick overwrites it: otherwise the value would
//! silently revert.

use crate::i18n::t;

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// One key as the widget shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    /// The declared type, for the tooltip, when known.
    pub ty: Option<String>,
    /// `None`: the key has no valid value.
    pub value: Option<Value>,
    /// Seconds until the value expires, for a value with a ttl.
    pub expires_in: Option<f64>,
    /// Written by the program before each tick: an edit lasts until the next tick.
    pub sensed: bool,
}

/// Text being typed per key, and the last refused edit.
#[derive(Debug, Default)]
pub struct LiveBlackboard {
    drafts: HashMap<String, String>,
    error: Option<(String, String)>,
    /// The sensed keys last drawn, and the one just edited (its edit will not last).
    sensed: HashSet<String>,
    overwritten: Option<String>,
}

/// Longest value text shown whole; longer values are cut and cannot be edited here.
pub const MAX_SHOWN_BYTES: usize = 256;

/// An edit's text as a value: JSON (`12`, `true`, `"red"`, `{"value": v, "ttl": 3}`), or a
/// bare word as text (`idle` means `"idle"`).
pub fn parse_value(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|_| Value::String(text.to_owned()))
}

impl LiveBlackboard {
    /// Draws the entries; returns `(key, text)` when the user committed an edit.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        id_salt: &str,
        entries: &[Entry],
        editable: bool,
    ) -> Option<(String, String)> {
        ui.horizontal(|ui| {
            ui.strong(t("Blackboard"));
            if !editable {
                ui.weak(t("(pause to edit)"));
            }
        });
        if !editable {
            // Drafts start from the live value again the next time the agent pauses.
            self.drafts.clear();
            self.overwritten = None;
        }
        self.sensed = entries
            .iter()
            .filter(|e| e.sensed)
            .map(|e| e.key.clone())
            .collect();
        if entries.is_empty() {
            ui.weak(t("The tree declares no keys."));
            return None;
        }
        let mut edit = None;
        egui::ScrollArea::vertical()
            .id_salt(id_salt)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new(id_salt)
                    .num_columns(3)
                    .striped(true)
                    .show(ui, |ui| {
                        for entry in entries {
                            edit = edit.take().or(self.row(ui, entry, editable));
                        }
                    });
            });
        edit
    }

    fn row(
        &mut self,
        ui: &mut egui::Ui,
        entry: &Entry,
        editable: bool,
    ) -> Option<(String, String)> {
        ui.horizontal(|ui| {
            let label = ui.label(&entry.key);
            if let Some(ty) = &entry.ty {
                label.on_hover_text(format!("{ty} key"));
            }
            if entry.sensed {
                ui.label(
                    egui::RichText::new(t("sensed"))
                        .color(ui.visuals().warn_fg_color)
                        .size(crate::fonts::SMALL_TEXT),
                )
                .on_hover_text(t(
                    "written by the sample each tick: a change here is overwritten on the next tick",
                ));
            }
        });
        let value = entry
            .value
            .as_ref()
            .map_or_else(|| "—".to_owned(), Value::to_string);
        // A huge value (a script that grew a string) is shown cut, and not edited: laying
        // out megabytes of text every frame would stall the editor.
        let long = value.len() > MAX_SHOWN_BYTES;
        let mut edit = None;
        if editable && !long {
            let draft = self
                .drafts
                .entry(entry.key.clone())
                .or_insert_with(|| value.clone());
            let response = ui.add(
                egui::TextEdit::singleline(draft)
                    .desired_width(120.0)
                    .code_editor(),
            );
            if response.lost_focus() && *draft != value {
                edit = Some((entry.key.clone(), draft.clone()));
            } else if !response.has_focus() {
                // Follow the value until the user starts typing.
                *draft = value;
            }
            response.on_hover_text(
                "JSON, e.g. 12, true, \"red\" (a bare word is text); {\"value\": v, \"ttl\": 3} expires",
            );
        } else if long {
            let mut cut = MAX_SHOWN_BYTES;
            while !value.is_char_boundary(cut) {
                cut -= 1;
            }
            ui.monospace(format!("{}… ({} bytes)", &value[..cut], value.len()));
        } else {
            ui.monospace(value);
        }
        match entry.expires_in {
            Some(left) => ui
                .label(format!("expires in {left:.1} s"))
                .on_hover_text(t("Seconds until the value expires (ttl)")),
            None => ui.label(""),
        };
        ui.end_row();
        if self.overwritten.as_ref() == Some(&entry.key) {
            ui.label("");
            ui.colored_label(
                ui.visuals().warn_fg_color,
                t("Set. The sample writes this key before each tick: the next tick overwrites it."),
            );
            ui.end_row();
        }
        if let Some((_, message)) = self.error.as_ref().filter(|(k, _)| *k == entry.key) {
            ui.label("");
            ui.colored_label(ui.visuals().error_fg_color, message);
            ui.end_row();
        }
        edit
    }

    /// The outcome of an edit returned by [`LiveBlackboard::ui`].
    pub fn edited(&mut self, key: &str, result: Result<(), String>) {
        match result {
            Ok(()) => {
                self.error = None;
                self.drafts.remove(key);
                self.overwritten = self.sensed.contains(key).then(|| key.to_owned());
            }
            Err(message) => self.error = Some((key.to_owned(), message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn edits_read_as_json_or_else_as_text() {
        assert_eq!(parse_value(" 12 "), json!(12));
        assert_eq!(parse_value("\"red\""), json!("red"));
        assert_eq!(parse_value("idle"), json!("idle"));
        assert_eq!(
            parse_value("{\"value\": 1, \"ttl\": 3}"),
            json!({"value": 1, "ttl": 3})
        );
    }

    /// The texts one frame of the widget paints.
    fn frame(bb: &mut LiveBlackboard, entries: &[Entry], editable: bool) -> String {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            bb.ui(ui, "test", entries, editable);
        });
        // No renderer takes the font atlas here.
        output.textures_delta.clear();
        format!("{:?}", output.shapes)
    }

    #[test]
    fn an_edit_to_a_sensed_key_says_the_next_tick_overwrites_it() {
        let entry = |key: &str, sensed| Entry {
            key: key.to_owned(),
            ty: Some("bool".to_owned()),
            value: Some(json!(false)),
            expires_in: None,
            sensed,
        };
        let entries = [entry("enemy_visible", true), entry("alarm", false)];
        let mut bb = LiveBlackboard::default();
        let shown = frame(&mut bb, &entries, true);
        assert!(shown.contains("sensed") && !shown.contains("overwrites"));
        let unsensed = frame(&mut LiveBlackboard::default(), &entries[1..], true);
        assert!(
            !unsensed.contains("sensed"),
            "a key the program does not write is not"
        );

        bb.edited("alarm", Ok(()));
        assert!(!frame(&mut bb, &entries, true).contains("overwrites"));
        bb.edited("enemy_visible", Ok(()));
        assert!(frame(&mut bb, &entries, true).contains("the next tick overwrites it"));
        // Playing on: the tick has overwritten it, the warning has done its job.
        frame(&mut bb, &entries, false);
        assert!(!frame(&mut bb, &entries, true).contains("overwrites"));
    }
}
