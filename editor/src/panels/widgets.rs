//! Value widgets shared by the inspector (parameters) and the blackboard panel (key
//! defaults): one widget per kind of value ([`Shape`]), each reporting a [`Change`] with the
//! gesture it belongs to, so the caller builds one command per change and the keystrokes
//! typed into one field merge into one undo step.
//!
//! A value may be absent (a parameter left to its default, a key without a default): the
//! widget then shows the fallback greyed, and any edit sets an explicit value. Values of the
//! wrong type (a hand-edited file) are shown with a red mark that says what was expected;
//! the widget still edits them.
//!
//! Text-like widgets (text, JSON) take the id they are given, so that a caller (or a test)
//! can find them with `ctx.read_response(id)` and give them focus.

use crate::i18n::t;

use arbor_runtime::format::KeyDecl;
use arbor_runtime::{ParamKind, ParamSpec, ValueType};
use egui::{Button, ComboBox, DragValue, Id, RichText, TextEdit, Ui, UiBuilder};
use serde_json::{Map, Value};

use crate::view::Gestures;

/// The statuses a `Statuses` list may hold, as the runtime spells them.
pub const STATUSES: [&str; 3] = ["success", "failure", "running"];

/// Width of a value field, so that the rows of a grid line up.
pub const FIELD_WIDTH: f32 = 150.0;

/// Which widget edits a value.
#[derive(Clone, Copy, Debug)]
pub enum Shape<'a> {
    Bool,
    Int,
    Float,
    /// A string: plain text, a path, an event or trigger name.
    Text,
    /// Any JSON value, typed as JSON text; only valid JSON is committed.
    Json,
    /// A list or map of one scalar type, typed as JSON text (`[1, 2]`, `{"a": true}`);
    /// valid JSON is committed, and a value of the wrong shape is marked.
    Typed(ValueType),
    /// A `vec2` (2) or `vec3` (3): one number field per component, `x`, `y`, `z`.
    Vector(usize),
    /// An `entity`: its 64-bit id, a whole number from 0.
    Entity,
    /// One of these strings.
    Enum(&'a [String]),
    /// The name of one of these declared keys.
    Key(&'a [KeyDecl]),
    /// A non-empty list of statuses.
    Statuses,
    /// An object mapping names (a subtree's keys) to these declared keys.
    KeyMap(&'a [KeyDecl]),
    /// Code in the script language, checked against these declared keys as it is typed.
    Script(&'a [KeyDecl]),
}

impl Shape<'static> {
    /// The widget for a value of a blackboard key's type.
    pub fn of_type(ty: ValueType) -> Shape<'static> {
        match ty {
            ValueType::Bool => Shape::Bool,
            ValueType::Int => Shape::Int,
            ValueType::Float => Shape::Float,
            ValueType::String => Shape::Text,
            ValueType::Json => Shape::Json,
            ValueType::Vec2 => Shape::Vector(2),
            ValueType::Vec3 => Shape::Vector(3),
            ValueType::Entity => Shape::Entity,
            // A user type is JSON text, checked as typed against the type (its program's
            // manifest declaration, in the editor).
            ValueType::List(_) | ValueType::Map(_) | ValueType::User(_) => Shape::Typed(ty),
        }
    }
}

impl<'a> Shape<'a> {
    /// The widget for a declared parameter. `key_type` is the type of the key that the
    /// owner's `key` parameter names, which types a `KeyValue` parameter; without one (no
    /// key chosen yet, or an undeclared key) any JSON value is accepted.
    pub fn of_param(
        spec: &'a ParamSpec,
        keys: &'a [KeyDecl],
        key_type: Option<ValueType>,
    ) -> Shape<'a> {
        match spec.kind {
            ParamKind::Bool => Shape::Bool,
            ParamKind::Int => Shape::Int,
            ParamKind::Float => Shape::Float,
            ParamKind::String | ParamKind::Path | ParamKind::Event | ParamKind::Trigger => {
                Shape::Text
            }
            ParamKind::Script => Shape::Script(keys),
            ParamKind::Key => Shape::Key(keys),
            ParamKind::KeyValue => key_type.map_or(Shape::Json, Shape::of_type),
            ParamKind::Statuses => Shape::Statuses,
            ParamKind::Enum => Shape::Enum(&spec.values),
            ParamKind::KeyMap => Shape::KeyMap(keys),
            ParamKind::Json => Shape::Json,
            ParamKind::List(_)
            | ParamKind::Map(_)
            | ParamKind::Vec2
            | ParamKind::Vec3
            | ParamKind::Entity
            | ParamKind::User(_) => spec.kind.value_kind().map_or(Shape::Json, Shape::of_type),
        }
    }

    /// What is wrong with `value` for this widget, if anything.
    fn mismatch(self, value: &Value) -> Option<String> {
        let plain = |ty: ValueType| ty.coerce(value).err();
        match self {
            Shape::Bool => plain(ValueType::Bool),
            Shape::Int => plain(ValueType::Int),
            Shape::Float => plain(ValueType::Float),
            Shape::Text | Shape::Key(_) | Shape::Script(_) => plain(ValueType::String),
            Shape::Json => None,
            Shape::Typed(ty) => plain(ty),
            Shape::Vector(2) => plain(ValueType::Vec2),
            Shape::Vector(_) => plain(ValueType::Vec3),
            Shape::Entity => plain(ValueType::Entity),
            Shape::Enum(values) => match value.as_str() {
                Some(s) if values.iter().any(|v| v == s) => None,
                _ => Some(format!(
                    "expected one of {}, found {value}",
                    values.join(", ")
                )),
            },
            Shape::Statuses => match value.as_array() {
                Some(list)
                    if list
                        .iter()
                        .all(|s| s.as_str().is_some_and(|s| STATUSES.contains(&s))) =>
                {
                    None
                }
                _ => Some(format!("expected a list of statuses, found {value}")),
            },
            Shape::KeyMap(_) => match value.as_object() {
                Some(map) if map.values().all(Value::is_string) => None,
                _ => Some(format!("expected an object of key names, found {value}")),
            },
        }
    }
}

/// An edit made through a widget this frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub value: Value,
    /// The gesture the edit belongs to: the same for every keystroke while a field keeps
    /// focus and for every frame of a drag; fresh for a click (a checkbox, a combo entry).
    pub gesture: u64,
}

/// The text being typed into a JSON field while it is not valid JSON yet, and the value
/// the field showed when typing began (a draft is dropped when the document's value
/// changes under it, e.g. on undo).
#[derive(Clone, Debug)]
struct JsonDraft {
    text: String,
    seen: Option<Value>,
}

/// Draws the widget for `shape` showing `current` (or `fallback`, greyed, when absent);
/// returns the edit made this frame, if any.
pub fn value_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    shape: Shape<'_>,
    current: Option<&Value>,
    fallback: Option<&Value>,
) -> Option<Change> {
    ui.horizontal(|ui| {
        if current.is_none() {
            // Greyed: the value shown is the default, not one stored in the document.
            ui.visuals_mut().override_text_color = Some(ui.visuals().weak_text_color());
        }
        let problem = current.and_then(|v| shape.mismatch(v));
        let shown = current.or(fallback);
        let change = match shape {
            Shape::Bool => bool_ui(ui, gestures, shown),
            Shape::Int => int_ui(ui, gestures, id, shown),
            Shape::Float => float_ui(ui, gestures, id, shown),
            Shape::Text => text_ui(ui, gestures, id, current, fallback),
            Shape::Script(keys) => super::script_field::script_ui(ui, gestures, id, current, keys),
            Shape::Json | Shape::Typed(_) => json_ui(ui, gestures, id, current, fallback),
            Shape::Vector(n) => vector_ui(ui, gestures, id, n, shown),
            Shape::Entity => entity_ui(ui, gestures, id, shown),
            Shape::Enum(values) => enum_ui(ui, id, values, shown).map(|value| Change {
                value,
                gesture: gestures.fresh(),
            }),
            Shape::Key(keys) => {
                key_combo(ui, id, keys, shown.and_then(Value::as_str)).map(|name| Change {
                    value: Value::String(name),
                    gesture: gestures.fresh(),
                })
            }
            Shape::Statuses => statuses_ui(ui, id, shown).map(|value| Change {
                value,
                gesture: gestures.fresh(),
            }),
            Shape::KeyMap(keys) => key_map_ui(ui, id, keys, shown).map(|value| Change {
                value,
                gesture: gestures.fresh(),
            }),
        };
        if let Some(problem) = problem {
            ui.colored_label(ui.visuals().error_fg_color, "⚠")
                .on_hover_text(problem);
        }
        change
    })
    .inner
}

/// Draws `add` in a scope whose id is `id` alone, not derived from the widgets drawn before
/// it: a `DragValue` takes its id from its scope's widget count, and typing a first value
/// can change what is drawn above it (a problem that goes away), which would give the field
/// a new id and take the keyboard focus from it mid-word.
fn in_scope<R>(ui: &mut Ui, id: Id, add: impl FnOnce(&mut Ui) -> R) -> R {
    ui.scope_builder(UiBuilder::new().id(id), add).inner
}

fn bool_ui(ui: &mut Ui, gestures: &mut Gestures, shown: Option<&Value>) -> Option<Change> {
    let mut b = shown.and_then(Value::as_bool).unwrap_or(false);
    let r = ui.checkbox(&mut b, "");
    r.changed().then(|| Change {
        value: Value::Bool(b),
        gesture: gestures.fresh(),
    })
}

fn int_ui(ui: &mut Ui, gestures: &mut Gestures, id: Id, shown: Option<&Value>) -> Option<Change> {
    let mut i = shown
        .and_then(|v| ValueType::Int.coerce(v).ok())
        .and_then(|v| v.as_i64())
        .unwrap_or(0);
    let r = in_scope(ui, id, |ui| ui.add(DragValue::new(&mut i)));
    // Every frame, so that gaining focus (typing into the value) starts a new gesture.
    let gesture = gestures.for_response(&r);
    r.changed().then(|| Change {
        value: Value::from(i),
        gesture,
    })
}

fn float_ui(ui: &mut Ui, gestures: &mut Gestures, id: Id, shown: Option<&Value>) -> Option<Change> {
    let mut f = shown.and_then(Value::as_f64).unwrap_or(0.0);
    let r = in_scope(ui, id, |ui| ui.add(DragValue::new(&mut f).speed(0.1)));
    let gesture = gestures.for_response(&r);
    if !r.changed() {
        return None;
    }
    // JSON has no NaN or infinity; a drag cannot produce them, typed text might.
    serde_json::Number::from_f64(f).map(|n| Change {
        value: Value::Number(n),
        gesture,
    })
}

/// The components of a vector value (`[x, y]`, or the object form `{"x": …}`), `n` of
/// them; zeros where the value is not one.
fn components(shown: Option<&Value>, n: usize) -> Vec<f64> {
    let ty = if n == 2 {
        ValueType::Vec2
    } else {
        ValueType::Vec3
    };
    let parsed = shown
        .and_then(|v| ty.coerce(v).ok())
        .map(|v| v.to_json())
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default();
    (0..n)
        .map(|i| parsed.get(i).and_then(Value::as_f64).unwrap_or(0.0))
        .collect()
}

fn vector_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    n: usize,
    shown: Option<&Value>,
) -> Option<Change> {
    let mut xyz = components(shown, n);
    let mut change = None;
    for (i, (c, name)) in xyz.iter_mut().zip(["x", "y", "z"]).enumerate() {
        let r = in_scope(ui, id.with(i), |ui| {
            ui.add(DragValue::new(c).speed(0.1).prefix(format!("{name} ")))
        });
        let gesture = gestures.for_response(&r);
        if r.changed() {
            change = Some(gesture);
        }
    }
    let gesture = change?;
    // JSON has no NaN or infinity; a drag cannot produce them, typed text might.
    let numbers: Option<Vec<Value>> = xyz
        .iter()
        .map(|c| serde_json::Number::from_f64(*c).map(Value::Number))
        .collect();
    numbers.map(|list| Change {
        value: Value::Array(list),
        gesture,
    })
}

fn entity_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    shown: Option<&Value>,
) -> Option<Change> {
    let mut entity = shown.and_then(Value::as_u64).unwrap_or(0);
    let r = in_scope(ui, id, |ui| {
        ui.add(DragValue::new(&mut entity).prefix("#"))
            .on_hover_text("An entity id (a whole number from 0)")
    });
    let gesture = gestures.for_response(&r);
    r.changed().then(|| Change {
        value: Value::from(entity),
        gesture,
    })
}

fn text_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    current: Option<&Value>,
    fallback: Option<&Value>,
) -> Option<Change> {
    let mut text = match current {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let hint = fallback.and_then(Value::as_str).unwrap_or_default();
    let r = ui.add(
        TextEdit::singleline(&mut text)
            .id(id)
            .hint_text(hint)
            .desired_width(FIELD_WIDTH),
    );
    let gesture = gestures.for_response(&r);
    r.changed().then_some(Change {
        value: Value::String(text),
        gesture,
    })
}

fn json_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    current: Option<&Value>,
    fallback: Option<&Value>,
) -> Option<Change> {
    let draft = ui
        .data(|d| d.get_temp::<JsonDraft>(id))
        .filter(|d| d.seen.as_ref() == current);
    let mut text = match &draft {
        Some(d) => d.text.clone(),
        None => current.map(Value::to_string).unwrap_or_default(),
    };
    let error = match serde_json::from_str::<Value>(&text) {
        Err(e) if !(text.is_empty() && current.is_none()) => Some(e.to_string()),
        _ => None,
    };
    let hint = fallback.map(Value::to_string).unwrap_or_default();
    let mut edit = TextEdit::singleline(&mut text)
        .id(id)
        .hint_text(hint)
        .desired_width(FIELD_WIDTH);
    if error.is_some() {
        edit = edit.text_color(ui.visuals().error_fg_color);
    }
    let mut r = ui.add(edit);
    if let Some(error) = &error {
        r = r.on_hover_text(format!("Not valid JSON (not saved): {error}"));
    }
    let gesture = gestures.for_response(&r);
    if r.changed() {
        let parsed = serde_json::from_str::<Value>(&text).ok();
        let seen = parsed.clone().or_else(|| current.cloned());
        ui.data_mut(|d| d.insert_temp(id, JsonDraft { text, seen }));
        return parsed.map(|value| Change { value, gesture });
    }
    if !r.has_focus() {
        // Leaving the field drops an invalid draft: the document's value shows again.
        ui.data_mut(|d| d.remove::<JsonDraft>(id));
    }
    None
}

fn enum_ui(ui: &mut Ui, id: Id, values: &[String], shown: Option<&Value>) -> Option<Value> {
    let shown = shown.and_then(Value::as_str);
    let mut chosen = None;
    ComboBox::from_id_salt(id)
        .selected_text(shown.unwrap_or("—"))
        .width(FIELD_WIDTH)
        .show_ui(ui, |ui| {
            for v in values {
                if ui.selectable_label(shown == Some(v.as_str()), v).clicked() {
                    chosen = Some(Value::String(v.clone()));
                }
            }
        });
    chosen
}

/// A combo of the declared keys, each with its type; returns the chosen key's name.
pub fn key_combo(ui: &mut Ui, id: Id, keys: &[KeyDecl], current: Option<&str>) -> Option<String> {
    key_combo_where(ui, id, keys, &|_| true, current)
}

/// A picker of the declared keys `offered` accepts (for a binding: the keys whose type fits
/// the parameter). The current key is shown in red when it is not declared or does not
/// fit, so a binding broken by a retyped key says so where it is edited.
pub fn key_combo_where(
    ui: &mut Ui,
    id: Id,
    keys: &[KeyDecl],
    offered: &dyn Fn(&KeyDecl) -> bool,
    current: Option<&str>,
) -> Option<String> {
    let error = ui.visuals().error_fg_color;
    let selected = match current {
        None | Some("") => RichText::new(t("(choose a key)")).weak(),
        Some(name) => match keys.iter().find(|k| k.key == name) {
            Some(k) if offered(k) => RichText::new(format!("{name}: {}", k.ty)),
            Some(k) => RichText::new(format!("{name}: {} (does not fit)", k.ty)).color(error),
            None => RichText::new(format!("{name} (undeclared)")).color(error),
        },
    };
    let mut chosen = None;
    ComboBox::from_id_salt(id)
        .selected_text(selected)
        .width(FIELD_WIDTH)
        .show_ui(ui, |ui| {
            let mut any = false;
            for k in keys.iter().filter(|k| offered(k)) {
                any = true;
                let r = ui.selectable_label(
                    current == Some(k.key.as_str()),
                    format!("{}: {}", k.key, k.ty),
                );
                let r = if k.description.is_empty() {
                    r
                } else {
                    r.on_hover_text(&k.description)
                };
                if r.clicked() {
                    chosen = Some(k.key.clone());
                }
            }
            if !any {
                ui.weak(t(
                    "No key of a fitting type: declare one in the Blackboard panel",
                ));
            }
        });
    chosen
}

fn statuses_ui(ui: &mut Ui, id: Id, shown: Option<&Value>) -> Option<Value> {
    let mut list: Vec<String> = shown
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|v| v.as_str().unwrap_or("?").to_owned())
                .collect()
        })
        .unwrap_or_default();
    let mut changed = false;
    ui.vertical(|ui| {
        let len = list.len();
        let mut remove = None;
        for (i, status) in list.iter_mut().enumerate() {
            ui.horizontal(|ui| {
                ComboBox::from_id_salt(id.with(i))
                    .selected_text(status.as_str())
                    .width(90.0)
                    .show_ui(ui, |ui| {
                        for s in STATUSES {
                            if ui.selectable_label(status == s, s).clicked() && status != s {
                                *status = s.to_owned();
                                changed = true;
                            }
                        }
                    });
                // The runtime needs at least one status.
                let r = ui
                    .add_enabled(len > 1, Button::new("×").small())
                    .on_hover_text(t("Remove this status"));
                if r.clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            list.remove(i);
            changed = true;
        }
        if ui.small_button(t("+ status")).clicked() {
            list.push(STATUSES[0].to_owned());
            changed = true;
        }
    });
    changed.then(|| Value::Array(list.into_iter().map(Value::String).collect()))
}

fn key_map_ui(ui: &mut Ui, id: Id, keys: &[KeyDecl], shown: Option<&Value>) -> Option<Value> {
    let map: Map<String, Value> = shown
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut next = map.clone();
    let mut changed = false;
    ui.vertical(|ui| {
        for (entry, key) in &map {
            ui.horizontal(|ui| {
                ui.label(entry);
                // "→" has no glyph in egui's default fonts.
                ui.label("➡");
                if let Some(k) = key_combo(ui, id.with(("entry", entry)), keys, key.as_str()) {
                    next.insert(entry.clone(), Value::String(k));
                    changed = true;
                }
                if ui
                    .small_button("×")
                    .on_hover_text(t("Remove this mapping"))
                    .clicked()
                {
                    next.remove(entry);
                    changed = true;
                }
            });
        }
        // The name of a new subtree key, kept in egui's memory while it is typed.
        let draft_id = id.with("new entry");
        let mut draft: String = ui.data(|d| d.get_temp(draft_id)).unwrap_or_default();
        ui.horizontal(|ui| {
            let r = ui.add(
                TextEdit::singleline(&mut draft)
                    .id(draft_id)
                    .hint_text(t("subtree key"))
                    .desired_width(100.0),
            );
            let name = draft.trim().to_owned();
            let ok = !name.is_empty() && !next.contains_key(&name);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let add = ui
                .add_enabled(ok, Button::new(t("+ map")).small())
                .on_hover_text(t("Map this subtree key to the key of the same name here"));
            if ok && (add.clicked() || enter) {
                // Same name on both sides is the usual case; the combo changes it.
                next.insert(name.clone(), Value::String(name));
                changed = true;
                draft.clear();
            }
        });
        ui.data_mut(|d| d.insert_temp(draft_id, draft));
    });
    changed.then_some(Value::Object(next))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn params_get_the_widget_of_their_kind() {
        let keys = [];
        let spec = |kind| ParamSpec::new("p", kind, "");
        assert!(matches!(
            Shape::of_param(&spec(ParamKind::Path), &keys, None),
            Shape::Text
        ));
        assert!(matches!(
            Shape::of_param(&spec(ParamKind::Script), &keys, None),
            Shape::Script(_)
        ));
        assert!(matches!(
            Shape::of_param(&spec(ParamKind::KeyValue), &keys, Some(ValueType::Int)),
            Shape::Int
        ));
        assert!(matches!(
            Shape::of_param(&spec(ParamKind::KeyValue), &keys, None),
            Shape::Json
        ));
        let e = spec(ParamKind::Enum).values(&["A", "B"]);
        assert!(matches!(Shape::of_param(&e, &keys, None), Shape::Enum(v) if v.len() == 2));
    }

    #[test]
    fn wrong_values_are_named() {
        assert!(Shape::Int.mismatch(&json!(2.0)).is_none());
        assert!(Shape::Int.mismatch(&json!("2")).is_some());
        let values = ["A".to_owned()];
        assert!(Shape::Enum(&values).mismatch(&json!("A")).is_none());
        assert!(Shape::Enum(&values).mismatch(&json!("B")).is_some());
        assert!(Shape::Statuses
            .mismatch(&json!(["success", "running"]))
            .is_none());
        assert!(Shape::Statuses.mismatch(&json!(["ok"])).is_some());
        assert!(Shape::KeyMap(&[]).mismatch(&json!({"a": 1})).is_some());
    }

    #[test]
    fn vectors_and_entities_get_a_field_per_component() {
        let keys = [];
        let spec = |kind| ParamSpec::new("p", kind, "");
        assert!(matches!(
            Shape::of_param(&spec(ParamKind::Vec3), &keys, None),
            Shape::Vector(3)
        ));
        assert!(matches!(Shape::of_type(ValueType::Entity), Shape::Entity));
        assert_eq!(components(Some(&json!([1, 2.5])), 2), [1.0, 2.5]);
        assert_eq!(
            components(Some(&json!({"x": 1, "y": 2, "z": 3})), 3),
            [1.0, 2.0, 3.0]
        );
        assert_eq!(components(None, 2), [0.0, 0.0]);
        assert!(Shape::Vector(2).mismatch(&json!([1, 2])).is_none());
        assert!(Shape::Vector(2).mismatch(&json!([1, 2, 3])).is_some());
        assert!(Shape::Entity.mismatch(&json!(7)).is_none());
        assert!(Shape::Entity.mismatch(&json!(-1)).is_some());
    }

    #[test]
    fn dragging_a_component_changes_only_it() {
        use crate::panels::testing::Harness;
        use crate::view::UiCx;
        let mut h = Harness::new(crate::Session::default());
        let mut value = json!([1.0, 2.0]);
        let mut draw = |ui: &mut Ui, cx: &mut UiCx<'_>| {
            let id = Id::new("pos");
            if let Some(change) =
                value_ui(ui, cx.gestures, id, Shape::Vector(2), Some(&value), None)
            {
                value = change.value;
            }
        };
        h.frame(&mut draw);
        let y = h.text_rect("2.0").center();
        h.drag(y, egui::vec2(30.0, 0.0), 3, &mut draw);
        h.frame(&mut draw);
        let [x, y] = [value[0].as_f64().unwrap(), value[1].as_f64().unwrap()];
        assert_eq!(x, 1.0, "{value}");
        assert!(y > 2.0, "{value}");
    }
}
