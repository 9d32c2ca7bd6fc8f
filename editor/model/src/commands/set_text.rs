//! SetText: edits one text field of the inspector: the tree's name or description, a
//! node's or decorator's name, a key's description, a note's text, a group's title.
//!
//! Like [`super::SetParam`], consecutive edits of the same field in the same gesture merge
//! into one step, and typing the original text back annuls it.

use arbor_runtime::NodeTypes;
use undo::{Edit, Merged};

use super::{quoted, CommandError, DocEdit};
use crate::document::Document;

/// Which text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TextField {
    TreeName,
    TreeDescription,
    NodeName(String),
    DecoratorName { node: String, decorator: String },
    KeyDescription(String),
    NoteText(String),
    GroupTitle(String),
}

#[derive(Clone, Debug)]
pub struct SetText {
    field: TextField,
    text: String,
    gesture: u64,
    label: String,
    subject: String,
    /// Captured on edit (merged edits keep the first).
    old: String,
}

fn slot<'d>(doc: &'d mut Document, field: &TextField) -> Option<&'d mut String> {
    match field {
        TextField::TreeName => Some(&mut doc.file.name),
        TextField::TreeDescription => Some(&mut doc.file.description),
        TextField::NodeName(g) => doc.node_mut(g).map(|n| &mut n.name),
        TextField::DecoratorName { node, decorator } => doc
            .node_mut(node)?
            .decorators
            .iter_mut()
            .find(|d| d.guid == *decorator)
            .map(|d| &mut d.name),
        TextField::KeyDescription(k) => doc
            .file
            .blackboard
            .iter_mut()
            .find(|d| d.key == *k)
            .map(|d| &mut d.description),
        TextField::NoteText(g) => doc
            .editor
            .notes
            .iter_mut()
            .find(|n| n.guid == *g)
            .map(|n| &mut n.text),
        TextField::GroupTitle(g) => doc
            .editor
            .groups
            .iter_mut()
            .find(|x| x.guid == *g)
            .map(|x| &mut x.title),
    }
}

fn current(doc: &Document, field: &TextField) -> Option<String> {
    let text = match field {
        TextField::TreeName => Some(doc.name()),
        TextField::TreeDescription => Some(doc.description()),
        TextField::NodeName(g) => doc.node(g).map(|n| n.name.as_str()),
        TextField::DecoratorName { node, decorator } => {
            doc.decorator(node, decorator).map(|d| d.name.as_str())
        }
        TextField::KeyDescription(k) => doc.key(k).map(|d| d.description.as_str()),
        TextField::NoteText(g) => doc.note(g).map(|n| n.text.as_str()),
        TextField::GroupTitle(g) => doc.group(g).map(|x| x.title.as_str()),
    };
    text.map(str::to_owned)
}

/// The undo label; `subject` is the node's label when the edit started, so that a rename
/// reads `Rename "Wait" to "Wait long"` even after merging its keystrokes.
fn label_for(field: &TextField, subject: &str, text: &str) -> String {
    match field {
        TextField::TreeName => "Rename tree".to_owned(),
        TextField::TreeDescription => "Edit tree description".to_owned(),
        TextField::NodeName(_) => format!("Rename {subject} to \"{text}\""),
        TextField::DecoratorName { .. } => format!("Rename a decorator of {subject}"),
        TextField::KeyDescription(k) => format!("Describe key `{k}`"),
        TextField::NoteText(_) => "Edit note".to_owned(),
        TextField::GroupTitle(_) => "Rename group".to_owned(),
    }
}

impl SetText {
    pub fn new(
        doc: &Document,
        field: TextField,
        text: impl Into<String>,
    ) -> Result<SetText, CommandError> {
        let text = text.into();
        let subject = match &field {
            TextField::NodeName(g) | TextField::DecoratorName { node: g, .. } => quoted(doc, g),
            _ => String::new(),
        };
        let label = label_for(&field, &subject, &text);
        let cmd = SetText {
            old: current(doc, &field).unwrap_or_default(),
            field,
            text,
            gesture: 0,
            label,
            subject,
        };
        cmd.check(doc, &NodeTypes::default())?;
        Ok(cmd)
    }

    /// Tags the edit with the field-focus gesture it belongs to (see [`crate::commands`]).
    pub fn gesture(mut self, gesture: u64) -> SetText {
        self.gesture = gesture;
        self
    }
}

impl Edit for SetText {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        if let Some(s) = slot(doc, &self.field) {
            self.old = std::mem::replace(s, self.text.clone());
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        if let Some(s) = slot(doc, &self.field) {
            *s = self.old.clone();
        }
    }

    fn merge(&mut self, other: SetText) -> Merged<SetText> {
        if self.field != other.field || self.gesture != other.gesture {
            return Merged::No(other);
        }
        self.text = other.text;
        self.label = label_for(&self.field, &self.subject, &self.text);
        if self.text == self.old {
            Merged::Annul
        } else {
            Merged::Yes
        }
    }
}

impl DocEdit for SetText {
    fn label(&self) -> &str {
        &self.label
    }

    fn check(&self, doc: &Document, _: &NodeTypes) -> Result<(), CommandError> {
        match current(doc, &self.field) {
            Some(_) => Ok(()),
            None => Err(CommandError::Refused(
                "the edited item no longer exists".to_owned(),
            )),
        }
    }

    fn is_noop(&self, doc: &Document) -> bool {
        current(doc, &self.field).as_deref() == Some(self.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::commands::Command;
    use crate::document::{sample, Group, Note};
    use arbor_runtime::format::DecoratorDef;

    #[test]
    fn every_field_round_trips() {
        let (mut doc, [a, ..]) = sample();
        let deco = DecoratorDef::new("Inverter");
        let dg = deco.guid.clone();
        doc.node_mut(&a).unwrap().decorators.push(deco);
        doc.editor.notes.push(Note {
            guid: "n".into(),
            ..Note::default()
        });
        doc.editor.groups.push(Group {
            guid: "g".into(),
            ..Group::default()
        });
        doc.file.blackboard.push(arbor_runtime::format::KeyDecl {
            key: "hp".into(),
            ty: arbor_runtime::ValueType::Int,
            default: None,
            description: String::new(),
            unknown: Default::default(),
        });
        let fields = [
            TextField::TreeName,
            TextField::TreeDescription,
            TextField::NodeName(a.clone()),
            TextField::DecoratorName {
                node: a.clone(),
                decorator: dg,
            },
            TextField::KeyDescription("hp".into()),
            TextField::NoteText("n".into()),
            TextField::GroupTitle("g".into()),
        ];
        for field in fields {
            let after = {
                let cmd = SetText::new(&doc, field.clone(), "new text").unwrap();
                round_trip(&mut doc, cmd)
            };
            assert_eq!(
                current(&after, &field).as_deref(),
                Some("new text"),
                "{field:?}"
            );
        }
    }

    #[test]
    fn rename_label_and_keystroke_merging() {
        let (mut doc, [_, b, ..]) = sample();
        let original = doc.clone();
        let field = TextField::NodeName(b.clone());
        let mut cmd = Command::from(SetText::new(&doc, field.clone(), "W").unwrap().gesture(1));
        assert_eq!(cmd.label(), "Rename \"Wait\" to \"W\"");
        cmd.edit(&mut doc);
        for text in ["Wa", "Wai", "Wait long"] {
            let mut next =
                Command::from(SetText::new(&doc, field.clone(), text).unwrap().gesture(1));
            next.edit(&mut doc);
            assert!(matches!(cmd.merge(next), Merged::Yes));
        }
        assert_eq!(cmd.label(), "Rename \"Wait\" to \"Wait long\"");
        cmd.undo(&mut doc);
        assert_eq!(doc, original);
    }

    #[test]
    fn missing_items_are_refused() {
        let (doc, _) = sample();
        assert!(SetText::new(&doc, TextField::NodeName("gone".into()), "x").is_err());
        assert!(SetText::new(&doc, TextField::KeyDescription("nope".into()), "x").is_err());
    }
}
