//! ResolveConflict: settles one merge conflict of the document (the file's `conflicts`,
//! written by `arbor merge`) by picking a side, through the runtime's
//! `arbor_runtime::merge::resolve`, so the editor and the command line resolve the same
//! way. Undo puts the whole document back as it was: a pick may touch a node, its place
//! in a list, or a whole part, and the document before is the one exact inversion.

use arbor_runtime::format::Conflict;
use arbor_runtime::merge::{resolve, Side};
use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{refused, CommandError, DocEdit};
use crate::document::Document;

/// Resolves conflict `index` to `side`.
#[derive(Clone, Debug)]
pub struct ResolveConflict {
    index: usize,
    side: Side,
    label: String,
    /// Captured on edit: the document before.
    before: Option<Box<Document>>,
}

impl ResolveConflict {
    pub fn new(doc: &Document, index: usize, side: Side) -> Result<ResolveConflict, CommandError> {
        let what = doc.conflicts().get(index).map(describe).unwrap_or_default();
        let side_name = match side {
            Side::Base => "the base",
            Side::Ours => "ours",
            Side::Theirs => "theirs",
        };
        let cmd = ResolveConflict {
            index,
            side,
            label: format!("Resolve {what} as {side_name}"),
            before: None,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }

    /// The document after the pick, or why there is none.
    fn resolved(&self, doc: &Document) -> Result<Document, CommandError> {
        let file = resolve(&doc.to_tree_file(), self.index, self.side)
            .map_err(|e| CommandError::Refused(e.to_string()))?;
        Document::from_tree_file(file, None).map_err(|e| CommandError::Refused(e.to_string()))
    }
}

/// `node "B" params.seconds`, for the label.
fn describe(c: &Conflict) -> String {
    let mut out = c.scope.clone();
    if !c.field.is_empty() {
        out.push(' ');
        out.push_str(&c.field);
    }
    out
}

impl Edit for ResolveConflict {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Ok(after) = self.resolved(doc) {
            self.before = Some(Box::new(std::mem::replace(doc, after)));
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some(before) = self.before.take() {
            *doc = *before;
        }
    }
}

impl DocEdit for ResolveConflict {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if self.index >= doc.conflicts().len() {
            return refused(format!("there is no conflict number {}", self.index + 1));
        }
        self.resolved(doc).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use arbor_runtime::format::TreeFile;
    use serde_json::json;

    /// A merged document with one conflict: B's `seconds`, 2 in the base, 5 ours, 7 theirs.
    fn conflicted() -> Document {
        let text = crate::document::conflicted_text();
        let file: TreeFile = arbor_runtime::parse_str(&text, None).unwrap();
        Document::from_tree_file(file, None).unwrap()
    }

    #[test]
    fn picking_a_side_round_trips_and_clears_the_conflict() {
        let mut doc = conflicted();
        let cmd = ResolveConflict::new(&doc, 0, Side::Theirs).unwrap();
        assert_eq!(cmd.label(), "Resolve node params.seconds as theirs");
        let after = round_trip(&mut doc, cmd);
        assert!(after.conflicts().is_empty());
        let b = &after.to_tree_file().nodes[1];
        assert_eq!(b.params["seconds"], json!(7.0));
        assert_eq!(doc.conflicts().len(), 1, "undone");
    }

    #[test]
    fn a_conflict_that_is_not_there_is_refused() {
        let doc = conflicted();
        let err = ResolveConflict::new(&doc, 3, Side::Ours).unwrap_err();
        assert_eq!(err.to_string(), "there is no conflict number 4");
    }
}
