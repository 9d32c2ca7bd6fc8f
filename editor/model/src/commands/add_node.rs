//! AddNode: puts a new node on the canvas. The first node of a document without a root
//! becomes its root, so a new tree is runnable as soon as it has content.
//! Undo removes it (it is the last node: nothing after it survives an undo).

use arbor_runtime::format::NodeDef;
use arbor_runtime::{Category, NodeTypes};
use undo::Edit;

use super::{finite, refused, CommandError, DocEdit};
use crate::document::{Document, Pos};

#[derive(Clone, Debug)]
pub struct AddNode {
    node: NodeDef,
    pos: Pos,
    label: String,
    /// Captured on edit.
    made_root: bool,
    old_pos: Option<Pos>,
}

impl AddNode {
    /// A node of type `kind` with a fresh GUID, named after its type, with the declared
    /// defaults of the parameters that have one.
    pub fn new(types: &NodeTypes, kind: &str, pos: Pos) -> Result<AddNode, CommandError> {
        let Some(ty) = types.node(kind) else {
            return Err(CommandError::UnknownType(kind.to_owned()));
        };
        if ty.category == Category::Attached {
            return refused(format!(
                "`{kind}` is an attached decorator: add it to a node's decorators"
            ));
        }
        let mut node = NodeDef::new(kind);
        for p in &ty.params {
            if let Some(default) = &p.default {
                node.params.insert(p.name.clone(), default.clone());
            }
        }
        Ok(AddNode::with_node(node, finite(pos)?))
    }

    /// Adds `node` as given (its GUID must be new to the document).
    pub fn with_node(node: NodeDef, pos: Pos) -> AddNode {
        AddNode {
            label: format!("Add \"{}\"", node.name),
            node,
            pos,
            made_root: false,
            old_pos: None,
        }
    }

    /// The same node at `pos` instead.
    pub fn at(mut self, pos: Pos) -> Result<AddNode, CommandError> {
        self.pos = finite(pos)?;
        Ok(self)
    }

    /// The new node's GUID, for selecting it.
    pub fn guid(&self) -> &str {
        &self.node.guid
    }
}

impl Edit for AddNode {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.made_root = doc.file.root.is_none();
        if self.made_root {
            doc.file.root = Some(self.node.guid.clone());
        }
        doc.file.nodes.push(self.node.clone());
        self.old_pos = doc.set_position(&self.node.guid, Some(self.pos));
    }

    fn undo(&mut self, doc: &mut Document) {
        doc.set_position(&self.node.guid, self.old_pos);
        if doc
            .file
            .nodes
            .last()
            .is_some_and(|n| n.guid == self.node.guid)
        {
            doc.file.nodes.pop();
        }
        if self.made_root {
            doc.file.root = None;
        }
    }
}

impl DocEdit for AddNode {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        finite(self.pos)?;
        if doc.all_guids().contains(&self.node.guid.as_str()) {
            return refused(format!("GUID {} is already in use", self.node.guid));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    #[test]
    fn adds_with_defaults_and_round_trips() {
        let types = NodeTypes::builtin();
        let (mut doc, _) = sample();
        let cmd = AddNode::new(&types, "Repeat", [5.0, 6.0]).unwrap();
        let guid = cmd.guid().to_owned();
        assert_eq!(cmd.label(), "Add \"Repeat\"");
        let after = round_trip(&mut doc, cmd);
        let node = after.node(&guid).unwrap();
        assert_eq!(node.name, "Repeat");
        let declared = types.node("Repeat").unwrap();
        for p in &declared.params {
            assert_eq!(node.params.get(&p.name), p.default.as_ref(), "{}", p.name);
        }
        assert_eq!(after.position(&guid), Some([5.0, 6.0]));
        assert_ne!(after.root(), Some(guid.as_str()));
    }

    #[test]
    fn first_node_becomes_the_root() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let cmd = AddNode::new(&types, "Sequence", [0.0, 0.0]).unwrap();
        let guid = cmd.guid().to_owned();
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.root(), Some(guid.as_str()));
    }

    #[test]
    fn refuses_unknown_attached_and_non_finite() {
        let types = NodeTypes::builtin();
        assert_eq!(
            AddNode::new(&types, "Nope", [0.0, 0.0]).unwrap_err(),
            CommandError::UnknownType("Nope".into())
        );
        assert!(AddNode::new(&types, "CheckEvent", [0.0, 0.0]).is_err());
        assert!(AddNode::new(&types, "Wait", [f64::NAN, 0.0]).is_err());
    }
}
