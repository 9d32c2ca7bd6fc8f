//! Blackboard key declarations: add, rename (rewriting every reference), remove, retype,
//! set the default.
//!
//! - `RenameKey` rewrites the parameters that name the key ([`Document::key_usages`]:
//!   `key` parameters and key-map values of nodes and decorators), as found when the command
//!   is built, and only those still naming the old key when it is applied, so undo reverts
//!   exactly what it changed.
//! - `RemoveKey` leaves references alone: the UI asks first when `key_usages` is not empty,
//!   and validation then lists the dangling references.
//! - `RetypeKey` drops a default that the new type cannot hold (restored on undo).

use arbor_runtime::format::KeyDecl;
use arbor_runtime::{NodeTypes, ValueType};
use serde_json::Value;
use undo::{Edit, Merged};

use super::{refused, CommandError, DocEdit};
use crate::document::{Document, Field, KeyUsage};

fn index(doc: &Document, key: &str) -> Result<usize, CommandError> {
    doc.blackboard()
        .iter()
        .position(|k| k.key == key)
        .ok_or_else(|| CommandError::UnknownKey(key.to_owned()))
}

fn valid_new_name(doc: &Document, name: &str) -> Result<(), CommandError> {
    if name.trim().is_empty() {
        return refused("a key needs a name");
    }
    if doc.key(name).is_some() {
        return refused(format!("a key named `{name}` already exists"));
    }
    Ok(())
}

/// Declares a key, at the end of the list.
#[derive(Clone, Debug)]
pub struct AddKey {
    decl: KeyDecl,
    label: String,
}

impl AddKey {
    pub fn new(name: &str, ty: ValueType, default: Option<Value>) -> AddKey {
        AddKey {
            label: format!("Add key `{name}`"),
            decl: KeyDecl {
                key: name.to_owned(),
                ty,
                default,
                description: String::new(),
                unknown: Default::default(),
            },
        }
    }
}

impl Edit for AddKey {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        doc.file.blackboard.push(self.decl.clone());
    }

    fn undo(&mut self, doc: &mut Document) {
        if doc
            .file
            .blackboard
            .last()
            .is_some_and(|k| k.key == self.decl.key)
        {
            doc.file.blackboard.pop();
        }
    }
}

impl DocEdit for AddKey {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        valid_new_name(doc, &self.decl.key)
    }
}

/// Renames a key and every reference to it.
#[derive(Clone, Debug)]
pub struct RenameKey {
    old: String,
    new: String,
    usages: Vec<KeyUsage>,
    label: String,
    /// Which usages were rewritten, captured on edit.
    rewritten: Vec<bool>,
}

impl RenameKey {
    pub fn new(
        doc: &Document,
        types: &NodeTypes,
        old: &str,
        new: &str,
    ) -> Result<RenameKey, CommandError> {
        index(doc, old)?;
        valid_new_name(doc, new)?;
        Ok(RenameKey {
            old: old.to_owned(),
            new: new.to_owned(),
            usages: doc.key_usages(types, old),
            label: format!("Rename key `{old}` to `{new}`"),
            rewritten: Vec::new(),
        })
    }

    /// How many references the rename rewrites.
    pub fn references(&self) -> usize {
        self.usages.len()
    }
}

/// Replaces the key named by `usage` if it is `from`; says whether it did.
fn rewrite(doc: &mut Document, usage: &KeyUsage, from: &str, to: &str) -> bool {
    let Some(value) = doc
        .params_mut(&usage.owner)
        .and_then(|p| p.get_mut(&usage.param))
    else {
        return false;
    };
    let slot = match &usage.entry {
        None => Some(value),
        Some(entry) => value.as_object_mut().and_then(|m| m.get_mut(entry)),
    };
    match slot {
        Some(v) if v.as_str() == Some(from) => {
            *v = Value::String(to.to_owned());
            true
        }
        Some(v) if arbor_runtime::binding(v) == Ok(Some(from)) => {
            *v = arbor_runtime::binding_json(to);
            true
        }
        _ => false,
    }
}

impl Edit for RenameKey {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(k) = doc.file.blackboard.iter_mut().find(|k| k.key == self.old) {
            k.key = self.new.clone();
        }
        self.rewritten = self
            .usages
            .iter()
            .map(|u| rewrite(doc, u, &self.old, &self.new))
            .collect();
    }

    fn undo(&mut self, doc: &mut Document) {
        for (u, done) in self.usages.iter().zip(&self.rewritten) {
            if *done {
                rewrite(doc, u, &self.new, &self.old);
            }
        }
        if let Some(k) = doc.file.blackboard.iter_mut().find(|k| k.key == self.new) {
            k.key = self.old.clone();
        }
    }
}

impl DocEdit for RenameKey {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        index(doc, &self.old)?;
        valid_new_name(doc, &self.new)
    }
}

/// Removes a key declaration; undo puts it back in its place.
#[derive(Clone, Debug)]
pub struct RemoveKey {
    key: String,
    label: String,
    /// Captured on edit.
    removed: Option<(usize, KeyDecl)>,
}

impl RemoveKey {
    pub fn new(doc: &Document, key: &str) -> Result<RemoveKey, CommandError> {
        index(doc, key)?;
        Ok(RemoveKey {
            key: key.to_owned(),
            label: format!("Delete key `{key}`"),
            removed: None,
        })
    }
}

impl Edit for RemoveKey {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.removed = index(doc, &self.key)
            .ok()
            .map(|i| (i, doc.file.blackboard.remove(i)));
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some((i, decl)) = self.removed.clone() {
            let i = i.min(doc.file.blackboard.len());
            doc.file.blackboard.insert(i, decl);
        }
    }
}

impl DocEdit for RemoveKey {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        index(doc, &self.key).map(|_| ())
    }
}

/// Changes a key's type.
#[derive(Clone, Debug)]
pub struct RetypeKey {
    key: String,
    ty: ValueType,
    label: String,
    /// Captured on edit.
    old: Option<(ValueType, Option<Value>)>,
}

impl RetypeKey {
    pub fn new(doc: &Document, key: &str, ty: ValueType) -> Result<RetypeKey, CommandError> {
        index(doc, key)?;
        Ok(RetypeKey {
            key: key.to_owned(),
            ty,
            label: format!("Make key `{key}` {ty}"),
            old: None,
        })
    }
}

impl Edit for RetypeKey {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.old = None;
        if let Some(k) = doc.file.blackboard.iter_mut().find(|k| k.key == self.key) {
            self.old = Some((k.ty, k.default.clone()));
            k.ty = self.ty;
            if k.default
                .as_ref()
                .is_some_and(|d| self.ty.coerce(d).is_err())
            {
                k.default = None;
            }
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let (Some((ty, default)), Some(k)) = (
            self.old.clone(),
            doc.file.blackboard.iter_mut().find(|k| k.key == self.key),
        ) {
            k.ty = ty;
            k.default = default;
        }
    }
}

impl DocEdit for RetypeKey {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        index(doc, &self.key).map(|_| ())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.key(&self.key).is_some_and(|k| k.ty == self.ty)
    }
}

/// Sets (or clears) a key's default; keystrokes in one gesture merge.
#[derive(Clone, Debug)]
pub struct SetKeyDefault {
    key: String,
    default: Option<Value>,
    gesture: u64,
    label: String,
    /// Captured on edit (merged edits keep the first).
    old: Option<Value>,
    /// Whether the edit made the default a variant override (undo forgets it again).
    marked: bool,
}

impl SetKeyDefault {
    pub fn new(
        doc: &Document,
        key: &str,
        default: Option<Value>,
    ) -> Result<SetKeyDefault, CommandError> {
        let old = doc
            .key(key)
            .ok_or_else(|| CommandError::UnknownKey(key.to_owned()))?
            .default
            .clone();
        Ok(SetKeyDefault {
            key: key.to_owned(),
            default,
            gesture: 0,
            label: format!("Set default of `{key}`"),
            old,
            marked: false,
        })
    }

    pub fn gesture(mut self, gesture: u64) -> SetKeyDefault {
        self.gesture = gesture;
        self
    }
}

impl Edit for SetKeyDefault {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(k) = doc.file.blackboard.iter_mut().find(|k| k.key == self.key) {
            self.old = std::mem::replace(&mut k.default, self.default.clone());
            let field = Field::KeyDefault(self.key.clone());
            self.marked = doc.mark_overridden(field, self.old.clone());
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some(k) = doc.file.blackboard.iter_mut().find(|k| k.key == self.key) {
            k.default = self.old.clone();
        }
        if self.marked {
            doc.unmark_overridden(&Field::KeyDefault(self.key.clone()));
        }
    }

    fn merge(&mut self, other: SetKeyDefault) -> Merged<SetKeyDefault> {
        if self.key != other.key || self.gesture != other.gesture {
            return Merged::No(other);
        }
        self.default = other.default;
        // Back at the old value, the step still made the default an override.
        if self.default == self.old && !self.marked {
            Merged::Annul
        } else {
            Merged::Yes
        }
    }
}

impl DocEdit for SetKeyDefault {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        index(doc, &self.key).map(|_| ())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.key(&self.key)
            .is_some_and(|k| k.default == self.default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::Command;
    use crate::document::{sample, Owner};
    use arbor_runtime::format::{DecoratorDef, NodeDef};
    use serde_json::json;

    fn with_keys() -> (Document, String, String) {
        let (mut doc, _) = sample();
        for (k, ty, d) in [
            ("hp", ValueType::Int, Some(json!(10))),
            ("zone", ValueType::String, None),
        ] {
            AddKey::new(k, ty, d).edit(&mut doc);
        }
        let mut cond = NodeDef::new("Condition");
        cond.params.insert("key".into(), json!("hp"));
        cond.params.insert("equals".into(), json!(3));
        let mut deco = DecoratorDef::new("Condition");
        deco.params.insert("key".into(), json!("hp"));
        cond.decorators.push(deco.clone());
        let mut sub = NodeDef::new("Subtree");
        sub.params
            .insert("remap".into(), json!({"health": "hp", "z": "zone"}));
        let (c, s) = (cond.guid.clone(), sub.guid.clone());
        doc.file.nodes.extend([cond, sub]);
        (doc, c, s)
    }

    #[test]
    fn add_remove_retype_default_round_trip() {
        let (mut doc, ..) = with_keys();
        let after = round_trip(
            &mut doc,
            AddKey::new("speed", ValueType::Float, Some(json!(1.5))),
        );
        assert_eq!(after.blackboard().last().unwrap().key, "speed");
        assert!(AddKey::new("hp", ValueType::Int, None)
            .check(&doc, &NodeTypes::default())
            .is_err());
        assert!(AddKey::new(" ", ValueType::Int, None)
            .check(&doc, &NodeTypes::default())
            .is_err());

        let after = {
            let cmd = RemoveKey::new(&doc, "hp").unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.blackboard().len(), 1);
        assert!(RemoveKey::new(&doc, "nope").is_err());

        let after = {
            let cmd = RetypeKey::new(&doc, "hp", ValueType::Float).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(
            after.key("hp").unwrap().default,
            Some(json!(10)),
            "10 is a valid float"
        );
        let after = {
            let cmd = RetypeKey::new(&doc, "hp", ValueType::Bool).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.key("hp").unwrap().default, None, "10 is not a bool");

        let after = {
            let cmd = SetKeyDefault::new(&doc, "zone", Some(json!("north"))).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.key("zone").unwrap().default, Some(json!("north")));
    }

    #[test]
    fn rename_updates_every_reference_and_undo_restores_them() {
        let types = NodeTypes::builtin();
        let (mut doc, c, s) = with_keys();
        let cmd = RenameKey::new(&doc, &types, "hp", "health").unwrap();
        assert_eq!(cmd.references(), 3);
        assert_eq!(cmd.label(), "Rename key `hp` to `health`");
        let after = round_trip(&mut doc, cmd);
        assert!(after.key("hp").is_none() && after.key("health").is_some());
        let node = after.node(&c).unwrap();
        assert_eq!(node.params["key"], json!("health"));
        assert_eq!(node.params["equals"], json!(3));
        let deco = &node.decorators[0];
        let owner = Owner::Decorator {
            node: c.clone(),
            decorator: deco.guid.clone(),
        };
        assert_eq!(after.params(&owner).unwrap()["key"], json!("health"));
        assert_eq!(
            after.node(&s).unwrap().params["remap"],
            json!({"health": "health", "z": "zone"})
        );
        assert!(after.key_usages(&types, "hp").is_empty());
        assert_eq!(after.key_usages(&types, "health").len(), 3);
    }

    #[test]
    fn rename_rewrites_bindings_and_undo_restores_them() {
        let types = NodeTypes::builtin();
        let (mut doc, ..) = with_keys();
        let mut wait = NodeDef::new("Wait");
        wait.params.insert("seconds".into(), json!({"$key": "hp"}));
        let w = wait.guid.clone();
        doc.file.nodes.push(wait);
        let cmd = RenameKey::new(&doc, &types, "hp", "health").unwrap();
        assert_eq!(cmd.references(), 4, "three names and one binding");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(
            after.node(&w).unwrap().params["seconds"],
            json!({"$key": "health"})
        );
    }

    #[test]
    fn rename_refuses_clashes_and_unknown_keys() {
        let types = NodeTypes::builtin();
        let (doc, ..) = with_keys();
        assert!(RenameKey::new(&doc, &types, "hp", "zone").is_err());
        assert!(RenameKey::new(&doc, &types, "nope", "x").is_err());
        assert!(RenameKey::new(&doc, &types, "hp", "").is_err());
    }

    #[test]
    fn default_keystrokes_merge() {
        let (mut doc, ..) = with_keys();
        let original = doc.clone();
        let mut first = Command::from(
            SetKeyDefault::new(&doc, "hp", Some(json!(1)))
                .unwrap()
                .gesture(9),
        );
        first.edit(&mut doc);
        let mut second = Command::from(
            SetKeyDefault::new(&doc, "hp", Some(json!(12)))
                .unwrap()
                .gesture(9),
        );
        second.edit(&mut doc);
        assert!(matches!(first.merge(second), Merged::Yes));
        first.undo(&mut doc);
        assert_eq!(doc, original);
    }
}
