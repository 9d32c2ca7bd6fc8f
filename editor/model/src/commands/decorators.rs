//! Attached decorators (a node's `decorators` list, top first): add, remove, reorder.
//! Their parameters, abort type included, are set with [`super::SetParam`] and
//! [`crate::document::Owner::Decorator`]; their names with [`super::SetText`].
//! Decorators are addressed by GUID, so a reorder never retargets a later edit.

use arbor_runtime::format::DecoratorDef;
use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::Document;

/// Adds a decorator to a node, at the bottom of its list unless `at` says otherwise.
#[derive(Clone, Debug)]
pub struct AddDecorator {
    node: String,
    decorator: DecoratorDef,
    index: usize,
    label: String,
}

impl AddDecorator {
    /// A decorator of type `kind` with a fresh GUID and its declared defaults, at the end.
    pub fn new(
        doc: &Document,
        types: &NodeTypes,
        node: &str,
        kind: &str,
    ) -> Result<AddDecorator, CommandError> {
        let Some(ty) = types.decorator(kind) else {
            return refused(format!("no attached decorator type `{kind}`"));
        };
        let mut decorator = DecoratorDef::new(kind);
        for p in &ty.params {
            if let Some(default) = &p.default {
                decorator.params.insert(p.name.clone(), default.clone());
            }
        }
        let Some(n) = doc.node(node) else {
            return Err(CommandError::UnknownNode(node.to_owned()));
        };
        Ok(AddDecorator {
            label: format!("Add {kind} to {}", quoted(doc, node)),
            node: node.to_owned(),
            index: n.decorators.len(),
            decorator,
        })
    }

    /// Puts the decorator at `index` (0 = top) instead of the bottom.
    pub fn at(mut self, index: usize) -> AddDecorator {
        self.index = index;
        self
    }

    pub fn guid(&self) -> &str {
        &self.decorator.guid
    }
}

impl Edit for AddDecorator {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(n) = doc.node_mut(&self.node) {
            let i = self.index.min(n.decorators.len());
            n.decorators.insert(i, self.decorator.clone());
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some(n) = doc.node_mut(&self.node) {
            n.decorators.retain(|d| d.guid != self.decorator.guid);
        }
    }
}

impl DocEdit for AddDecorator {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        let Some(n) = doc.node(&self.node) else {
            return Err(CommandError::UnknownNode(self.node.clone()));
        };
        if self.index > n.decorators.len() {
            return refused("no such place in the decorator list");
        }
        if doc.all_guids().contains(&self.decorator.guid.as_str()) {
            return refused(format!("GUID {} is already in use", self.decorator.guid));
        }
        Ok(())
    }
}

/// Removes a decorator; undo puts it back at its index.
#[derive(Clone, Debug)]
pub struct RemoveDecorator {
    node: String,
    decorator: String,
    label: String,
    /// Captured on edit.
    removed: Option<(usize, DecoratorDef)>,
}

impl RemoveDecorator {
    pub fn new(
        doc: &Document,
        node: &str,
        decorator: &str,
    ) -> Result<RemoveDecorator, CommandError> {
        let cmd = RemoveDecorator {
            label: format!(
                "Remove {} from {}",
                doc.decorator(node, decorator)
                    .map_or("decorator", |d| d.kind.as_str()),
                quoted(doc, node)
            ),
            node: node.to_owned(),
            decorator: decorator.to_owned(),
            removed: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }
}

impl Edit for RemoveDecorator {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.removed = doc.node_mut(&self.node).and_then(|n| {
            let i = n.decorators.iter().position(|d| d.guid == self.decorator)?;
            Some((i, n.decorators.remove(i)))
        });
    }

    fn undo(&mut self, doc: &mut Document) {
        if let (Some((i, d)), Some(n)) = (self.removed.clone(), doc.node_mut(&self.node)) {
            let i = i.min(n.decorators.len());
            n.decorators.insert(i, d);
        }
    }
}

impl DocEdit for RemoveDecorator {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        match doc.decorator(&self.node, &self.decorator) {
            Some(_) => Ok(()),
            None => refused("that decorator no longer exists"),
        }
    }
}

/// Moves a decorator to another place in its node's list (0 = top).
#[derive(Clone, Debug)]
pub struct MoveDecorator {
    node: String,
    decorator: String,
    to: usize,
    label: String,
    /// Captured on edit.
    from: Option<usize>,
}

impl MoveDecorator {
    pub fn new(
        doc: &Document,
        node: &str,
        decorator: &str,
        to: usize,
    ) -> Result<MoveDecorator, CommandError> {
        let cmd = MoveDecorator {
            label: format!(
                "Move {} on {}",
                doc.decorator(node, decorator)
                    .map_or("decorator", |d| d.kind.as_str()),
                quoted(doc, node)
            ),
            node: node.to_owned(),
            decorator: decorator.to_owned(),
            to,
            from: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }
}

impl Edit for MoveDecorator {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.from = None;
        if let Some(n) = doc.node_mut(&self.node) {
            if let Some(i) = n.decorators.iter().position(|d| d.guid == self.decorator) {
                let d = n.decorators.remove(i);
                n.decorators.insert(self.to.min(n.decorators.len()), d);
                self.from = Some(i);
            }
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let (Some(from), Some(n)) = (self.from, doc.node_mut(&self.node)) {
            if let Some(i) = n.decorators.iter().position(|d| d.guid == self.decorator) {
                let d = n.decorators.remove(i);
                n.decorators.insert(from.min(n.decorators.len()), d);
            }
        }
    }
}

impl DocEdit for MoveDecorator {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        let Some(n) = doc.node(&self.node) else {
            return Err(CommandError::UnknownNode(self.node.clone()));
        };
        if doc.decorator(&self.node, &self.decorator).is_none() {
            return refused("that decorator no longer exists");
        }
        if self.to >= n.decorators.len() {
            return refused("no such place in the decorator list");
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.node(&self.node)
            .and_then(|n| n.decorators.iter().position(|d| d.guid == self.decorator))
            == Some(self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;
    use serde_json::json;

    fn kinds(doc: &Document, node: &str) -> Vec<String> {
        doc.node(node)
            .unwrap()
            .decorators
            .iter()
            .map(|d| d.kind.clone())
            .collect()
    }

    #[test]
    fn add_fills_defaults_and_round_trips() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, ..]) = sample();
        let cmd = AddDecorator::new(&doc, &types, &a, "CheckTrigger").unwrap();
        assert_eq!(cmd.label(), "Add CheckTrigger to \"Sequence\"");
        let after = round_trip(&mut doc, cmd);
        let d = &after.node(&a).unwrap().decorators[0];
        assert_eq!(d.params["reset"], json!("Immediate"));
        assert_eq!(d.params["abort"], json!("None"));
        assert!(!d.params.contains_key("trigger"));
        doc = after;
        let after = {
            let cmd = AddDecorator::new(&doc, &types, &a, "Inverter")
                .unwrap()
                .at(0);
            round_trip(&mut doc, cmd)
        };
        assert_eq!(kinds(&after, &a), ["Inverter", "CheckTrigger"]);
        assert!(AddDecorator::new(&doc, &types, &a, "Sequence").is_err());
    }

    #[test]
    fn remove_and_reorder_round_trip() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, ..]) = sample();
        let mut guids = Vec::new();
        for kind in ["Condition", "CheckEvent", "Inverter"] {
            let mut add = AddDecorator::new(&doc, &types, &a, kind).unwrap();
            guids.push(add.guid().to_owned());
            add.edit(&mut doc);
        }
        let after = {
            let cmd = RemoveDecorator::new(&doc, &a, &guids[1]).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(kinds(&after, &a), ["Condition", "Inverter"]);
        let cmd = MoveDecorator::new(&doc, &a, &guids[2], 0).unwrap();
        assert_eq!(cmd.label(), "Move Inverter on \"Sequence\"");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(kinds(&after, &a), ["Inverter", "Condition", "CheckEvent"]);
        let after = {
            let cmd = MoveDecorator::new(&doc, &a, &guids[0], 2).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(kinds(&after, &a), ["CheckEvent", "Inverter", "Condition"]);
        assert!(MoveDecorator::new(&doc, &a, &guids[0], 3).is_err());
        assert!(MoveDecorator::new(&doc, &a, &guids[0], 0)
            .unwrap()
            .is_noop(&doc));
        assert!(RemoveDecorator::new(&doc, &a, "gone").is_err());
    }
}
