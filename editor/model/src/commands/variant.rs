//! ApplyToBase and RevertOverride: the two ways a variant's override of one field ends.
//! Editing a field of a variant makes it an override (SetParam, SetKeyDefault and
//! SetEnabled record it, see document/variant.rs); these take it back out.
//!
//! - ApplyToBase: the base takes the variant's value; the field is no longer overridden
//!   and the value shown does not change. The base tree then differs from its file, which
//!   the session saves with the variant (docs/editor.md, "Variants").
//! - RevertOverride: the field goes back to the base's value and is no longer overridden;
//!   the base is untouched.
//!
//! Both record what they remove, so undo restores the document exactly.

use arbor_runtime::NodeTypes;
use serde_json::Value;
use undo::Edit;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::{Document, Field, Owner};

/// Makes the variant's value of one field the base's.
#[derive(Clone, Debug)]
pub struct ApplyToBase {
    field: Field,
    label: String,
    /// The base's value it replaced, captured on edit.
    base: Option<Option<Value>>,
}

/// Puts one field of a variant back to the base's value.
#[derive(Clone, Debug)]
pub struct RevertOverride {
    field: Field,
    label: String,
    /// Captured on edit: the base's value and the variant's.
    removed: Option<(Option<Value>, Option<Value>)>,
}

impl ApplyToBase {
    pub fn new(doc: &Document, field: Field) -> Result<ApplyToBase, CommandError> {
        let cmd = ApplyToBase {
            label: format!("Apply {} to the base", field_label(doc, &field)),
            field,
            base: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }
}

impl RevertOverride {
    pub fn new(doc: &Document, field: Field) -> Result<RevertOverride, CommandError> {
        let cmd = RevertOverride {
            label: format!("Revert {}", field_label(doc, &field)),
            field,
            removed: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }
}

/// `"Wait" seconds`, `"Guard" "Condition" key`, `default of `speed``, `"Wait" switch`.
fn field_label(doc: &Document, field: &Field) -> String {
    match field {
        Field::Param {
            owner: Owner::Node(g),
            name,
        } => format!("{} {name}", quoted(doc, g)),
        Field::Param {
            owner: Owner::Decorator { node, decorator },
            name,
        } => {
            let deco = doc
                .decorator(node, decorator)
                .map_or_else(|| decorator.clone(), |d| d.name.clone());
            format!("{} \"{deco}\" {name}", quoted(doc, node))
        }
        Field::KeyDefault(key) => format!("default of `{key}`"),
        Field::Enabled(g) => format!("{} switch", quoted(doc, g)),
    }
}

/// The field must be one the variant overrides.
fn check_overridden(doc: &Document, field: &Field) -> Result<(), CommandError> {
    match doc.variant() {
        None => refused("only a variant has overrides"),
        Some(v) if !v.is_overridden(field) => refused("the variant does not override this"),
        Some(_) => Ok(()),
    }
}

impl Edit for ApplyToBase {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.base = doc.unmark_overridden(&self.field);
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some(base) = self.base.take() {
            doc.remark_overridden(self.field.clone(), base);
        }
    }
}

impl DocEdit for ApplyToBase {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        check_overridden(doc, &self.field)
    }
}

impl Edit for RevertOverride {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(base) = doc.unmark_overridden(&self.field) {
            let current = doc.put_field(&self.field, base.clone());
            self.removed = Some((base, current));
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some((base, current)) = self.removed.take() {
            doc.put_field(&self.field, current);
            doc.remark_overridden(self.field.clone(), base);
        }
    }
}

impl DocEdit for RevertOverride {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        check_overridden(doc, &self.field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::{AddNode, Command, SetEnabled, SetKeyDefault, SetParam};
    use crate::document::variant_sample;
    use crate::Session;
    use serde_json::json;

    fn seconds(b: &str) -> Field {
        Field::Param {
            owner: Owner::Node(b.to_owned()),
            name: "seconds".into(),
        }
    }

    #[test]
    fn editing_a_variant_field_edits_the_override_not_the_base() {
        let (mut doc, base, [_, _, _, d, _], _) = variant_sample();
        let field = seconds(&d);
        let cmd = SetParam::new(&doc, Owner::Node(d.clone()), "seconds", Some(json!(3.0)));
        let cmd = cmd.unwrap();
        let after = round_trip(&mut doc, cmd);
        let v = after.variant().unwrap();
        assert_eq!(v.base_value(&field), Some(None), "the base sets no value");
        assert_eq!(after.field_value(&field), Some(json!(3.0)));
        assert_eq!(
            after.base_document().unwrap(),
            base,
            "the base is untouched"
        );
        let file = after.to_variant_file().unwrap();
        assert!(file
            .overrides
            .params
            .iter()
            .any(|o| o.node == d && o.value == json!(3.0)));
    }

    #[test]
    fn key_defaults_and_switches_become_overrides_too() {
        let (mut doc, base, [a, ..], _) = variant_sample();
        let cmd = SetEnabled::new(&doc, &a, false).unwrap();
        let after = round_trip(&mut doc, cmd);
        assert!(after
            .variant()
            .unwrap()
            .is_overridden(&Field::Enabled(a.clone())));
        assert_eq!(after.base_document().unwrap(), base);
        assert!(after
            .to_variant_file()
            .unwrap()
            .overrides
            .disabled
            .contains(&a));
        // `speed` is overridden already: setting it again keeps the base's value.
        let cmd = SetKeyDefault::new(&doc, "speed", Some(json!(9.0))).unwrap();
        let after = round_trip(&mut doc, cmd);
        let field = Field::KeyDefault("speed".into());
        assert_eq!(
            after.variant().unwrap().base_value(&field),
            Some(Some(&json!(1.0)))
        );
        assert_eq!(after.base_document().unwrap(), base);
    }

    #[test]
    fn apply_to_base_moves_the_value_into_the_base_and_undo_restores_it() {
        let (mut doc, base, [_, b, ..], _) = variant_sample();
        let field = seconds(&b);
        let cmd = ApplyToBase::new(&doc, field.clone()).unwrap();
        let after = round_trip(&mut doc, cmd);
        assert!(!after.variant().unwrap().is_overridden(&field));
        assert_eq!(
            after.field_value(&field),
            Some(json!(0.5)),
            "the value stays"
        );
        let new_base = after.base_document().unwrap();
        assert_eq!(new_base.field_value(&field), Some(json!(0.5)));
        assert_ne!(new_base, base);
        assert!(!after
            .to_variant_file()
            .unwrap()
            .overrides
            .params
            .iter()
            .any(|o| o.node == b));
    }

    #[test]
    fn revert_puts_the_base_value_back_and_undo_restores_the_override() {
        let (mut doc, base, [_, b, c, ..], _) = variant_sample();
        let field = seconds(&b);
        let cmd = RevertOverride::new(&doc, field.clone()).unwrap();
        assert_eq!(cmd.label(), "Revert \"Wait\" seconds");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.field_value(&field), Some(json!(1.0)));
        assert!(!after.variant().unwrap().is_overridden(&field));
        assert_eq!(after.base_document().unwrap(), base);
        // Reverting the switch runs the node again.
        let cmd = RevertOverride::new(&doc, Field::Enabled(c.clone())).unwrap();
        let after = round_trip(&mut doc, cmd);
        assert!(!after.is_disabled(&c));
    }

    #[test]
    fn what_is_not_overridden_cannot_be_applied_or_reverted() {
        let (doc, _, [a, ..], _) = variant_sample();
        assert!(ApplyToBase::new(&doc, seconds(&a)).is_err());
        assert!(RevertOverride::new(&doc, Field::Enabled(a.clone())).is_err());
        let (plain, [_, b, ..]) = crate::document::sample();
        assert!(RevertOverride::new(&plain, seconds(&b)).is_err());
    }

    #[test]
    fn a_variant_refuses_structural_edits_removals_and_switching_on_what_the_base_switches_off() {
        let (doc, _, [a, b, c, ..], _) = variant_sample();
        let mut session = Session::new(doc);
        let types = session.types().clone();
        let add = AddNode::new(&types, "Wait", [0.0, 0.0]).unwrap();
        let err = session.apply(add).unwrap_err();
        assert!(err.to_string().contains("variant"), "{err}");
        let remove = SetParam::new(session.document(), Owner::Node(b.clone()), "seconds", None);
        assert!(remove.is_err());
        // `c` is off in the variant, so switching it back on is fine; a node the base
        // switches off cannot be switched on.
        assert!(session
            .apply(SetEnabled::new(session.document(), &c, true).unwrap())
            .is_ok());
        let mut doc = session.document().clone();
        doc.file.nodes.iter_mut().for_each(|n| {
            if n.guid == a {
                n.enabled = false;
            }
        });
        assert!(SetEnabled::new(&doc, &a, true).is_err());
    }

    #[test]
    fn keystrokes_back_to_the_old_value_keep_the_step_that_made_the_override() {
        let (mut doc, _, [_, b, ..], _) = variant_sample();
        let field = seconds(&b);
        // The base now holds 0.5, and `seconds` is no override.
        ApplyToBase::new(&doc, field.clone())
            .unwrap()
            .edit(&mut doc);
        let before = doc.clone();
        let owner = Owner::Node(b.clone());
        let set = |doc: &Document, v: f64| {
            let cmd = SetParam::new(doc, owner.clone(), "seconds", Some(json!(v)));
            Command::from(cmd.unwrap().gesture(7))
        };
        let mut first = set(&doc, 2.0);
        first.edit(&mut doc);
        assert!(doc.variant().unwrap().is_overridden(&field));
        let mut back = set(&doc, 0.5);
        back.edit(&mut doc);
        assert!(matches!(first.merge(back), undo::Merged::Yes));
        assert!(doc.variant().unwrap().is_overridden(&field));
        first.undo(&mut doc);
        assert_eq!(doc, before);
    }
}
