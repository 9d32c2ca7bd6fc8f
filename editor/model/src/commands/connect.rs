//! Connect: makes `child` a child of `parent`, at the place its position gives it among the
//! existing children (siblings are ordered along the layout's sibling axis: top to bottom
//! when laid out left to right, left to right when laid out top down).
//!
//! Refused as [`Document::can_connect`] says (cycles, a second parent, a second child under
//! a one-child decorator, children under leaves). Connecting the root under another node
//! moves the root up to the top of the new parent's chain ("wrap the tree in a Sequence"),
//! since a root cannot have a parent.

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{quoted, CommandError, DocEdit};
use crate::document::Document;

#[derive(Clone, Debug)]
pub struct Connect {
    parent: String,
    child: String,
    label: String,
    /// Where to insert instead of by position (replacing a node in place keeps its slot).
    at: Option<usize>,
    /// Captured on edit.
    index: usize,
    old_root: Option<String>,
}

impl Connect {
    pub fn new(
        doc: &Document,
        types: &NodeTypes,
        parent: &str,
        child: &str,
    ) -> Result<Connect, CommandError> {
        doc.can_connect(types, parent, child)
            .map_err(CommandError::Refused)?;
        Ok(Connect {
            parent: parent.to_owned(),
            child: child.to_owned(),
            label: format!("Connect {} ➡ {}", quoted(doc, parent), quoted(doc, child)),
            at: None,
            index: 0,
            old_root: None,
        })
    }

    /// Inserts at `index` in the children list rather than where the child's y puts it.
    pub fn at_index(mut self, index: usize) -> Connect {
        self.at = Some(index);
        self
    }
}

impl Edit for Connect {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        let key = doc.order_key(&self.child);
        let siblings = doc.children(&self.parent);
        let index = match self.at {
            Some(i) => i.min(siblings.len()),
            None => siblings
                .iter()
                .position(|c| doc.order_key(c) > key)
                .unwrap_or(siblings.len()),
        };
        let Some(parent) = doc.node_mut(&self.parent) else {
            return;
        };
        parent.children.insert(index, self.child.clone());
        self.index = index;
        self.old_root = doc.file.root.clone();
        if doc.root() == Some(self.child.as_str()) {
            let mut top = self.parent.clone();
            while let Some(p) = doc.parent_of(&top).filter(|p| *p != self.child) {
                top = p.to_owned();
            }
            doc.file.root = Some(top);
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        doc.file.root = self.old_root.clone();
        if let Some(parent) = doc.node_mut(&self.parent) {
            if parent.children.get(self.index) == Some(&self.child) {
                parent.children.remove(self.index);
            }
        }
    }
}

impl DocEdit for Connect {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, types: &NodeTypes) -> Result<(), CommandError> {
        doc.can_connect(types, &self.parent, &self.child)
            .map_err(CommandError::Refused)?;
        if self
            .at
            .is_some_and(|i| i > doc.children(&self.parent).len())
        {
            return Err(CommandError::Refused(
                "no such place among the children".to_owned(),
            ));
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
    fn inserts_by_y_and_round_trips() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, c, _, e]) = sample();
        // b at y=50, c at y=100; put e between them.
        doc.set_position(&e, Some([0.0, 75.0]));
        let cmd = Connect::new(&doc, &types, &a, &e).unwrap();
        assert_eq!(cmd.label(), "Connect \"Sequence\" ➡ \"Log\"");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.children(&a), [b, e, c]);
    }

    #[test]
    fn an_explicit_index_overrides_y() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, c, _, e]) = sample();
        let cmd = Connect::new(&doc, &types, &a, &e).unwrap().at_index(0);
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.children(&a), [e.clone(), b, c]);
        let far = Connect::new(&doc, &types, &a, &e).unwrap().at_index(3);
        assert!(far.check(&doc, &types).is_err());
    }

    #[test]
    fn connecting_the_root_below_a_new_node_moves_the_root_up() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut top = arbor_runtime::format::NodeDef::new("Sequence");
        let wrapper = arbor_runtime::format::NodeDef::new("Inverter");
        top.children.push(wrapper.guid.clone());
        let root = arbor_runtime::format::NodeDef::new("Sequence");
        let (t, w, r) = (top.guid.clone(), wrapper.guid.clone(), root.guid.clone());
        doc.file.root = Some(r.clone());
        doc.file.nodes = vec![root, top, wrapper];
        let after = {
            let cmd = Connect::new(&doc, &types, &w, &r).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.root(), Some(t.as_str()));
        assert_eq!(after.execution_order(), [&t, &w, &r]);
    }

    #[test]
    fn refusals_carry_reasons() {
        let types = NodeTypes::builtin();
        let (doc, [a, b, c, d, e]) = sample();
        let reason = |p: &str, ch: &str| Connect::new(&doc, &types, p, ch).unwrap_err().to_string();
        assert!(reason(&d, &a).contains("cannot have children"));
        assert!(reason(&c, &e).contains("takes one child"));
        assert!(reason(&a, &d).contains("already has a parent"));
        assert!(reason(&a, &b).contains("already a child"));
        let mut doc2 = doc.clone();
        doc2.node_mut(&a).unwrap().children.clear();
        // c -> d; a is now alone. Putting a under... d is a leaf; use c's subtree: a -> c
        // is fine, but c -> a after that would be a cycle.
        let mut cmd = Connect::new(&doc2, &types, &a, &c).unwrap();
        cmd.edit(&mut doc2);
        doc2.node_mut(&c).unwrap().children.clear();
        let err = Connect::new(&doc2, &types, &c, &a).unwrap_err().to_string();
        assert!(err.contains("cycle"), "{err}");
    }
}
