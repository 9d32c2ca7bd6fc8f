//! SetParam: sets (or removes, with `None`) one parameter of a node or of an attached
//! decorator (an abort type is the decorator's `abort` parameter).
//!
//! In a variant document the edit is the variant's: the parameter becomes (or stays)
//! overridden, the base's value kept for "revert" and the base file untouched.
//!
//! Consecutive edits of the same parameter in the same gesture (the keystrokes typed while
//! a field has focus, a slider drag) merge into one step; typing back the original value
//! annuls the step.

use arbor_runtime::NodeTypes;
use serde_json::Value;
use undo::{Edit, Merged};

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::{Document, Field, Owner};

#[derive(Clone, Debug)]
pub struct SetParam {
    owner: Owner,
    name: String,
    value: Option<Value>,
    gesture: u64,
    label: String,
    /// Captured on edit (merged edits keep the first).
    old: Option<Value>,
    /// Whether the edit made the parameter a variant override (undo forgets it again).
    marked: bool,
}

impl SetParam {
    pub fn new(
        doc: &Document,
        owner: Owner,
        name: &str,
        value: Option<Value>,
    ) -> Result<SetParam, CommandError> {
        let label = match &owner {
            Owner::Node(g) => format!("Set {} {name}", quoted(doc, g)),
            Owner::Decorator { node, decorator } => {
                let deco = doc
                    .decorator(node, decorator)
                    .map_or_else(|| decorator.clone(), |d| d.name.clone());
                format!("Set {} \"{deco}\" {name}", quoted(doc, node))
            }
        };
        let cmd = SetParam {
            old: doc.params(&owner).and_then(|p| p.get(name)).cloned(),
            owner,
            name: name.to_owned(),
            value,
            gesture: 0,
            label,
            marked: false,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }

    fn field(&self) -> Field {
        Field::Param {
            owner: self.owner.clone(),
            name: self.name.clone(),
        }
    }

    /// Tags the edit with the field-focus gesture it belongs to (see [`crate::commands`]).
    pub fn gesture(mut self, gesture: u64) -> SetParam {
        self.gesture = gesture;
        self
    }
}

fn put(doc: &mut Document, owner: &Owner, name: &str, value: Option<Value>) -> Option<Value> {
    let params = doc.params_mut(owner)?;
    match value {
        Some(v) => params.insert(name.to_owned(), v),
        None => params.remove(name),
    }
}

impl Edit for SetParam {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.old = put(doc, &self.owner, &self.name, self.value.clone());
        self.marked = doc.mark_overridden(self.field(), self.old.clone());
    }

    fn undo(&mut self, doc: &mut Document) {
        put(doc, &self.owner, &self.name, self.old.clone());
        if self.marked {
            doc.unmark_overridden(&self.field());
        }
    }

    fn merge(&mut self, other: SetParam) -> Merged<SetParam> {
        if self.owner != other.owner || self.name != other.name || self.gesture != other.gesture {
            return Merged::No(other);
        }
        self.value = other.value;
        // Back at the old value, the step still made the parameter an override.
        if self.value == self.old && !self.marked {
            Merged::Annul
        } else {
            Merged::Yes
        }
    }
}

impl DocEdit for SetParam {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if doc.params(&self.owner).is_none() {
            return Err(CommandError::UnknownNode(self.owner.node().to_owned()));
        }
        if doc.variant().is_some() && self.value.is_none() {
            return refused(
                "a variant gives values, it cannot remove a parameter: revert the override \
                 to use the base's value",
            );
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.params(&self.owner).and_then(|p| p.get(&self.name)) == self.value.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::Command;
    use crate::document::sample;
    use arbor_runtime::format::DecoratorDef;
    use serde_json::json;

    #[test]
    fn sets_and_removes_node_params() {
        let (mut doc, [_, b, ..]) = sample();
        let cmd = SetParam::new(&doc, Owner::Node(b.clone()), "seconds", Some(json!(2.5))).unwrap();
        assert_eq!(cmd.label(), "Set \"Wait\" seconds");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.node(&b).unwrap().params["seconds"], json!(2.5));
        doc = after;
        let after = {
            let cmd = SetParam::new(&doc, Owner::Node(b.clone()), "seconds", None).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert!(after.node(&b).unwrap().params.is_empty());
    }

    #[test]
    fn sets_a_decorator_abort_type() {
        let (mut doc, [a, ..]) = sample();
        let deco = DecoratorDef::new("Condition");
        let owner = Owner::Decorator {
            node: a.clone(),
            decorator: deco.guid.clone(),
        };
        doc.node_mut(&a).unwrap().decorators.push(deco);
        let cmd = SetParam::new(&doc, owner.clone(), "abort", Some(json!("Both"))).unwrap();
        assert_eq!(cmd.label(), "Set \"Sequence\" \"Condition\" abort");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.params(&owner).unwrap()["abort"], json!("Both"));
    }

    #[test]
    fn keystrokes_in_one_field_merge_and_typing_back_annuls() {
        let (mut doc, [_, b, ..]) = sample();
        let original = doc.clone();
        let owner = Owner::Node(b.clone());
        let mut first = Command::from(
            SetParam::new(&doc, owner.clone(), "seconds", Some(json!(1)))
                .unwrap()
                .gesture(3),
        );
        first.edit(&mut doc);
        let mut second = Command::from(
            SetParam::new(&doc, owner.clone(), "seconds", Some(json!(12)))
                .unwrap()
                .gesture(3),
        );
        second.edit(&mut doc);
        assert!(matches!(first.merge(second), Merged::Yes));
        let end = doc.clone();
        first.undo(&mut doc);
        assert_eq!(doc, original);
        first.redo(&mut doc);
        assert_eq!(doc, end);
        // Another field, or another gesture, starts a new step.
        let mut name = Command::from(
            SetParam::new(&doc, owner.clone(), "other", Some(json!(1)))
                .unwrap()
                .gesture(3),
        );
        name.edit(&mut doc);
        assert!(matches!(first.merge(name), Merged::No(_)));
        let mut later = Command::from(
            SetParam::new(&doc, owner.clone(), "seconds", Some(json!(5)))
                .unwrap()
                .gesture(4),
        );
        later.edit(&mut doc);
        assert!(matches!(first.merge(later), Merged::No(_)));
        // Typing the original value back (here: removing it) annuls.
        let mut back = Command::from(
            SetParam::new(&doc, owner, "seconds", None)
                .unwrap()
                .gesture(3),
        );
        back.edit(&mut doc);
        assert!(matches!(first.merge(back), Merged::Annul));
    }

    #[test]
    fn unknown_owner_is_refused_and_same_value_is_a_noop() {
        let (doc, [_, b, ..]) = sample();
        assert!(SetParam::new(&doc, Owner::Node("gone".into()), "x", None).is_err());
        let cmd = SetParam::new(&doc, Owner::Node(b), "seconds", None).unwrap();
        assert!(cmd.is_noop(&doc));
    }
}
