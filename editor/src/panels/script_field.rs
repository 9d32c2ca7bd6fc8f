//! The editor of a script parameter (`code` of Script, ScriptCondition and the script
//! decorators): a multi-line code field checked as you type with the runtime's own
//! parser and type checker against the tree's declared keys, so the message under the
//! field is the one the loader would give, with the line and column it names.
//!
//! Every keystroke is an edit of the parameter (one undo step per focus, as for text
//! fields); the check reads the text being edited, so a problem shows while typing.

use arbor_runtime::format::KeyDecl;
use arbor_runtime::script::{self, Ty};
use egui::{FontId, Id, RichText, TextEdit, TextStyle, Ui};
use serde_json::Value;

use super::widgets::{Change, FIELD_WIDTH};
use crate::view::Gestures;

/// What the checker says about `code`: its value's type, or the problem with its place.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The script checks; it gives a value of this type.
    Gives(Ty),
    /// The first problem: 1-based line and column, and the message.
    Problem {
        line: usize,
        column: usize,
        message: String,
    },
}

impl Verdict {
    /// The line under the field.
    pub fn text(&self) -> String {
        match self {
            Verdict::Gives(ty) => format!("ok: gives {}", ty.value_type()),
            Verdict::Problem {
                line,
                column,
                message,
            } => format!("line {line}, column {column}: {message}"),
        }
    }
}

/// Checks `code` against the declared `keys` (as the loader will).
pub fn verdict(code: &str, keys: &[KeyDecl]) -> Verdict {
    let keys: Vec<(String, arbor_runtime::ValueType)> =
        keys.iter().map(|k| (k.key.clone(), k.ty)).collect();
    match script::check_with_keys(code, &keys) {
        Ok(ty) => Verdict::Gives(ty),
        Err(e) => {
            let (line, column) = e.line_column(code);
            Verdict::Problem {
                line,
                column,
                message: e.message,
            }
        }
    }
}

/// The field: code in a monospace multi-line editor, the verdict under it.
pub fn script_ui(
    ui: &mut Ui,
    gestures: &mut Gestures,
    id: Id,
    current: Option<&Value>,
    keys: &[KeyDecl],
) -> Option<Change> {
    let mut code = current
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    ui.vertical(|ui| {
        let r = ui.add(
            TextEdit::multiline(&mut code)
                .id(id)
                .font(TextStyle::Monospace)
                .hint_text("count += 1; done := count >= 3")
                .desired_rows(2)
                .desired_width(FIELD_WIDTH * 1.6),
        );
        let gesture = gestures.for_response(&r);
        let verdict = verdict(&code, keys);
        let color = match verdict {
            Verdict::Gives(_) => ui.visuals().weak_text_color(),
            Verdict::Problem { .. } => ui.visuals().error_fg_color,
        };
        ui.label(
            RichText::new(verdict.text())
                .font(FontId::proportional(11.0))
                .color(color),
        );
        r.changed().then_some(Change {
            value: Value::String(code),
            gesture,
        })
    })
    .inner
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_runtime::ValueType;

    fn keys() -> Vec<KeyDecl> {
        [("count", ValueType::Int), ("name", ValueType::String)]
            .into_iter()
            .map(|(k, ty)| {
                serde_json::from_value(serde_json::json!({"key": k, "type": ty.as_str()}))
                    .expect("a key declaration")
            })
            .collect()
    }

    #[test]
    fn a_valid_script_says_what_it_gives() {
        assert_eq!(
            verdict("count += 1; count > 3", &keys()),
            Verdict::Gives(Ty::Bool)
        );
        assert_eq!(verdict("name .. count", &keys()).text(), "ok: gives string");
    }

    #[test]
    fn problems_show_as_typed_with_their_place() {
        // Typing `count := ` has not finished the value yet.
        let v = verdict("count := ", &keys());
        assert!(
            matches!(
                v,
                Verdict::Problem {
                    line: 1,
                    column: 10,
                    ..
                }
            ),
            "{v:?}"
        );
        let v = verdict("count += 1;\nname := count", &keys());
        assert_eq!(
            v.text(),
            "line 2, column 1: `name` is a string key; this value is an int"
        );
        let v = verdict("missing > 1", &keys());
        assert_eq!(
            v.text(),
            "line 1, column 1: no blackboard key or enum named `missing`"
        );
    }
}

#[cfg(test)]
mod inspector_tests {
    use crate::document::{sample, Owner, Selection};
    use crate::panels::testing::{central, Harness};
    use crate::panels::Inspector;
    use crate::view::View;
    use crate::Session;

    #[test]
    fn a_script_decorator_is_checked_as_it_is_typed_in_the_inspector() {
        let (doc, [_, b, ..]) = sample();
        let mut h = Harness::new(Session::new(doc));
        h.selection = Selection::of_nodes([&b]);
        let mut inspector = Inspector::default();
        let mut draw = central(|ui, cx| inspector.ui(ui, cx));
        h.frame(&mut draw);
        h.click_text("Add decorator…", &mut draw);
        h.click_text("FailureIf", &mut draw);
        let d = h.session.document().node(&b).unwrap().decorators[0]
            .guid
            .clone();
        let owner = Owner::Decorator {
            node: b.clone(),
            decorator: d,
        };
        h.frame(&mut draw);
        assert!(h.shows("line 1, column 1: the script is empty"));
        let field = Inspector::param_id(&owner, "code");
        h.click_id(field, &mut draw);
        assert!(h.has_focus(field));
        h.type_text("1 < ", &mut draw);
        h.frame(&mut draw);
        assert!(h.shows("line 1, column 5: the script ends where a value was expected"));
        h.type_text("2", &mut draw);
        h.frame(&mut draw);
        assert!(h.shows("ok: gives bool"));
        let code = h.session.document().params(&owner).unwrap()["code"].clone();
        assert_eq!(code, serde_json::json!("1 < 2"));
        assert_eq!(
            h.session.history().len(),
            2,
            "add, then one step for the typing"
        );
    }
}
