//! AutoLayout: applies [`tidy_layout`] as one undoable step. The new positions are computed
//! when the command is built; undo restores every old position, including "none" for
//! nodes that had no position. The layout keeps the child order, so nothing is re-ordered.

use std::collections::BTreeMap;

use arbor_runtime::NodeTypes;
use undo::Edit;

use super::{refused, CommandError, DocEdit};
use crate::document::{tidy_layout, Document, LayoutOptions, Pos};

#[derive(Clone, Debug)]
pub struct AutoLayout {
    after: BTreeMap<String, Pos>,
    /// Captured on edit.
    before: BTreeMap<String, Option<Pos>>,
}

impl AutoLayout {
    pub fn new(doc: &Document, options: &LayoutOptions) -> AutoLayout {
        AutoLayout {
            after: tidy_layout(doc, options),
            before: BTreeMap::new(),
        }
    }
}

impl Edit for AutoLayout {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        self.before = self
            .after
            .iter()
            .map(|(g, p)| (g.clone(), doc.set_position(g, Some(*p))))
            .collect();
    }

    fn undo(&mut self, doc: &mut Document) {
        for (g, p) in &self.before {
            doc.set_position(g, *p);
        }
    }
}

impl DocEdit for AutoLayout {
    fn label(&self) -> &str {
        "Auto-layout"
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        if self.after.keys().any(|g| !doc.contains(g)) {
            return refused("the tree changed since the layout was computed");
        }
        if self.after.values().flatten().any(|v| !v.is_finite()) {
            return refused("the layout sizes must be finite numbers");
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        self.after.iter().all(|(g, p)| doc.position(g) == Some(*p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    #[test]
    fn lays_out_in_one_step_and_keeps_child_order() {
        let (mut doc, [a, b, c, d, _]) = sample();
        // Scramble: c above b, d unpositioned.
        doc.set_position(&c, Some([900.0, -500.0]));
        doc.set_position(&d, None);
        let cmd = AutoLayout::new(&doc, &LayoutOptions::default());
        assert!(!cmd.is_noop(&doc));
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.children(&a), [b.clone(), c.clone()]);
        assert!(after.position(&b).unwrap()[1] < after.position(&c).unwrap()[1]);
        assert!(after.position(&d).is_some());
        assert!(AutoLayout::new(&after, &LayoutOptions::default()).is_noop(&after));
        let nan = LayoutOptions {
            sibling_gap: f64::NAN,
            ..LayoutOptions::default()
        };
        assert!(AutoLayout::new(&after, &nan)
            .check(&after, &NodeTypes::default())
            .is_err());
    }
}
