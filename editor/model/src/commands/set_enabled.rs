//! SetEnabled: switches a node on or off (`enabled` in the file; docs/semantics.md rule 79:
//! a disabled node's branch runs as if it were absent). The node keeps its place, its
//! children and its parameters, so switching it back on restores the tree exactly.
//!
//! In a variant document the switch is the variant's (`overrides.disabled`): it can switch
//! off a node the base runs, and back on, but not switch on one the base switches off.

use arbor_runtime::NodeTypes;
use undo::Edit;

use serde_json::Value;

use super::{quoted, refused, CommandError, DocEdit};
use crate::document::{Document, Field};

/// Sets one node's `enabled` flag.
#[derive(Clone, Debug)]
pub struct SetEnabled {
    guid: String,
    enabled: bool,
    label: String,
    /// Captured on edit.
    old: Option<bool>,
    /// Whether the edit made the switch a variant override (undo forgets it again).
    marked: bool,
}

impl SetEnabled {
    /// Switches node `guid` on (`true`) or off (`false`).
    pub fn new(doc: &Document, guid: &str, enabled: bool) -> Result<SetEnabled, CommandError> {
        let cmd = SetEnabled {
            guid: guid.to_owned(),
            enabled,
            label: format!(
                "{} {}",
                if enabled { "Enable" } else { "Disable" },
                quoted(doc, guid)
            ),
            old: None,
            marked: false,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }

    /// Switches node `guid` to the other state: what a context-menu toggle applies.
    pub fn toggle(doc: &Document, guid: &str) -> Result<SetEnabled, CommandError> {
        let enabled = doc
            .node(guid)
            .map(|n| n.enabled)
            .ok_or_else(|| CommandError::UnknownNode(guid.to_owned()))?;
        SetEnabled::new(doc, guid, !enabled)
    }
}

impl Edit for SetEnabled {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(node) = doc.node_mut(&self.guid) {
            let old = std::mem::replace(&mut node.enabled, self.enabled);
            self.old = Some(old);
            let field = Field::Enabled(self.guid.clone());
            self.marked = doc.mark_overridden(field, Some(Value::Bool(old)));
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let (Some(node), Some(old)) = (doc.node_mut(&self.guid), self.old) {
            node.enabled = old;
        }
        if self.marked {
            doc.unmark_overridden(&Field::Enabled(self.guid.clone()));
        }
    }
}

impl DocEdit for SetEnabled {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        let Some(node) = doc.node(&self.guid) else {
            return Err(CommandError::UnknownNode(self.guid.clone()));
        };
        let field = Field::Enabled(self.guid.clone());
        let base_off = doc
            .variant()
            .is_some_and(|v| !v.is_overridden(&field) && !node.enabled);
        if base_off && self.enabled {
            return refused(
                "the base switches this node off; a variant can only switch nodes off (open \
                 the base to switch it on)",
            );
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        doc.node(&self.guid)
            .is_some_and(|n| n.enabled == self.enabled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;
    use crate::Session;

    #[test]
    fn rule79_disabling_a_node_round_trips_and_undo_restores_the_document() {
        // Sequence a [Wait b, Inverter c [Wait d]]: disabling c greys out c and d.
        let (mut doc, [a, b, c, d, _]) = sample();
        let cmd = SetEnabled::new(&doc, &c, false).unwrap();
        assert_eq!(cmd.label(), "Disable \"Inverter\"");
        let after = round_trip(&mut doc, cmd);
        assert_eq!(after.node(&c).map(|n| n.enabled), Some(false));
        assert!(after.is_disabled(&c) && after.is_disabled(&d));
        assert!(!after.is_disabled(&a) && !after.is_disabled(&b));
        let greyed = after.disabled_branches();
        assert_eq!(greyed.len(), 2);
        assert!(greyed.contains(c.as_str()) && greyed.contains(d.as_str()));
        assert!(
            doc.disabled_branches().is_empty(),
            "round_trip leaves doc as before"
        );
    }

    #[test]
    fn rule79_toggle_through_the_session_is_one_undo_step_and_saves_the_flag() {
        let (doc, [_, b, _, _, _]) = sample();
        let before = doc.clone();
        let mut session = Session::new(doc);
        let cmd = SetEnabled::toggle(session.document(), &b).unwrap();
        assert!(session.apply(cmd).unwrap());
        assert!(session.document().is_disabled(&b));
        let saved = session.document().to_tree_file().to_json_pretty();
        assert!(saved.contains("\"enabled\": false"), "{saved}");
        // Applying the same state again changes nothing and makes no step.
        let again = SetEnabled::new(session.document(), &b, false).unwrap();
        assert!(!session.apply(again).unwrap());
        assert!(session.undo());
        assert_eq!(*session.document(), before);
        assert!(!session
            .document()
            .to_tree_file()
            .to_json_pretty()
            .contains("enabled"));
        assert!(session.redo());
        assert!(session.document().is_disabled(&b));
    }

    #[test]
    fn an_unknown_node_is_refused() {
        let (doc, _) = sample();
        assert!(SetEnabled::new(&doc, "gone", false).is_err());
        assert!(SetEnabled::toggle(&doc, "gone").is_err());
    }
}
