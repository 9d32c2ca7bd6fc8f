//! Variant documents: a variant file (docs/format.md, "Variant files") opened as its base
//! tree with the variant's values in place, plus a record of which fields the variant
//! overrides and the base's own value of each.
//!
//! The document's tree holds the values the variant runs with, so the canvas, the
//! inspector, validation and the preview all see the variant as the runtime loads it.
//! [`Variant`] keeps, per overridden [`Field`], the base's value: the base tree is the
//! document with those put back ([`Document::base_document`]), and the variant file is
//! the overridden fields' current values ([`Document::to_variant_file`]).
//!
//! Invariants:
//! - A variant's structure (nodes, links, decorators, keys, names, positions) is its
//!   base's: commands that would change it are refused (commands/mod.rs); only values do.
//! - A field is overridden exactly when [`Variant`] has an entry for it. An override
//!   whose value equals the base's stays one until it is reverted or applied to the base.
//! - An [`Field::Enabled`] override only switches a node off: the format has no way to
//!   switch on a node the base switches off.

use std::collections::BTreeMap;
use std::path::Path;

use arbor_runtime::format::{
    KeyOverride, Overrides, ParamOverride, VariantFile, VARIANT_FORMAT, VARIANT_VERSION,
};
use arbor_runtime::LoadError;
use serde_json::Value;

use super::model::{Document, Owner};

/// One value a variant can override.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// A parameter of a node or of an attached decorator.
    Param { owner: Owner, name: String },
    /// A blackboard key's default.
    KeyDefault(String),
    /// Whether a node runs (rule 79); its value is a JSON boolean.
    Enabled(String),
}

impl Field {
    /// The node the field belongs to (a decorator's node); `None` for a key.
    pub fn node(&self) -> Option<&str> {
        match self {
            Field::Param { owner, .. } => Some(owner.node()),
            Field::Enabled(node) => Some(node),
            Field::KeyDefault(_) => None,
        }
    }
}

/// What a variant document knows besides its tree (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub(crate) name: String,
    pub(crate) description: String,
    /// The base tree file as the variant names it (relative to the variant's folder).
    pub(crate) base: String,
    /// Each overridden field's value in the base (`None`: the base does not set it).
    pub(crate) base_values: BTreeMap<Field, Option<Value>>,
}

impl Variant {
    /// The variant's own name (the loaded tree takes it); empty: the base's.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    /// The base tree file, relative to the variant file's folder.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Every overridden field with the base's value of it.
    pub fn overridden(&self) -> impl Iterator<Item = (&Field, Option<&Value>)> {
        self.base_values.iter().map(|(f, v)| (f, v.as_ref()))
    }

    /// The base's value of `field` if the variant overrides it (`Some(None)`: the base
    /// does not set it), else `None`.
    pub fn base_value(&self, field: &Field) -> Option<Option<&Value>> {
        self.base_values.get(field).map(Option::as_ref)
    }

    pub fn is_overridden(&self, field: &Field) -> bool {
        self.base_values.contains_key(field)
    }
}

impl Document {
    /// The variant `file` opened on its `base` document: the base with the overrides
    /// applied and recorded. An override naming what the base lacks is a problem located
    /// in the variant (`path`), as the runtime's loader reports it.
    pub fn from_variant(
        file: VariantFile,
        mut base: Document,
        path: Option<&Path>,
    ) -> Result<Document, LoadError> {
        let mut applied = base.file.clone();
        arbor_runtime::apply_variant_overrides(&file.overrides, &mut applied, path)?;
        let mut base_values = BTreeMap::new();
        for o in &file.overrides.params {
            if let Some(owner) = base.owner_of(&o.node) {
                let old = base.params(&owner).and_then(|p| p.get(&o.param)).cloned();
                let field = Field::Param {
                    owner,
                    name: o.param.clone(),
                };
                // A field named twice: the first entry saw the base's own value.
                base_values.entry(field).or_insert(old);
            }
        }
        for o in &file.overrides.keys {
            if let Some(k) = base.key(&o.key) {
                let old = k.default.clone();
                base_values
                    .entry(Field::KeyDefault(o.key.clone()))
                    .or_insert(old);
            }
        }
        for guid in &file.overrides.disabled {
            if let Some(n) = base.node(guid) {
                let old = Some(Value::Bool(n.enabled));
                base_values
                    .entry(Field::Enabled(guid.clone()))
                    .or_insert(old);
            }
        }
        base.file = applied;
        base.variant = Some(Variant {
            name: file.name,
            description: file.description,
            base: file.base,
            base_values,
        });
        Ok(base)
    }

    /// What the document knows as a variant; `None` for a tree file.
    pub fn variant(&self) -> Option<&Variant> {
        self.variant.as_ref()
    }

    /// The owner of the node or attached decorator with this GUID.
    pub fn owner_of(&self, guid: &str) -> Option<Owner> {
        if self.contains(guid) {
            return Some(Owner::Node(guid.to_owned()));
        }
        self.nodes().find_map(|n| {
            n.decorators
                .iter()
                .any(|d| d.guid == guid)
                .then(|| Owner::Decorator {
                    node: n.guid.clone(),
                    decorator: guid.to_owned(),
                })
        })
    }

    /// The field's current value (`None`: not set, or no such node or key).
    pub fn field_value(&self, field: &Field) -> Option<Value> {
        match field {
            Field::Param { owner, name } => self.params(owner).and_then(|p| p.get(name)).cloned(),
            Field::KeyDefault(key) => self.key(key).and_then(|k| k.default.clone()),
            Field::Enabled(node) => self.node(node).map(|n| Value::Bool(n.enabled)),
        }
    }

    /// Sets the field's value; returns the one it replaced. A non-boolean `Enabled` value
    /// (which no command makes) counts as "on", the file's default.
    pub(crate) fn put_field(&mut self, field: &Field, value: Option<Value>) -> Option<Value> {
        match field {
            Field::Param { owner, name } => {
                let params = self.params_mut(owner)?;
                match value {
                    Some(v) => params.insert(name.clone(), v),
                    None => params.remove(name),
                }
            }
            Field::KeyDefault(key) => {
                let k = self.file.blackboard.iter_mut().find(|k| k.key == *key)?;
                std::mem::replace(&mut k.default, value)
            }
            Field::Enabled(node) => {
                let on = value.and_then(|v| v.as_bool()).unwrap_or(true);
                let n = self.node_mut(node)?;
                Some(Value::Bool(std::mem::replace(&mut n.enabled, on)))
            }
        }
    }

    /// Records `field` as overridden, with `base` as the base's value, if the document is
    /// a variant and the field is not overridden yet. Returns whether it recorded it (so
    /// the command that changed the field can forget it again on undo).
    pub(crate) fn mark_overridden(&mut self, field: Field, base: Option<Value>) -> bool {
        match &mut self.variant {
            Some(v) if !v.base_values.contains_key(&field) => {
                v.base_values.insert(field, base);
                true
            }
            _ => false,
        }
    }

    /// Forgets that `field` is overridden; returns the base's value it kept.
    pub(crate) fn unmark_overridden(&mut self, field: &Field) -> Option<Option<Value>> {
        self.variant.as_mut()?.base_values.remove(field)
    }

    /// Records `field` as overridden with this base value, replacing any record.
    pub(crate) fn remark_overridden(&mut self, field: Field, base: Option<Value>) {
        if let Some(v) = &mut self.variant {
            v.base_values.insert(field, base);
        }
    }

    /// How many fields of node `guid` (its parameters, its decorators', its switch) the
    /// variant overrides: the badge on its card.
    pub fn overrides_on(&self, guid: &str) -> usize {
        self.variant.as_ref().map_or(0, |v| {
            v.base_values
                .keys()
                .filter(|f| f.node() == Some(guid))
                .count()
        })
    }

    /// A variant's base tree: this document with the base's values put back. `None` for
    /// a tree file.
    pub fn base_document(&self) -> Option<Document> {
        let v = self.variant.as_ref()?;
        let mut base = self.clone();
        base.variant = None;
        for (field, value) in &v.base_values {
            base.put_field(field, value.clone());
        }
        Some(base)
    }

    /// The variant file of the current values: each overridden field as it is now, in a
    /// stable order. `None` for a tree file.
    pub fn to_variant_file(&self) -> Option<VariantFile> {
        let v = self.variant.as_ref()?;
        let mut overrides = Overrides::default();
        for field in v.base_values.keys() {
            match field {
                Field::Param { owner, name } => {
                    // A removed parameter has no override value: the field reads as the
                    // base's until set again (commands refuse removing one).
                    if let Some(value) = self.field_value(field) {
                        let node = match owner {
                            Owner::Node(g) | Owner::Decorator { decorator: g, .. } => g.clone(),
                        };
                        overrides.params.push(ParamOverride {
                            node,
                            param: name.clone(),
                            value,
                        });
                    }
                }
                Field::KeyDefault(key) => overrides.keys.push(KeyOverride {
                    key: key.clone(),
                    default: self.field_value(field).unwrap_or(Value::Null),
                }),
                Field::Enabled(node) => {
                    if self.field_value(field) == Some(Value::Bool(false)) {
                        overrides.disabled.push(node.clone());
                    }
                }
            }
        }
        Some(VariantFile {
            format: VARIANT_FORMAT.to_owned(),
            version: VARIANT_VERSION,
            name: v.name.clone(),
            description: v.description.clone(),
            base: v.base.clone(),
            overrides,
        })
    }

    /// The canonical text of the variant file (pretty, ending in a newline); `None` for a
    /// tree file.
    pub fn to_variant_json(&self) -> Option<String> {
        let file = self.to_variant_file()?;
        // A struct of strings, numbers and JSON values always serializes.
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        Some(text + "\n")
    }

    /// Points the variant at its base by another relative path (after a Save As into
    /// another folder).
    pub(crate) fn set_variant_base(&mut self, base: String) {
        if let Some(v) = &mut self.variant {
            v.base = base;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::document::sample;
    use arbor_runtime::format::DecoratorDef;
    use serde_json::json;

    /// The sample with a Condition decorator on `a` and a key, and a variant overriding
    /// `b.seconds`, the decorator's `key`, the key's default and switching `c` off.
    pub(crate) fn variant_sample() -> (Document, Document, [String; 5], String) {
        let (mut base, guids) = sample();
        let [a, b, c, ..] = &guids;
        base.node_mut(b)
            .unwrap()
            .params
            .insert("seconds".into(), json!(1.0));
        let mut deco = DecoratorDef::new("Condition");
        deco.params.insert("key".into(), json!("alert"));
        let deco_guid = deco.guid.clone();
        base.node_mut(a).unwrap().decorators.push(deco);
        base.file.blackboard.push(arbor_runtime::format::KeyDecl {
            key: "speed".into(),
            ty: arbor_runtime::ValueType::Float,
            default: Some(json!(1.0)),
            description: String::new(),
            unknown: Default::default(),
        });
        let file = VariantFile {
            format: VARIANT_FORMAT.into(),
            version: VARIANT_VERSION,
            name: "fast".into(),
            description: String::new(),
            base: "base.json".into(),
            overrides: Overrides {
                params: vec![
                    ParamOverride {
                        node: b.clone(),
                        param: "seconds".into(),
                        value: json!(0.5),
                    },
                    ParamOverride {
                        node: deco_guid.clone(),
                        param: "key".into(),
                        value: json!("panic"),
                    },
                ],
                keys: vec![KeyOverride {
                    key: "speed".into(),
                    default: json!(2.5),
                }],
                disabled: vec![c.clone()],
            },
        };
        let doc = Document::from_variant(file, base.clone(), None).unwrap();
        (doc, base, guids, deco_guid)
    }

    #[test]
    fn a_variant_opens_on_its_base_with_the_overrides_in_place_and_recorded() {
        let (doc, base, [a, b, c, ..], deco) = variant_sample();
        let seconds = Field::Param {
            owner: Owner::Node(b.clone()),
            name: "seconds".into(),
        };
        assert_eq!(doc.field_value(&seconds), Some(json!(0.5)));
        let v = doc.variant().unwrap();
        assert_eq!(v.base_value(&seconds), Some(Some(&json!(1.0))));
        assert!(doc.is_disabled(&c));
        assert_eq!(doc.key("speed").unwrap().default, Some(json!(2.5)));
        let deco_key = Field::Param {
            owner: Owner::Decorator {
                node: a.clone(),
                decorator: deco,
            },
            name: "key".into(),
        };
        assert_eq!(v.base_value(&deco_key), Some(Some(&json!("alert"))));
        assert_eq!(doc.overrides_on(&a), 1);
        assert_eq!(doc.overrides_on(&b), 1);
        assert_eq!(doc.overrides_on(&c), 1);
        // The base comes back exactly, and the variant file round-trips.
        assert_eq!(doc.base_document().unwrap(), base);
        let again =
            Document::from_variant(doc.to_variant_file().unwrap(), base.clone(), None).unwrap();
        assert_eq!(again, doc);
        assert!(base.variant().is_none() && base.to_variant_file().is_none());
    }

    #[test]
    fn an_override_naming_what_the_base_lacks_is_located_in_the_variant() {
        let (doc, base, ..) = variant_sample();
        let mut file = doc.to_variant_file().unwrap();
        file.overrides.params[0].node = "6f1c2a9e-0000-4000-8000-0000000000ff".into();
        let err = Document::from_variant(file, base, Some(Path::new("fast.json"))).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("$.overrides.params[0].node"), "{text}");
        assert!(text.contains("fast.json"), "{text}");
    }
}
