//! Disconnect: removes the edge `parent` → `child`; the child (and its subtree) stays on the
//! canvas, unconnected. Undo puts it back at the same index in the children list.

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::Document;

#[derive(Clone, Debug)]
pub struct Disconnect {
    parent: String,
    child: String,
    label: String,
    /// Captured on edit.
    index: Option<usize>,
}

impl Disconnect {
    pub fn new(doc: &Document, parent: &str, child: &str) -> Result<Disconnect, CommandError> {
        let cmd = Disconnect {
            parent: parent.to_owned(),
            child: child.to_owned(),
            label: format!(
                "Disconnect {} ➡ {}",
                quoted(doc, parent),
                quoted(doc, child)
            ),
            index: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }

    /// Disconnects `child` from whatever parent it has.
    pub fn from_parent(doc: &Document, child: &str) -> Result<Disconnect, CommandError> {
        match doc.parent_of(child) {
            Some(parent) => Disconnect::new(doc, parent, child),
            None => refused(format!("{} has no parent", quoted(doc, child))),
        }
    }
}

impl Edit for Disconnect {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.index = None;
        if let Some(parent) = doc.node_mut(&self.parent) {
            if let Some(i) = parent.children.iter().position(|c| *c == self.child) {
                parent.children.remove(i);
                self.index = Some(i);
            }
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let (Some(i), Some(parent)) = (self.index, doc.node_mut(&self.parent)) {
            let i = i.min(parent.children.len());
            parent.children.insert(i, self.child.clone());
        }
    }
}

impl DocEdit for Disconnect {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if !doc.children(&self.parent).contains(&self.child) {
            return refused(format!(
                "{} is not a child of {}",
                quoted(doc, &self.child),
                quoted(doc, &self.parent)
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
    fn disconnects_and_restores_the_index() {
        let (mut doc, [a, b, c, d, _]) = sample();
        let cmd = Disconnect::new(&doc, &a, &b).unwrap();
        assert_eq!(cmd.label(), "Disconnect \"Sequence\" ➡ \"Wait\"");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.children(&a), std::slice::from_ref(&c));
        assert!(after.unconnected().contains(&b.as_str()));
        let after = {
            let cmd = Disconnect::from_parent(&doc, &d).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert!(after.children(&c).is_empty());
    }

    #[test]
    fn refuses_what_is_not_an_edge() {
        let (doc, [a, _, _, d, e]) = sample();
        assert!(Disconnect::new(&doc, &a, &d).is_err());
        assert!(Disconnect::from_parent(&doc, &e).is_err());
    }
}
