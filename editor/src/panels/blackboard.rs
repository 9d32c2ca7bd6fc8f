//! Blackboard panel: the declared keys, one block each (name, type and delete button;
//! default and users; description), as wide as the side panel and never wider, with an
//! add-key row.
//!
//! - A rename is committed on Enter or when the field loses focus (not per keystroke: the
//!   name is the key's identity and `RenameKey` rewrites every reference); Escape cancels.
//! - Deleting a key that parameters still name asks first, listing where it is used;
//!   deleting leaves those references dangling, and validation lists them.
//! - Defaults and descriptions are edited like the inspector's fields: one undo step per
//!   focus.
//! - "Used by" counts the nodes that read and write each key (key parameters and bindings,
//!   by their declared direction; hover for the list). Clicking it selects the key, and the
//!   canvas marks those nodes.

use crate::i18n::t;

use std::collections::BTreeMap;

use arbor_runtime::{Direction, ValueType};
use egui::{Align2, ComboBox, Id, Key, RichText, TextEdit, Ui};

use super::apply;
use super::widgets::{value_ui, Shape};
use crate::commands::{AddKey, RemoveKey, RenameKey, RetypeKey, SetKeyDefault, SetText, TextField};
use crate::document::{Document, KeyUsage, Owner};
use crate::view::{Request, UiCx, View};

/// Users a hover over "Used by" names at most.
const HOVER_USERS: usize = 20;
/// The narrowest a key's name field gets, however short the name.
const MIN_NAME_WIDTH: f32 = 60.0;
/// What the rest of a key's first line takes: the type box, the delete button, spacing.
const NAME_ROW_REST: f32 = 120.0;

/// See the module documentation.
#[derive(Debug)]
pub struct BlackboardPanel {
    /// The key whose name field has focus, and the text typed so far.
    renaming: Option<(String, String)>,
    new_name: String,
    new_type: ValueType,
    /// Why the last add was refused, shown under the add row.
    add_error: Option<String>,
    /// A used key waiting for the user to confirm its deletion.
    confirm_delete: Option<String>,
    /// Every key's users, found once per document generation (a scan of every
    /// parameter: a frame must not cost that on a large tree).
    usages: (Option<u64>, BTreeMap<String, Vec<KeyUsage>>),
}

impl Default for BlackboardPanel {
    fn default() -> Self {
        BlackboardPanel {
            renaming: None,
            new_name: String::new(),
            new_type: ValueType::Int,
            add_error: None,
            confirm_delete: None,
            usages: (None, BTreeMap::new()),
        }
    }
}

/// `"Walk" decorator Condition, param key`: where a key is used, for people.
pub fn describe_usage(doc: &Document, usage: &KeyUsage) -> String {
    let node = doc.label(usage.owner.node());
    let owner = match &usage.owner {
        Owner::Node(_) => format!("\"{node}\""),
        Owner::Decorator { node: n, decorator } => {
            let kind = doc
                .decorator(n, decorator)
                .map_or("decorator", |d| d.kind.as_str());
            format!("\"{node}\" › {kind}")
        }
    };
    match &usage.entry {
        Some(entry) => format!("{owner}: {}[{entry}]", usage.param),
        None => format!("{owner}: {}", usage.param),
    }
}

impl BlackboardPanel {
    /// The id of a key's name field.
    pub fn name_id(key: &str) -> Id {
        Id::new(("blackboard name", key))
    }

    /// The id of a key's default value widget.
    pub fn default_id(key: &str) -> Id {
        Id::new(("blackboard default", key))
    }

    /// The id of a key's description field.
    pub fn description_id(key: &str) -> Id {
        Id::new(("blackboard description", key))
    }

    /// The id of the new key's name field.
    pub fn new_name_id() -> Id {
        Id::new("blackboard new name")
    }

    /// The key whose deletion waits for confirmation, if any.
    pub fn confirming(&self) -> Option<&str> {
        self.confirm_delete.as_deref()
    }

    fn name_cell(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>, key: &str) {
        let mut text = match &self.renaming {
            Some((k, typed)) if k == key => typed.clone(),
            _ => key.to_owned(),
        };
        // As wide as the name (a key name is read in full), within what the row leaves
        // for the type and the delete button.
        let font = egui::TextStyle::Body.resolve(ui.style());
        let needed = ui
            .painter()
            .layout_no_wrap(text.clone(), font, egui::Color32::WHITE)
            .size()
            .x;
        let room = (ui.available_width() - NAME_ROW_REST).max(MIN_NAME_WIDTH);
        let r = ui
            .add(
                TextEdit::singleline(&mut text)
                    .id(Self::name_id(key))
                    .desired_width((needed + 8.0).clamp(MIN_NAME_WIDTH, room)),
            )
            .on_hover_text(t("Enter renames the key and every parameter naming it"));
        if r.lost_focus() {
            self.renaming = None;
            let cancelled = ui.input(|i| i.key_pressed(Key::Escape));
            let new = text.trim();
            if !cancelled && new != key {
                let cmd = RenameKey::new(cx.session.document(), cx.session.types(), key, new);
                let references = cmd.as_ref().map_or(0, RenameKey::references);
                if apply(cx, cmd) && references > 0 {
                    cx.toasts.info(format!(
                        "Renamed `{key}` to `{new}` in {}",
                        crate::words::count(references, "parameter")
                    ));
                }
            }
        } else if r.has_focus() {
            self.renaming = Some((key.to_owned(), text));
        }
    }

    fn add_row(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        ui.horizontal(|ui| {
            let r = ui.add(
                TextEdit::singleline(&mut self.new_name)
                    .id(Self::new_name_id())
                    .hint_text(t("new key"))
                    .desired_width(100.0),
            );
            if r.changed() {
                self.add_error = None;
            }
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            ComboBox::from_id_salt("blackboard new type")
                .selected_text(self.new_type.as_str())
                .width(70.0)
                .show_ui(ui, |ui| {
                    for ty in ValueType::ALL {
                        ui.selectable_value(&mut self.new_type, ty, ty.as_str());
                    }
                });
            if ui.button(t("Add key")).clicked() || enter {
                let name = self.new_name.trim().to_owned();
                // Checked here as well as by the command, so that the reason shows by
                // the field and the field keeps the text to fix.
                let cmd = AddKey::new(&name, self.new_type, None);
                match cx.session.apply(cmd) {
                    Ok(_) => {
                        self.new_name.clear();
                        self.add_error = None;
                    }
                    Err(e) => self.add_error = Some(e.to_string()),
                }
            }
        });
        if let Some(error) = &self.add_error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
    }

    fn confirm_window(&mut self, ctx: &egui::Context, cx: &mut UiCx<'_>) {
        let Some(key) = self.confirm_delete.clone() else {
            return;
        };
        let usages = cx.session.key_usages(&key);
        let doc = cx.session.document();
        let rows: Vec<(String, String)> = usages
            .iter()
            .map(|u| (u.owner.node().to_owned(), describe_usage(doc, u)))
            .collect();
        let mut decision = None;
        egui::Window::new("Delete key?")
            .id(Id::new("blackboard confirm delete"))
            .collapsible(false)
            .resizable(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                ui.label(format!(
                    "`{key}` is used by {}:",
                    crate::words::count(rows.len(), "parameter")
                ));
                for (node, text) in &rows {
                    if ui
                        .link(text)
                        .on_hover_text(t("Show on the canvas"))
                        .clicked()
                    {
                        cx.requests.push(Request::Frame(vec![node.clone()]));
                    }
                }
                ui.label(t("Deleting it leaves these references dangling."));
                ui.horizontal(|ui| {
                    if ui.button(t("Delete anyway")).clicked() {
                        decision = Some(true);
                    }
                    if ui.button(t("Cancel")).clicked() {
                        decision = Some(false);
                    }
                });
            });
        if ctx.input(|i| i.key_pressed(Key::Escape)) {
            decision = Some(false);
        }
        match decision {
            Some(true) => {
                self.confirm_delete = None;
                let cmd = RemoveKey::new(cx.session.document(), &key);
                apply(cx, cmd);
            }
            Some(false) => self.confirm_delete = None,
            None => {}
        }
    }
}

impl View for BlackboardPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        let keys = cx.session.document().blackboard().to_vec();
        ui.heading(format!("{} ({})", t("Blackboard"), keys.len()));
        let mut delete = None;
        if keys.is_empty() {
            ui.weak(t("No keys declared"));
        }
        let generation = cx.session.generation();
        if self.usages.0 != Some(generation) {
            let doc = cx.session.document();
            self.usages = (Some(generation), doc.all_key_usages(cx.session.types()));
        }
        let usages = std::mem::take(&mut self.usages.1);
        // One block per key, as wide as the panel and never wider: a side panel is
        // narrow, so a table of six columns would push the description and the delete
        // button out of sight (and squeeze the names). The name's field fits its text;
        // what does not fit on the first line wraps under it.
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                ui.separator();
            }
            ui.horizontal(|ui| {
                self.name_cell(ui, cx, &k.key);
                type_cell(ui, cx, &k.key, k.ty);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui
                        .small_button("🗑")
                        .on_hover_text(t("Delete this key"))
                        .clicked()
                    {
                        delete = Some(k.key.clone());
                    }
                });
            });
            ui.horizontal_wrapped(|ui| {
                ui.weak(t("default"));
                default_cell(ui, cx, &k.key, k.ty, k.default.as_ref());
                let used = usages.get(&k.key).map_or(&[][..], Vec::as_slice);
                usage_cell(ui, cx, &k.key, used);
            });
            description_cell(ui, cx, &k.key, &k.description);
        }
        if self.usages.0 == Some(cx.session.generation()) {
            self.usages.1 = usages;
        }
        if let Some(key) = delete {
            if cx.session.key_usages(&key).is_empty() {
                let cmd = RemoveKey::new(cx.session.document(), &key);
                apply(cx, cmd);
            } else {
                self.confirm_delete = Some(key);
            }
        }
        self.add_row(ui, cx);
        self.confirm_window(ui.ctx(), cx);
    }
}

/// `2 read · 1 write`: the nodes using the key, by access; a click selects the key (the
/// canvas marks its readers and writers), a second click clears it.
fn usage_cell(ui: &mut Ui, cx: &mut UiCx<'_>, key: &str, usages: &[KeyUsage]) {
    let reads = usages.iter().filter(|u| u.access.reads()).count();
    let writes = usages.iter().filter(|u| u.access.writes()).count();
    let text = if usages.is_empty() {
        "unused".to_owned()
    } else {
        format!("{reads} {} · {writes} {}", t("read"), t("write"))
    };
    let selected = cx.selection.key.as_deref() == Some(key);
    let doc = cx.session.document();
    // Written only while hovered: naming each user looks its node up, and a key of a
    // large tree can have thousands of users.
    let response = ui
        .selectable_label(selected, RichText::new(text).size(crate::fonts::SMALL_TEXT))
        .on_hover_ui(|ui| {
            if usages.is_empty() {
                ui.label(t("No node reads or writes this key"));
                return;
            }
            for u in usages.iter().take(HOVER_USERS) {
                let how = match u.access {
                    Direction::In => "reads",
                    Direction::Out => "writes",
                    Direction::InOut => "reads and writes",
                };
                ui.label(format!("{how}: {}", describe_usage(doc, u)));
            }
            if usages.len() > HOVER_USERS {
                ui.label(format!("… and {} more", usages.len() - HOVER_USERS));
            }
            ui.label(t("Click to mark them on the canvas"));
        });
    if response.clicked() {
        cx.selection.key = if selected { None } else { Some(key.to_owned()) };
    }
}

fn type_cell(ui: &mut Ui, cx: &mut UiCx<'_>, key: &str, ty: ValueType) {
    let mut chosen = None;
    ComboBox::from_id_salt(("blackboard type", key))
        .selected_text(ty.as_str())
        .width(70.0)
        .show_ui(ui, |ui| {
            for t in ValueType::ALL {
                if ui.selectable_label(t == ty, t.as_str()).clicked() && t != ty {
                    chosen = Some(t);
                }
            }
        })
        .response
        .on_hover_text(t(
            "Changing the type drops a default the new type cannot hold",
        ));
    if let Some(t) = chosen {
        let cmd = RetypeKey::new(cx.session.document(), key, t);
        apply(cx, cmd);
    }
}

fn default_cell(
    ui: &mut Ui,
    cx: &mut UiCx<'_>,
    key: &str,
    ty: ValueType,
    default: Option<&serde_json::Value>,
) {
    ui.horizontal(|ui| {
        let change = value_ui(
            ui,
            cx.gestures,
            BlackboardPanel::default_id(key),
            Shape::of_type(ty),
            default,
            None,
        );
        if let Some(c) = change {
            let cmd = SetKeyDefault::new(cx.session.document(), key, Some(c.value))
                .map(|cmd| cmd.gesture(c.gesture));
            apply(cx, cmd);
        }
        if default.is_some() {
            let clear = ui.small_button("×").on_hover_text(t(
                "Clear the default: the key has no valid value until written",
            ));
            if clear.clicked() {
                let gesture = cx.gestures.fresh();
                let cmd = SetKeyDefault::new(cx.session.document(), key, None)
                    .map(|cmd| cmd.gesture(gesture));
                apply(cx, cmd);
            }
        } else {
            ui.weak(t("none"))
                .on_hover_text(t("No default: the key has no valid value until written"));
        }
    });
}

fn description_cell(ui: &mut Ui, cx: &mut UiCx<'_>, key: &str, description: &str) {
    let mut text = description.to_owned();
    let r = ui.add(
        TextEdit::singleline(&mut text)
            .id(BlackboardPanel::description_id(key))
            .hint_text(t("description"))
            .desired_width(ui.available_width()),
    );
    let gesture = cx.gestures.for_response(&r);
    if r.changed() {
        let field = TextField::KeyDescription(key.to_owned());
        let cmd = SetText::new(cx.session.document(), field, text).map(|c| c.gesture(gesture));
        apply(cx, cmd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::testing::{central, Harness};
    use crate::Session;
    use egui::Modifiers;
    use serde_json::json;

    /// A session with keys `hp` (int) and `zone` (string), and a Condition node on `hp`.
    fn session() -> (Session, String) {
        let mut s = Session::default();
        s.apply(AddKey::new("hp", ValueType::Int, Some(json!(10))))
            .unwrap();
        s.apply(AddKey::new("zone", ValueType::String, None))
            .unwrap();
        let cond = s.add_node("Condition", [0.0, 0.0]).unwrap();
        let cmd = crate::commands::SetParam::new(
            s.document(),
            Owner::Node(cond.clone()),
            "key",
            Some(json!("hp")),
        )
        .unwrap();
        s.apply(cmd).unwrap();
        (s, cond)
    }

    #[test]
    fn renaming_a_key_on_enter_updates_the_parameters_naming_it() {
        let (s, cond) = session();
        let mut h = Harness::new(s);
        let mut panel = BlackboardPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        let steps = h.session.history().len();
        h.click_id(BlackboardPanel::name_id("hp"), &mut draw);
        h.key(Key::End, Modifiers::NONE, &mut draw);
        h.type_text("_max", &mut draw);
        assert!(
            h.session.document().key("hp").is_some(),
            "not per keystroke"
        );
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        let doc = h.session.document();
        assert!(doc.key("hp").is_none() && doc.key("hp_max").is_some());
        assert_eq!(doc.node(&cond).unwrap().params["key"], json!("hp_max"));
        assert_eq!(h.session.history().len(), steps + 1);

        // Escape cancels.
        h.frame(&mut draw);
        h.click_id(BlackboardPanel::name_id("zone"), &mut draw);
        h.type_text("xx", &mut draw);
        h.key(Key::Escape, Modifiers::NONE, &mut draw);
        assert!(h.session.document().key("zone").is_some());
        assert_eq!(h.session.history().len(), steps + 1);

        // A clash is refused with a message, and the old name shows again.
        h.click_id(BlackboardPanel::name_id("zone"), &mut draw);
        h.key(Key::A, Modifiers::COMMAND, &mut draw);
        h.type_text("hp_max", &mut draw);
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        assert_eq!(
            h.toasts.texts(),
            [
                "Renamed `hp` to `hp_max` in 1 parameter",
                "a key named `hp_max` already exists"
            ]
        );
        assert!(h.session.document().key("zone").is_some());
        h.frame(&mut draw);
        assert!(h.shows("zone"));
    }

    #[test]
    fn deleting_a_used_key_asks_first() {
        let (s, cond) = session();
        let mut h = Harness::new(s);
        let mut panel = BlackboardPanel::default();
        {
            let mut draw = central(|ui, cx| panel.ui(ui, cx));
            h.settle(&mut draw);
            let delete = h.text_rect_in_row("🗑", "zone").center();
            h.click_at(delete, &mut draw);
            assert!(
                h.session.document().key("zone").is_none(),
                "unused: no question"
            );
            assert!(!h.shows("Delete key?"));

            h.settle(&mut draw);
            let delete = h.text_rect_in_row("🗑", "hp").center();
            h.click_at(delete, &mut draw);
            assert!(h.session.document().key("hp").is_some(), "used: asks first");
            assert!(h.shows("Delete key?"));
            assert!(h.shows("is used by 1 parameter"));
            assert!(h.shows("\"Condition\": key"));
            h.click_text("Cancel", &mut draw);
            assert!(h.session.document().key("hp").is_some());
            assert!(!h.shows("Delete key?"));

            h.settle(&mut draw);
            let delete = h.text_rect_in_row("🗑", "hp").center();
            h.click_at(delete, &mut draw);
            h.click_text("Delete anyway", &mut draw);
        }
        assert!(h.session.document().key("hp").is_none());
        assert_eq!(panel.confirming(), None);
        // The reference is left dangling, for validation to report.
        let doc = h.session.document();
        assert_eq!(doc.node(&cond).unwrap().params["key"], json!("hp"));
    }

    #[test]
    fn adding_keys_refuses_empty_and_duplicate_names() {
        let (s, _) = session();
        let mut h = Harness::new(s);
        let mut panel = BlackboardPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        h.click_text("Add key", &mut draw);
        assert!(h.shows("a key needs a name"));
        h.click_id(BlackboardPanel::new_name_id(), &mut draw);
        h.type_text("hp", &mut draw);
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        assert!(h.shows("already exists"));
        assert_eq!(h.session.document().blackboard().len(), 2);
        h.click_id(BlackboardPanel::new_name_id(), &mut draw);
        h.type_text("2", &mut draw);
        h.click_text("Add key", &mut draw);
        assert_eq!(h.session.document().blackboard()[2].key, "hp2");
        assert!(!h.shows("already exists"));
    }

    #[test]
    fn defaults_types_and_descriptions_are_edited_in_place() {
        let (s, _) = session();
        let mut h = Harness::new(s);
        let mut panel = BlackboardPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        let steps = h.session.history().len();
        // The string default: typed, one step.
        h.click_id(BlackboardPanel::default_id("zone"), &mut draw);
        h.type_text("no", &mut draw);
        h.type_text("rth", &mut draw);
        assert_eq!(
            h.session.document().key("zone").unwrap().default,
            Some(json!("north"))
        );
        assert_eq!(h.session.history().len(), steps + 1);
        // The description.
        h.click_id(BlackboardPanel::description_id("hp"), &mut draw);
        h.type_text("health", &mut draw);
        assert_eq!(
            h.session.document().key("hp").unwrap().description,
            "health"
        );
        // Retyping: hp becomes a bool, and its default 10 is dropped.
        let combo = h.text_rect_in_row("int", "hp").center();
        h.click_at(combo, &mut draw);
        h.click_text("bool", &mut draw);
        let hp = h.session.document().key("hp").unwrap();
        assert_eq!((hp.ty, &hp.default), (ValueType::Bool, &None));
        assert_eq!(h.session.history().len(), steps + 3);
    }

    #[test]
    fn a_json_default_is_committed_only_when_valid() {
        let mut s = Session::default();
        s.apply(AddKey::new("data", ValueType::Json, None)).unwrap();
        let mut h = Harness::new(s);
        let mut panel = BlackboardPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        let default = |h: &Harness| h.session.document().key("data").unwrap().default.clone();
        h.click_id(BlackboardPanel::default_id("data"), &mut draw);
        h.type_text("{\"a\":", &mut draw);
        assert_eq!(default(&h), None, "not JSON yet");
        h.type_text(" [1, 2", &mut draw);
        assert_eq!(default(&h), None);
        h.type_text("]}", &mut draw);
        assert_eq!(default(&h), Some(json!({"a": [1, 2]})));
        h.type_text("x", &mut draw);
        assert_eq!(
            default(&h),
            Some(json!({"a": [1, 2]})),
            "invalid again: kept"
        );
        assert_eq!(h.session.history().len(), 2, "one step for the field");
        // Leaving the field drops the invalid text.
        h.click_at(egui::pos2(1200.0, 1000.0), &mut draw);
        assert!(h.shows("{\"a\":[1,2]}"));
    }
}
