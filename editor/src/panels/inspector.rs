//! Inspector: edits the selected node (exactly one), or the tree itself when nothing is
//! selected: names, parameters with a widget per declared kind, attached decorators.
//!
//! Every edit is a command through `session.apply`, tagged with the gesture of the widget
//! it came from ([`crate::view::Gestures`]), so the keystrokes typed into one field while it
//! keeps focus make one undo step. A refused command becomes an error toast.
//!
//! In a variant (a variant file opened on its base), every edit is the variant's: the
//! overridden fields are marked with the base's value and their "apply to base" and
//! "revert" buttons (overrides.rs).
//!
//! What the panel shows is read from the document every frame; the panel keeps no copy,
//! so undo, redo and edits made elsewhere show at once.

use crate::i18n::t;

use crate::words;
use arbor_runtime::format::{DecoratorDef, KeyDecl};
use arbor_runtime::{Category, NodeType, ParamSpec, Problem, ValueType};
use egui::collapsing_header::CollapsingState;
use egui::{Align, Button, ComboBox, Grid, Id, Layout, RichText, TextEdit, Ui};
use serde_json::{Map, Value};

use super::apply;
use super::overrides::{name_text, override_row, variant_ui};
use super::widgets::{key_combo_where, value_ui, Shape};
use crate::commands::{
    AddDecorator, MoveDecorator, RemoveDecorator, SetEnabled, SetParam, SetRoot, SetText, TextField,
};
use crate::document::{Field, Owner};
use crate::view::{Request, UiCx, View};

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Inspector {}

/// A change to one parameter, found while drawing and applied after.
struct ParamEdit {
    name: String,
    value: Option<Value>,
    gesture: u64,
}

/// What a decorator's header buttons asked for.
enum DecoratorAction {
    Remove,
    MoveTo(usize),
}

impl Inspector {
    /// The id of a node's name field.
    pub fn name_id(node: &str) -> Id {
        Id::new(("inspector name", node))
    }

    /// The id of a parameter's widget.
    pub fn param_id(owner: &Owner, param: &str) -> Id {
        Id::new(("inspector param", owner, param))
    }

    /// The id of a decorator's name field.
    pub fn decorator_name_id(node: &str, decorator: &str) -> Id {
        Id::new(("inspector decorator name", node, decorator))
    }

    /// The id of the tree's name field (shown when nothing is selected).
    pub fn tree_name_id() -> Id {
        Id::new("inspector tree name")
    }

    /// The id of the tree's description field.
    pub fn tree_description_id() -> Id {
        Id::new("inspector tree description")
    }
}

impl View for Inspector {
    fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        ui.heading(t("Inspector"));
        let selected: Vec<String> = cx.selection.nodes.iter().cloned().collect();
        match selected.as_slice() {
            [] => tree_ui(ui, cx),
            [guid] if cx.session.document().contains(guid) => node_ui(ui, cx, guid),
            [_] => tree_ui(ui, cx),
            many => {
                ui.label(format!("{} selected", words::count(many.len(), "node")));
            }
        }
    }
}

/// A text field bound to one [`TextField`] of the document; `hint` shows when it is empty.
fn text_field(
    ui: &mut Ui,
    cx: &mut UiCx<'_>,
    field: TextField,
    text: &str,
    hint: &str,
    multiline: bool,
) -> egui::Response {
    let mut text = text.to_owned();
    let edit = if multiline {
        TextEdit::multiline(&mut text).desired_rows(3)
    } else {
        TextEdit::singleline(&mut text)
    };
    let r = ui.add(
        edit.id(edit_id(&field))
            .hint_text(hint)
            .desired_width(f32::INFINITY),
    );
    // Every frame, so that gaining focus starts a new gesture.
    let gesture = cx.gestures.for_response(&r);
    if r.changed() {
        let cmd = SetText::new(cx.session.document(), field, text).map(|c| c.gesture(gesture));
        apply(cx, cmd);
    }
    r
}

fn edit_id(field: &TextField) -> Id {
    match field {
        TextField::TreeName => Inspector::tree_name_id(),
        TextField::TreeDescription => Inspector::tree_description_id(),
        TextField::NodeName(g) => Inspector::name_id(g),
        TextField::DecoratorName { node, decorator } => {
            Inspector::decorator_name_id(node, decorator)
        }
        other => Id::new(("inspector text", other)),
    }
}

fn tree_ui(ui: &mut Ui, cx: &mut UiCx<'_>) {
    let doc = cx.session.document();
    let (name, description) = (doc.name().to_owned(), doc.description().to_owned());
    let root = doc.root().map(|r| (r.to_owned(), doc.label(r)));
    let (nodes, keys) = (doc.node_count(), doc.blackboard().len());
    ui.label(RichText::new(t("Tree")).strong());
    Grid::new("inspector tree")
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            ui.label(t("Name"));
            text_field(ui, cx, TextField::TreeName, &name, "", false);
            ui.end_row();
            ui.label(t("Description"));
            text_field(ui, cx, TextField::TreeDescription, &description, "", true);
            ui.end_row();
            ui.label(t("Root"));
            match &root {
                Some((guid, label)) => {
                    if ui
                        .link(label)
                        .on_hover_text(t("Show the root on the canvas"))
                        .clicked()
                    {
                        cx.requests.push(Request::Frame(vec![guid.clone()]));
                    }
                }
                None => {
                    ui.colored_label(ui.visuals().warn_fg_color, "none")
                        .on_hover_text(t("Select a node without a parent and use \"Set as root\""));
                }
            }
            ui.end_row();
        });
    ui.weak(format!(
        "{}, {}",
        crate::i18n::count(nodes, t("node")),
        crate::i18n::count(keys, t("key"))
    ));
    variant_ui(ui, cx);
}

fn problem_label(ui: &mut Ui, p: &Problem) {
    let color = if p.is_error() {
        ui.visuals().error_fg_color
    } else {
        ui.visuals().warn_fg_color
    };
    let icon = if p.is_error() { "⛔" } else { "⚠" };
    ui.colored_label(color, format!("{icon} {}", p.message()));
}

fn node_ui(ui: &mut Ui, cx: &mut UiCx<'_>, guid: &str) {
    let doc = cx.session.document();
    let Some(node) = doc.node(guid).cloned() else {
        return;
    };
    let ty = cx.session.types().node(&node.kind).cloned();
    let keys = doc.blackboard().to_vec();
    let is_root = doc.root() == Some(guid);
    let parent = doc.parent_of(guid).map(|p| doc.label(p));

    Grid::new(("inspector node", guid))
        .num_columns(2)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            ui.label(t("Name"));
            text_field(
                ui,
                cx,
                TextField::NodeName(guid.to_owned()),
                &node.name,
                &node.kind,
                false,
            );
            ui.end_row();
            ui.label(t("Type"));
            ui.horizontal(|ui| {
                ui.label(RichText::new(&node.kind).strong());
                match &ty {
                    Some(ty) => {
                        ui.weak(crate::i18n::category(ty.category));
                        if ty.host && ty.placeholder {
                            // Declared in the editor: the game has no code for it yet, and
                            // the preview runs it as a stand-in.
                            ui.colored_label(
                                ui.visuals().warn_fg_color,
                                t("host node (placeholder, not implemented yet)"),
                            )
                            .on_hover_text(t(
                                "Declared for a programmer to implement; the preview runs it as a stand-in",
                            ));
                        } else if ty.host {
                            ui.colored_label(ui.visuals().warn_fg_color, t("host"))
                                .on_hover_text(t("Implemented by the host program"));
                        }
                    }
                    None => {
                        ui.colored_label(ui.visuals().error_fg_color, t("unknown type"));
                    }
                }
            });
            ui.end_row();
        });
    if let Some(ty) = ty.as_ref().filter(|ty| !ty.description.is_empty()) {
        let description = crate::i18n::node_description(&ty.description);
        ui.add(egui::Label::new(RichText::new(description).weak()).wrap());
    }

    ui.horizontal_wrapped(|ui| {
        if is_root {
            ui.weak(t("Root of the tree"));
        } else {
            let r = ui.add_enabled(parent.is_none(), Button::new(t("Set as root")));
            let r = match &parent {
                Some(p) => r.on_disabled_hover_text(format!(
                    "Only a node without a parent can be the root (this one is under \"{p}\")"
                )),
                None => r.on_hover_text(t("Make this node the root of the tree")),
            };
            if r.clicked() {
                let cmd = SetRoot::new(cx.session.document(), Some(guid));
                apply(cx, cmd);
            }
        }
        let mut enabled = node.enabled;
        let switch_field = Field::Enabled(guid.to_owned());
        let switch_text = name_text(cx, &switch_field, RichText::new(t("Enabled")));
        let switch = ui.checkbox(&mut enabled, switch_text).on_hover_text(
            "A disabled node's branch runs as if it were absent; it keeps its place and settings",
        );
        if switch.changed() {
            let cmd = SetEnabled::new(cx.session.document(), guid, enabled);
            apply(cx, cmd);
        }
        if ui
            .button(t("Toggle breakpoint (F9)"))
            .on_hover_text(t("Pause the preview when this node starts"))
            .clicked()
        {
            cx.requests.push(Request::ToggleBreakpoint(guid.to_owned()));
        }
        if ty.as_ref().is_some_and(|t| t.category == Category::Subtree)
            && ui.button(t("Open subtree")).clicked()
        {
            cx.requests.push(Request::OpenSubtree(guid.to_owned()));
        }
    });

    Grid::new(("inspector switch override", guid))
        .num_columns(3)
        .show(ui, |ui| {
            override_row(ui, cx, &Field::Enabled(guid.to_owned()))
        });

    ui.separator();
    ui.label(RichText::new(t("Parameters")).strong());
    params_ui(
        ui,
        cx,
        &Owner::Node(guid.to_owned()),
        ty.as_ref(),
        &node.params,
        &keys,
    );

    ui.separator();
    decorators_ui(ui, cx, guid, &node.decorators, &keys);

    // Problems in their own section below the fields, so that fields never move when
    // problems appear or go while the user edits: the node's own and its decorators'.
    let concerns = |g: &str| g == guid || node.decorators.iter().any(|d| d.guid == g);
    let mut problems = cx
        .report
        .problems
        .iter()
        .filter(|p| p.node.as_deref().is_some_and(concerns))
        .peekable();
    if problems.peek().is_some() {
        ui.separator();
        ui.label(RichText::new(t("Problems")).strong());
        for p in problems {
            problem_label(ui, p);
        }
    }
}

/// The parameter grid of a node or decorator: declared parameters with their widgets,
/// then any parameter the type does not declare (as JSON, removable).
fn params_ui(
    ui: &mut Ui,
    cx: &mut UiCx<'_>,
    owner: &Owner,
    ty: Option<&NodeType>,
    params: &Map<String, Value>,
    keys: &[KeyDecl],
) {
    let declared = ty.map_or(&[][..], |t| t.params.as_slice());
    // `KeyValue` parameters take the type of the key the `key` parameter names.
    let key_type = params
        .get("key")
        .and_then(Value::as_str)
        .and_then(|k| keys.iter().find(|d| d.key == k))
        .map(|d| d.ty);
    let mut edit = None;
    let variant = cx.session.document().variant().is_some();
    if declared.is_empty() && params.is_empty() {
        ui.weak(t("No parameters"));
    }
    Grid::new(("inspector params", owner))
        .num_columns(3)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for spec in declared {
                let current = params.get(&spec.name);
                let missing = current.is_none() && spec.is_required();
                let name = if missing {
                    RichText::new(&spec.name).color(ui.visuals().error_fg_color)
                } else {
                    RichText::new(&spec.name)
                };
                let field = Field::Param {
                    owner: owner.clone(),
                    name: spec.name.clone(),
                };
                let label = ui.label(name_text(cx, &field, name));
                if !spec.description.is_empty() {
                    label.on_hover_text(&spec.description);
                }
                let id = Inspector::param_id(owner, &spec.name);
                let change = ui
                    .horizontal(|ui| param_value_ui(ui, cx, id, spec, current, keys, key_type))
                    .inner;
                if let Some(c) = change {
                    edit = Some(ParamEdit {
                        name: spec.name.clone(),
                        value: c.value,
                        gesture: c.gesture,
                    });
                }
                // Removing a required parameter without a default would only make the
                // node invalid, so there is no reset for those.
                // A variant gives values and never removes one: "revert" is its reset.
                let resettable = (spec.default.is_some() || spec.optional) && !variant;
                if current.is_some() && resettable {
                    let hover = match &spec.default {
                        Some(d) => format!("Reset to the default ({d})"),
                        None => "Remove (the parameter is optional)".to_owned(),
                    };
                    if ui.small_button("↺").on_hover_text(hover).clicked() {
                        edit = Some(ParamEdit {
                            name: spec.name.clone(),
                            value: None,
                            gesture: cx.gestures.fresh(),
                        });
                    }
                } else {
                    ui.label("");
                }
                ui.end_row();
                override_row(ui, cx, &field);
            }
            let undeclared = params
                .iter()
                .filter(|(name, _)| !declared.iter().any(|s| s.name == **name));
            for (name, value) in undeclared {
                ui.colored_label(ui.visuals().warn_fg_color, name)
                    .on_hover_text(t("Not declared by this node type"));
                let id = Inspector::param_id(owner, name);
                if let Some(c) = value_ui(ui, cx.gestures, id, Shape::Json, Some(value), None) {
                    edit = Some(ParamEdit {
                        name: name.clone(),
                        value: Some(c.value),
                        gesture: c.gesture,
                    });
                }
                if ui.small_button("×").on_hover_text(t("Remove")).clicked() {
                    edit = Some(ParamEdit {
                        name: name.clone(),
                        value: None,
                        gesture: cx.gestures.fresh(),
                    });
                }
                ui.end_row();
            }
        });
    if let Some(e) = edit {
        let cmd = SetParam::new(cx.session.document(), owner.clone(), &e.name, e.value)
            .map(|c| c.gesture(e.gesture));
        apply(cx, cmd);
    }
}

/// An edit of one parameter: its new value, or `None` to remove it (back to its default).
struct ParamChange {
    value: Option<Value>,
    gesture: u64,
}

/// One parameter's value cell. A parameter that may be bound to a blackboard key gets a
/// ⛓ toggle: off, the literal's widget; on, a picker of the keys whose type fits (in each
/// direction the parameter uses). An output is always bound, so it shows only the picker.
fn param_value_ui(
    ui: &mut Ui,
    cx: &mut UiCx<'_>,
    id: Id,
    spec: &ParamSpec,
    current: Option<&Value>,
    keys: &[KeyDecl],
    key_type: Option<ValueType>,
) -> Option<ParamChange> {
    let bound = current.and_then(|v| arbor_runtime::binding(v).ok().flatten());
    // A binding the declaration gives as its default counts as bound too.
    let default_bound = spec
        .default
        .as_ref()
        .and_then(|v| arbor_runtime::binding(v).ok().flatten());
    let output = spec.direction.writes();
    let fits = |k: &KeyDecl| spec.fits_key(k.ty, key_type);
    let fresh = |cx: &mut UiCx<'_>, value| {
        Some(ParamChange {
            value,
            gesture: cx.gestures.fresh(),
        })
    };
    let mut change = None;
    if spec.bindable() && !output {
        let on = bound.is_some() || (current.is_none() && default_bound.is_some());
        let hover = if on {
            "Bound to a blackboard key: click to give a value instead"
        } else {
            "Give a value, or click to bind to a blackboard key"
        };
        if ui.selectable_label(on, "⛓").on_hover_text(hover).clicked() {
            let value = if on {
                // Back to a literal: the declared default, else a neutral value.
                match &spec.default {
                    Some(d) if arbor_runtime::binding(d).ok().flatten().is_none() => None,
                    _ => Some(neutral(spec, key_type)),
                }
            } else {
                let first = keys.iter().find(|k| fits(k)).map_or("", |k| k.key.as_str());
                Some(arbor_runtime::binding_json(first))
            };
            change = fresh(cx, value);
        }
        if !on {
            let shape = Shape::of_param(spec, keys, key_type);
            if let Some(c) = value_ui(ui, cx.gestures, id, shape, current, spec.default.as_ref()) {
                change = Some(ParamChange {
                    value: Some(c.value),
                    gesture: c.gesture,
                });
            }
            return change;
        }
    } else if !output {
        let shape = Shape::of_param(spec, keys, key_type);
        return value_ui(ui, cx.gestures, id, shape, current, spec.default.as_ref()).map(|c| {
            ParamChange {
                value: Some(c.value),
                gesture: c.gesture,
            }
        });
    }
    let shown = bound.or(default_bound);
    if let Some(name) = key_combo_where(ui, id, keys, &fits, shown) {
        change = fresh(cx, Some(arbor_runtime::binding_json(&name)));
    }
    change
}

/// A value of the parameter's type to start a literal from.
fn neutral(spec: &ParamSpec, key_type: Option<ValueType>) -> Value {
    match spec.carried_type(key_type) {
        Some(ValueType::Bool) => Value::Bool(false),
        Some(ValueType::Int) => Value::from(0),
        Some(ValueType::Float) => Value::from(0.0),
        Some(ValueType::String) => match spec.values.first() {
            Some(first) => Value::String(first.clone()),
            None => Value::String(String::new()),
        },
        Some(ValueType::List(_)) => Value::Array(Vec::new()),
        Some(ValueType::Map(_)) => Value::Object(Map::new()),
        Some(ValueType::Vec2) => serde_json::json!([0.0, 0.0]),
        Some(ValueType::Vec3) => serde_json::json!([0.0, 0.0, 0.0]),
        Some(ValueType::Entity) => Value::from(0),
        Some(ValueType::User(ty)) => ty.decl().default.clone(),
        Some(ValueType::Json) | None => Value::Null,
    }
}

fn decorators_ui(
    ui: &mut Ui,
    cx: &mut UiCx<'_>,
    guid: &str,
    decorators: &[DecoratorDef],
    keys: &[KeyDecl],
) {
    ui.label(RichText::new(t("Decorators")).strong());
    if decorators.is_empty() {
        ui.weak(t("None"));
    }
    let count = decorators.len();
    let mut action = None;
    for (i, d) in decorators.iter().enumerate() {
        let ty = cx.session.types().decorator(&d.kind).cloned();
        let owner = Owner::Decorator {
            node: guid.to_owned(),
            decorator: d.guid.clone(),
        };
        let state_id = ui.make_persistent_id(("decorator", &d.guid));
        CollapsingState::load_with_default_open(ui.ctx(), state_id, true)
            .show_header(ui, |ui| {
                ui.label(RichText::new(&d.kind).strong());
                if !d.name.is_empty() && d.name != d.kind {
                    ui.weak(&d.name);
                }
                if ty.is_none() {
                    ui.colored_label(ui.visuals().error_fg_color, "unknown type");
                }
                ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                    if ui
                        .small_button("×")
                        .on_hover_text(t("Remove this decorator"))
                        .clicked()
                    {
                        action = Some((d.guid.clone(), DecoratorAction::Remove));
                    }
                    let down = ui
                        .add_enabled(i + 1 < count, Button::new("⏷").small())
                        .on_hover_text(t("Move down (checked later)"));
                    if down.clicked() {
                        action = Some((d.guid.clone(), DecoratorAction::MoveTo(i + 1)));
                    }
                    let up = ui
                        .add_enabled(i > 0, Button::new("⏶").small())
                        .on_hover_text(t("Move up (checked earlier)"));
                    if up.clicked() {
                        action = Some((d.guid.clone(), DecoratorAction::MoveTo(i - 1)));
                    }
                });
            })
            .body(|ui| {
                if let Some(t) = ty.as_ref().filter(|t| !t.description.is_empty()) {
                    ui.add(egui::Label::new(RichText::new(&t.description).weak()).wrap());
                }
                ui.horizontal(|ui| {
                    ui.label(t("Name"));
                    text_field(
                        ui,
                        cx,
                        TextField::DecoratorName {
                            node: guid.to_owned(),
                            decorator: d.guid.clone(),
                        },
                        &d.name,
                        &d.kind,
                        false,
                    );
                });
                params_ui(ui, cx, &owner, ty.as_ref(), &d.params, keys);
            });
    }
    if let Some((decorator, action)) = action {
        let doc = cx.session.document();
        match action {
            DecoratorAction::Remove => {
                let cmd = RemoveDecorator::new(doc, guid, &decorator);
                apply(cx, cmd);
            }
            DecoratorAction::MoveTo(to) => {
                let cmd = MoveDecorator::new(doc, guid, &decorator, to);
                apply(cx, cmd);
            }
        }
    }

    let mut add = None;
    ComboBox::from_id_salt(("add decorator", guid))
        .selected_text(t("Add decorator…"))
        .show_ui(ui, |ui| {
            for t in cx.session.types().decorators() {
                let r = ui.selectable_label(false, &t.name);
                let r = if t.description.is_empty() {
                    r
                } else {
                    r.on_hover_text(&t.description)
                };
                if r.clicked() {
                    add = Some(t.name.clone());
                }
            }
        });
    if let Some(kind) = add {
        let cmd = AddDecorator::new(cx.session.document(), cx.session.types(), guid, &kind);
        apply(cx, cmd);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::AddKey;
    use crate::document::{sample, Selection};
    use crate::document::{Field, Owner};
    use crate::panels::testing::{central, Harness};
    use crate::Session;
    use arbor_runtime::ValueType;
    use egui::{Key, Modifiers, Pos2};
    use serde_json::json;

    fn harness_on(node: &str, h: &mut Harness) {
        h.selection = Selection::of_nodes([node]);
    }

    #[test]
    fn keystrokes_in_the_name_field_make_one_undo_step() {
        let (doc, [_, b, ..]) = sample();
        let mut h = Harness::new(Session::new(doc));
        harness_on(&b, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        h.click_id(Inspector::name_id(&b), &mut draw);
        assert!(h.has_focus(Inspector::name_id(&b)));
        h.key(Key::End, Modifiers::NONE, &mut draw);
        for text in ["a", "b", "c"] {
            h.type_text(text, &mut draw);
        }
        let name = |h: &Harness| h.session.document().node(&b).unwrap().name.clone();
        assert_eq!(name(&h), "Waitabc");
        assert_eq!(h.session.history().len(), 1, "one step for one focus");
        assert_eq!(
            h.session.undo_text().unwrap(),
            "Undo Rename \"Wait\" to \"Waitabc\""
        );

        // Leaving the field and coming back starts a new step.
        h.click_at(Pos2::new(1200.0, 1000.0), &mut draw);
        h.click_id(Inspector::name_id(&b), &mut draw);
        h.key(Key::End, Modifiers::NONE, &mut draw);
        h.type_text("d", &mut draw);
        assert_eq!(name(&h), "Waitabcd");
        assert_eq!(h.session.history().len(), 2);
        assert!(h.session.undo());
        assert_eq!(name(&h), "Waitabc");
        assert!(h.session.undo());
        assert_eq!(name(&h), "Wait", "the original name is back");
        h.frame(&mut draw);
        assert!(h.toasts.texts().is_empty());
    }

    #[test]
    fn the_fields_stay_put_when_problems_come_and_go() {
        let (doc, [_, b, ..]) = sample();
        let mut h = Harness::new(Session::new(doc));
        harness_on(&b, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        let name_at = |h: &Harness| {
            h.ctx
                .read_response(Inspector::name_id(&b))
                .expect("the name field")
                .rect
                .min
        };
        // Wait needs `seconds`: a problem is listed, below the fields.
        let report = h.session.validate();
        let problem = report.for_node(&b).next().expect("Wait without seconds");
        assert!(h.shows(&problem.message()));
        let with_problem = name_at(&h);
        let listed = h.text_rect(&format!("⛔ {}", problem.message()));
        assert!(
            listed.top() > with_problem.y,
            "the problems come after the fields"
        );
        let fix = crate::commands::SetParam::new(
            h.session.document(),
            Owner::Node(b.clone()),
            "seconds",
            Some(json!(2.0)),
        )
        .expect("a parameter edit");
        h.session.apply(fix).expect("applies");
        h.settle(&mut draw);
        assert!(!h.shows(&problem.message()), "fixed");
        assert_eq!(name_at(&h), with_problem, "the name field did not move");
    }

    #[test]
    fn a_drag_on_a_number_is_one_step_and_problems_are_listed() {
        let (doc, [_, b, ..]) = sample();
        let mut h = Harness::new(Session::new(doc));
        harness_on(&b, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        // Wait needs `seconds`: the runtime's problem is listed in the inspector.
        let report = h.session.validate();
        let problem = report.for_node(&b).next().expect("Wait without seconds");
        assert!(h.shows(&problem.message()));
        let value = h.text_rect_in_row("0.0", "seconds").center();
        h.drag(value, egui::vec2(60.0, 0.0), 6, &mut draw);
        let seconds = h.session.document().node(&b).unwrap().params["seconds"].clone();
        assert!(seconds.as_f64().is_some_and(|s| s > 0.0), "{seconds}");
        assert_eq!(h.session.history().len(), 1, "a drag is one step");
        h.frame(&mut draw);
        assert!(!h.shows(&problem.message()), "fixed");
    }

    #[test]
    fn decorators_are_added_set_reordered_reset_and_removed() {
        let (doc, [_, b, ..]) = sample();
        let mut h = Harness::new(Session::new(doc));
        harness_on(&b, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        let kinds = |h: &Harness| -> Vec<String> {
            let doc = h.session.document();
            let node = doc.node(&b).unwrap();
            node.decorators.iter().map(|d| d.kind.clone()).collect()
        };
        h.frame(&mut draw);
        for kind in ["Condition", "Inverter"] {
            h.click_text("Add decorator…", &mut draw);
            h.click_text(kind, &mut draw);
        }
        assert_eq!(kinds(&h), ["Condition", "Inverter"]);
        let d = h.session.document().node(&b).unwrap().decorators[0]
            .guid
            .clone();
        let owner = Owner::Decorator {
            node: b.clone(),
            decorator: d,
        };
        let abort = |h: &Harness| {
            h.session
                .document()
                .params(&owner)
                .unwrap()
                .get("abort")
                .cloned()
        };

        // The abort type is the `abort` enum parameter.
        h.frame(&mut draw);
        let combo = h.text_rect_in_row("None", "abort").center();
        h.click_at(combo, &mut draw);
        h.click_text("Both", &mut draw);
        assert_eq!(abort(&h), Some(json!("Both")));
        let reset = h.text_rect_in_row("↺", "abort").center();
        h.click_at(reset, &mut draw);
        assert_eq!(abort(&h), None, "reset removes the parameter");

        let up = h.text_rect_in_row("⏶", "Inverter").center();
        h.click_at(up, &mut draw);
        assert_eq!(kinds(&h), ["Inverter", "Condition"]);
        let remove = h.text_rect_in_row("×", "Inverter").center();
        h.click_at(remove, &mut draw);
        assert_eq!(kinds(&h), ["Condition"]);
        assert_eq!(h.session.history().len(), 6);
    }

    #[test]
    fn a_key_parameter_offers_the_declared_keys() {
        let mut doc = crate::document::Document::new("t");
        let mut session = {
            let mut s = Session::new(std::mem::take(&mut doc));
            s.apply(AddKey::new("hp", ValueType::Int, None)).unwrap();
            s.apply(AddKey::new("zone", ValueType::String, None))
                .unwrap();
            s
        };
        let cond = session.add_node("Condition", [0.0, 0.0]).unwrap();
        let mut h = Harness::new(session);
        harness_on(&cond, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        let combo = h.text_rect_in_row("(choose a key)", "key").center();
        h.click_at(combo, &mut draw);
        assert!(h.shows("zone: string"));
        h.click_text("hp: int", &mut draw);
        let params = |h: &Harness| h.session.document().node(&cond).unwrap().params.clone();
        assert_eq!(params(&h)["key"], json!("hp"));
        // `equals` now takes the key's type: a number, dragged.
        h.frame(&mut draw);
        let equals = h.text_rect_in_row("0", "equals").center();
        h.drag(equals, egui::vec2(30.0, 0.0), 3, &mut draw);
        assert!(params(&h)["equals"].is_i64(), "{}", params(&h)["equals"]);
    }

    #[test]
    fn a_parameter_is_bound_to_a_key_of_a_fitting_type_and_undo_unbinds_it() {
        let mut session = Session::new(crate::document::Document::new("t"));
        for (name, ty) in [("pause", ValueType::Float), ("label", ValueType::String)] {
            session.apply(AddKey::new(name, ty, None)).unwrap();
        }
        let wait = session.add_node("Wait", [0.0, 0.0]).unwrap();
        let mut h = Harness::new(session);
        harness_on(&wait, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        let base = h.session.history().len();
        let seconds = |h: &Harness| {
            h.session
                .document()
                .node(&wait)
                .unwrap()
                .params
                .get("seconds")
                .cloned()
        };
        // ⛓ binds `seconds` to the first key of a fitting type: `pause`, not `label`.
        let toggle = h.text_rect_in_row("⛓", "seconds").center();
        h.click_at(toggle, &mut draw);
        assert_eq!(seconds(&h), Some(json!({"$key": "pause"})));
        h.frame(&mut draw);
        let picker = h.text_rect_in_row("pause: float", "seconds").center();
        h.click_at(picker, &mut draw);
        assert!(
            !h.shows("label: string"),
            "a string key cannot give seconds"
        );
        // Undo goes back to no value; the ⛓ again gives a literal.
        assert!(h.session.undo());
        assert_eq!(seconds(&h), None);
        h.frame(&mut draw);
        h.click_at(toggle, &mut draw);
        h.frame(&mut draw);
        let toggle = h.text_rect_in_row("⛓", "seconds").center();
        h.click_at(toggle, &mut draw);
        assert_eq!(seconds(&h), Some(json!(0.0)), "back to a literal");
        assert_eq!(
            h.session.history().len(),
            base + 2,
            "bind again, then unbind"
        );
    }

    #[test]
    fn root_breakpoint_tree_and_multiple_selection() {
        let (doc, [a, _, _, _, e]) = sample();
        let mut h = Harness::new(Session::new(doc));
        harness_on(&e, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        h.click_text("Toggle breakpoint (F9)", &mut draw);
        assert_eq!(h.requests, [Request::ToggleBreakpoint(e.clone())]);
        h.click_text("Set as root", &mut draw);
        assert_eq!(h.session.document().root(), Some(e.as_str()));
        assert!(!h.shows("Set as root"));

        h.selection = Selection::of_nodes([&a, &e]);
        h.frame(&mut draw);
        assert!(h.shows("2 nodes selected"));

        h.selection = Selection::default();
        h.frame(&mut draw);
        h.click_id(Inspector::tree_name_id(), &mut draw);
        h.key(Key::End, Modifiers::NONE, &mut draw);
        h.type_text("!", &mut draw);
        assert_eq!(h.session.document().name(), "sample!");
        h.requests.clear();
        h.click_text("Log", &mut draw);
        assert_eq!(
            h.requests,
            [Request::Frame(vec![e.clone()])],
            "the root's link"
        );
    }

    #[test]
    fn status_lists_and_key_maps_are_edited_in_place() {
        let mut s = Session::default();
        s.apply(AddKey::new("hp", ValueType::Int, None)).unwrap();
        let scripted = s.add_node("Scripted", [0.0, 0.0]).unwrap();
        let subtree = s.add_node("Subtree", [0.0, 100.0]).unwrap();
        let mut h = Harness::new(s);
        harness_on(&scripted, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        let param = |h: &Harness, node: &str, name: &str| {
            h.session
                .document()
                .node(node)
                .unwrap()
                .params
                .get(name)
                .cloned()
        };
        h.settle(&mut draw);
        // AddNode fills in the declared defaults.
        assert_eq!(param(&h, &scripted, "returns"), Some(json!(["success"])));
        h.click_text("+ status", &mut draw);
        assert_eq!(
            param(&h, &scripted, "returns"),
            Some(json!(["success", "success"]))
        );
        h.settle(&mut draw);
        // The last "success" painted is the second entry's combo.
        h.click_text("success", &mut draw);
        h.click_text("running", &mut draw);
        assert_eq!(
            param(&h, &scripted, "returns"),
            Some(json!(["success", "running"]))
        );
        h.settle(&mut draw);
        let remove = h.text_rect_in_row("×", "success").center();
        h.click_at(remove, &mut draw);
        assert_eq!(param(&h, &scripted, "returns"), Some(json!(["running"])));

        harness_on(&subtree, &mut h);
        h.settle(&mut draw);
        let owner = Owner::Node(subtree.clone());
        let entry = Inspector::param_id(&owner, "remap").with("new entry");
        h.click_id(entry, &mut draw);
        h.type_text("health", &mut draw);
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        assert_eq!(
            param(&h, &subtree, "remap"),
            Some(json!({"health": "health"}))
        );
        h.settle(&mut draw);
        assert!(h.shows("health (undeclared)"));
        h.click_text("health (undeclared)", &mut draw);
        h.click_text("hp: int", &mut draw);
        assert_eq!(param(&h, &subtree, "remap"), Some(json!({"health": "hp"})));
    }

    #[test]
    fn a_variant_marks_overridden_fields_and_applies_or_reverts_each_as_one_step() {
        let path = arbor_samples::trees_dir().join("variants/villager_impatient.json");
        let mut h = Harness::new(Session::open(&path).expect("the sample variant opens"));
        // HaveRest's `until`: 95 in the villager, 75 in the impatient villager.
        const HAVE_REST: &str = "2696222a-da4d-46ca-93a1-e7a73b49933a";
        const POOR: &str = "43866b56-ce3a-4082-9003-4cefc892b8ef";
        harness_on(HAVE_REST, &mut h);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.settle(&mut draw);
        assert!(h.shows("overridden: base value 95.0"));
        let until = Field::Param {
            owner: Owner::Node(HAVE_REST.to_owned()),
            name: "until".to_owned(),
        };
        let value = |h: &Harness| h.session.document().field_value(&until);
        let overridden = |h: &Harness| {
            h.session
                .document()
                .variant()
                .is_some_and(|v| v.is_overridden(&until))
        };
        assert_eq!(value(&h), Some(json!(75.0)));
        let before = h.session.document().clone();

        h.click_text("Revert", &mut draw);
        assert_eq!(value(&h), Some(json!(95.0)));
        assert!(!overridden(&h) && !h.shows("overridden: base value"));
        assert_eq!(h.session.history().len(), 1);
        assert!(h.session.undo());
        assert_eq!(*h.session.document(), before);

        h.settle(&mut draw);
        h.click_text("Apply to base", &mut draw);
        assert_eq!(value(&h), Some(json!(75.0)), "the value stays");
        assert!(!overridden(&h) && h.session.base_modified());
        assert!(h.session.undo());
        assert_eq!(*h.session.document(), before);
        assert!(!h.session.base_modified());

        // A node switched off by the variant: its switch is marked with the base's value,
        // and a node the variant leaves alone shows no mark.
        let poor = h
            .session
            .document()
            .nodes()
            .find(|n| n.name == "Poor?")
            .map(|n| n.guid.clone())
            .expect("the villager asks whether it is poor");
        assert_eq!(poor, POOR);
        harness_on(&poor, &mut h);
        h.settle(&mut draw);
        assert!(h.shows("overridden: base value true"));
        harness_on("a285e7c0-6486-46b4-95f4-305a0e1e0bc4", &mut h);
        h.settle(&mut draw);
        assert!(!h.shows("overridden: base value"));
        h.frame(&mut draw);
        assert!(h.toasts.texts().is_empty());
    }
}
