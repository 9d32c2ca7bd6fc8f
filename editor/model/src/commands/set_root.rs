//! Tree-level settings: which node is the root (SetRoot), and which node-types manifests
//! the document uses (SetManifests).

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::Document;

/// Makes a top node (one without a parent) the root, or clears the root with `None`.
#[derive(Clone, Debug)]
pub struct SetRoot {
    root: Option<String>,
    label: String,
    /// Captured on edit.
    old: Option<String>,
}

impl SetRoot {
    pub fn new(doc: &Document, root: Option<&str>) -> Result<SetRoot, CommandError> {
        let cmd = SetRoot {
            label: match root {
                Some(g) => format!("Make {} the root", quoted(doc, g)),
                None => "Clear the root".to_owned(),
            },
            root: root.map(str::to_owned),
            old: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }
}

impl Edit for SetRoot {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.old = std::mem::replace(&mut doc.file.root, self.root.clone());
    }

    fn undo(&mut self, doc: &mut Document) {
        doc.file.root = self.old.clone();
    }
}

impl DocEdit for SetRoot {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        let Some(g) = &self.root else { return Ok(()) };
        if !doc.contains(g) {
            return Err(CommandError::UnknownNode(g.clone()));
        }
        if let Some(parent) = doc.parent_of(g) {
            return refused(format!(
                "{} has a parent ({}); only a top node can be the root",
                quoted(doc, g),
                quoted(doc, parent)
            ));
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.root() == self.root.as_deref()
    }
}

/// Replaces the list of node-types manifests (paths relative to the tree file).
#[derive(Clone, Debug)]
pub struct SetManifests {
    manifests: Vec<String>,
    /// Captured on edit.
    old: Vec<String>,
}

impl SetManifests {
    pub fn new(manifests: Vec<String>) -> SetManifests {
        SetManifests {
            manifests,
            old: Vec::new(),
        }
    }
}

impl Edit for SetManifests {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.old = std::mem::replace(&mut doc.editor.manifests, self.manifests.clone());
    }

    fn undo(&mut self, doc: &mut Document) {
        doc.editor.manifests = self.old.clone();
    }
}

impl DocEdit for SetManifests {
    fn label(&self) -> &str {
        "Change node type manifests"
    }

    fn check(&self, _: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.manifests() == self.manifests
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    #[test]
    fn root_changes_round_trip_and_children_are_refused() {
        let (mut doc, [a, b, _, _, e]) = sample();
        let cmd = SetRoot::new(&doc, Some(&e)).unwrap();
        assert_eq!(cmd.label(), "Make \"Log\" the root");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.root(), Some(e.as_str()));
        assert!(after.unconnected().contains(&a.as_str()));
        let after = {
            let cmd = SetRoot::new(&doc, None).unwrap();
            round_trip(&mut doc, cmd)
        };
        assert_eq!(after.root(), None);
        let err = SetRoot::new(&doc, Some(&b)).unwrap_err().to_string();
        assert!(err.contains("only a top node"), "{err}");
        assert!(SetRoot::new(&doc, Some("gone")).is_err());
    }

    #[test]
    fn manifests_round_trip() {
        let (mut doc, _) = sample();
        let after = round_trip(&mut doc, SetManifests::new(vec!["types.json".into()]));
        assert_eq!(after.manifests(), ["types.json"]);
    }
}
