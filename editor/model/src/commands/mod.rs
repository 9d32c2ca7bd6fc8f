//! Commands: every change to a [`Document`], each an [`undo::Edit`] whose `edit` and `undo`
//! are exact inverses (undo restores the document `==` to what it was, including the order
//! of node lists, children lists and maps).
//!
//! How a command stays exact: it records what it overwrites *when it is applied* (as
//! helix's `Revision` keeps an inversion, because "delete transactions don't store the
//! deleted text"), and undo puts exactly that back. Redo re-runs `edit` on the same state
//! the first `edit` saw (the history guarantees it), so recomputed captures are identical.
//!
//! Commands are built by constructors that take the document (to compute a label such as
//! `Connect "Sequence" ➡ "Wait"`, and to fill defaults), and are applied through
//! [`crate::Session::apply`], which first calls [`Command::check`] so that an invalid
//! command never reaches the history. `edit`/`undo` on a state where `check` fails do not
//! panic; they do what still applies.
//!
//! Merging (one undo step for a drag or for the keystrokes typed in one field) is keyed by a
//! *gesture* id that the UI bumps when a drag starts or a field gains focus: consecutive
//! commands of the same kind, on the same target, with the same gesture merge. The `undo`
//! crate never merges into a saved state, so saving always starts a new step.

mod add_linked;
mod add_node;
mod auto_layout;
mod blackboard;
mod connect;
mod decorators;
mod disconnect;
mod move_nodes;
mod notes;
mod paste;
mod remove_nodes;
mod resolve_conflict;
mod set_enabled;
mod set_param;
mod set_root;
mod set_text;
mod subtree;
mod variant;

pub use add_linked::{add_linked, Link};
pub use add_node::AddNode;
pub use auto_layout::{AutoLayout, SetLayout};
pub use blackboard::{AddKey, RemoveKey, RenameKey, RetypeKey, SetKeyDefault};
pub use connect::Connect;
pub use decorators::{AddDecorator, MoveDecorator, RemoveDecorator};
pub use disconnect::Disconnect;
pub use move_nodes::{Item, MoveItems};
pub use notes::{SetGroup, SetNote};
pub use paste::Paste;
pub use remove_nodes::RemoveItems;
pub use resolve_conflict::ResolveConflict;
pub use set_enabled::SetEnabled;
pub use set_param::SetParam;
pub use set_root::{SetManifests, SetRoot};
pub use set_text::{SetText, TextField};
pub use subtree::{inline_subtree, replace_with_subtree};
pub use variant::{ApplyToBase, RevertOverride};

use std::fmt;

use arbor_runtime::NodeTypes;
use undo::{Edit, Merged};

use crate::document::{Document, Pos};

/// Why a command was refused. The message is a sentence for the user.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CommandError {
    #[error("no node {0}")]
    UnknownNode(String),
    #[error("no node type `{0}`")]
    UnknownType(String),
    #[error("no blackboard key `{0}`")]
    UnknownKey(String),
    #[error("{0}")]
    Refused(String),
}

/// What every command provides besides [`Edit`].
pub(crate) trait DocEdit: Edit<Target = Document, Output = ()> {
    /// The undo label, e.g. `Connect "Sequence" → "Wait"`.
    fn label(&self) -> &str;
    /// Whether the command applies to `doc`.
    fn check(&self, doc: &Document, types: &NodeTypes) -> Result<(), CommandError>;
    /// Whether applying would change nothing (so no undo step is made).
    fn is_noop(&self, _doc: &Document) -> bool {
        false
    }
}

macro_rules! commands {
    ($($(#[$doc:meta])* $variant:ident($ty:ty),)*) => {
        /// Any command; the history's edit type ([`crate::History`] is
        /// `undo::Record<Command>`).
        #[derive(Clone, Debug)]
        pub enum Command {
            $($(#[$doc])* $variant($ty),)*
        }

        $(impl From<$ty> for Command {
            fn from(c: $ty) -> Command {
                Command::$variant(c)
            }
        })*

        impl Command {
            fn inner(&self) -> &dyn DocEdit {
                match self {
                    $(Command::$variant(c) => c,)*
                }
            }

            fn inner_mut(&mut self) -> &mut dyn DocEdit {
                match self {
                    $(Command::$variant(c) => c,)*
                }
            }
        }

        impl Edit for Command {
            type Target = Document;
            type Output = ();

            fn edit(&mut self, doc: &mut Document) {
                self.inner_mut().edit(doc)
            }

            fn undo(&mut self, doc: &mut Document) {
                self.inner_mut().undo(doc)
            }

            fn merge(&mut self, other: Command) -> Merged<Command> {
                match (self, other) {
                    $((Command::$variant(a), Command::$variant(b)) => match a.merge(b) {
                        Merged::Yes => Merged::Yes,
                        Merged::Annul => Merged::Annul,
                        Merged::No(b) => Merged::No(Command::$variant(b)),
                    },)*
                    #[allow(unreachable_patterns)]
                    (_, other) => Merged::No(other),
                }
            }
        }
    };
}

commands! {
    AddNode(AddNode),
    RemoveItems(RemoveItems),
    Connect(Connect),
    Disconnect(Disconnect),
    MoveItems(MoveItems),
    Paste(Paste),
    SetParam(SetParam),
    SetEnabled(SetEnabled),
    SetText(SetText),
    AddDecorator(AddDecorator),
    RemoveDecorator(RemoveDecorator),
    MoveDecorator(MoveDecorator),
    AddKey(AddKey),
    RenameKey(RenameKey),
    RemoveKey(RemoveKey),
    RetypeKey(RetypeKey),
    SetKeyDefault(SetKeyDefault),
    AutoLayout(AutoLayout),
    SetLayout(SetLayout),
    SetRoot(SetRoot),
    SetManifests(SetManifests),
    SetNote(SetNote),
    SetGroup(SetGroup),
    ResolveConflict(ResolveConflict),
    ApplyToBase(ApplyToBase),
    RevertOverride(RevertOverride),
    /// Several commands as one undo step (helix's composed transactions): cut, "wrap in
    /// a Sequence", subtree export.
    Batch(Batch),
}

impl Command {
    /// The undo label, e.g. `Connect "Sequence" → "Wait"`.
    pub fn label(&self) -> &str {
        self.inner().label()
    }

    /// Whether the command applies to `doc`; [`crate::Session::apply`] calls this first.
    /// A variant document takes only the commands that change values (document/variant.rs).
    pub fn check(&self, doc: &Document, types: &NodeTypes) -> Result<(), CommandError> {
        if doc.variant().is_some() && !self.edits_values() {
            return refused(format!(
                "{}: a variant changes values only; open its base to change the tree",
                self.label()
            ));
        }
        self.inner().check(doc, types)
    }

    /// Whether the command changes only values a variant can override (a batch is
    /// checked command by command).
    fn edits_values(&self) -> bool {
        matches!(
            self,
            Command::SetParam(_)
                | Command::SetKeyDefault(_)
                | Command::SetEnabled(_)
                | Command::ApplyToBase(_)
                | Command::RevertOverride(_)
                | Command::Batch(_)
        )
    }

    /// Whether applying would change nothing.
    pub fn is_noop(&self, doc: &Document) -> bool {
        self.inner().is_noop(doc)
    }

    /// Whether the command changes the tree's shape (adds, removes, connects or
    /// disconnects nodes): after such a command a file kept arranged is laid out again.
    pub fn is_structural(&self) -> bool {
        match self {
            Command::AddNode(_)
            | Command::RemoveItems(_)
            | Command::Connect(_)
            | Command::Disconnect(_)
            | Command::Paste(_) => true,
            Command::Batch(b) => b.commands.iter().any(Command::is_structural),
            _ => false,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Several commands applied in order and undone in reverse, as one step.
#[derive(Clone, Debug)]
pub struct Batch {
    label: String,
    commands: Vec<Command>,
}

impl Batch {
    pub fn new(label: impl Into<String>, commands: Vec<Command>) -> Batch {
        Batch {
            label: label.into(),
            commands,
        }
    }
}

impl Edit for Batch {
    type Target = Document;
    type Output = ();

    fn edit(&mut self, doc: &mut Document) {
        for c in &mut self.commands {
            c.edit(doc);
        }
    }

    fn undo(&mut self, doc: &mut Document) {
        for c in self.commands.iter_mut().rev() {
            c.undo(doc);
        }
    }
}

impl DocEdit for Batch {
    fn label(&self) -> &str {
        &self.label
    }

    /// Each command is checked against the state the previous ones leave.
    fn check(&self, doc: &Document, types: &NodeTypes) -> Result<(), CommandError> {
        let mut scratch = doc.clone();
        for c in &self.commands {
            c.check(&scratch, types)?;
            c.clone().edit(&mut scratch);
        }
        Ok(())
    }

    fn is_noop(&self, doc: &Document) -> bool {
        self.commands.iter().all(|c| c.is_noop(doc))
    }
}

/// Builds a [`Batch`] step by step: each command is checked and applied to a scratch copy
/// of the document, so the next one can be built against the state it will meet (e.g.
/// connecting a node that an earlier command adds).
pub struct BatchBuilder<'t> {
    scratch: Document,
    types: &'t NodeTypes,
    commands: Vec<Command>,
}

impl<'t> BatchBuilder<'t> {
    pub fn new(doc: &Document, types: &'t NodeTypes) -> BatchBuilder<'t> {
        BatchBuilder {
            scratch: doc.clone(),
            types,
            commands: Vec::new(),
        }
    }

    /// The document as the commands pushed so far leave it.
    pub fn doc(&self) -> &Document {
        &self.scratch
    }

    pub fn types(&self) -> &'t NodeTypes {
        self.types
    }

    /// Checks `cmd` against the current scratch state and applies it there.
    pub fn push(&mut self, cmd: impl Into<Command>) -> Result<(), CommandError> {
        let mut cmd = cmd.into();
        cmd.check(&self.scratch, self.types)?;
        cmd.edit(&mut self.scratch);
        self.commands.push(cmd);
        Ok(())
    }

    pub fn finish(self, label: impl Into<String>) -> Batch {
        Batch::new(label, self.commands)
    }
}

/// `"Wait"`: a node's label, quoted, for undo labels.
pub(crate) fn quoted(doc: &Document, guid: &str) -> String {
    format!("\"{}\"", doc.label(guid))
}

pub(crate) fn finite(p: Pos) -> Result<Pos, CommandError> {
    if p.iter().all(|v| v.is_finite()) {
        Ok(p)
    } else {
        Err(CommandError::Refused(
            "positions must be finite numbers".to_owned(),
        ))
    }
}

pub(crate) fn refused<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError::Refused(message.into()))
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the commands' round-trip tests.
    use super::*;

    /// Applies `cmd` (after checking it), then checks undo restores the state before and
    /// redo the state after, twice over. Returns the document after, and leaves `doc` as
    /// it was before (so a test can try several commands on one state).
    pub(crate) fn round_trip(doc: &mut Document, cmd: impl Into<Command>) -> Document {
        let types = NodeTypes::builtin();
        let mut cmd = cmd.into();
        cmd.check(doc, &types).expect("command applies");
        let before = doc.clone();
        cmd.edit(doc);
        let after = doc.clone();
        assert_ne!(before, after, "{} changed nothing", cmd.label());
        for _ in 0..2 {
            cmd.undo(doc);
            assert_eq!(*doc, before, "undo of {}", cmd.label());
            cmd.redo(doc);
            assert_eq!(*doc, after, "redo of {}", cmd.label());
        }
        cmd.undo(doc);
        after
    }
}

#[cfg(test)]
mod tests {
    use super::testing::round_trip;
    use super::*;
    use crate::document::sample;

    #[test]
    fn batch_applies_in_order_and_undoes_in_reverse() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, _, _, _, e]) = sample();
        let add = AddNode::new(&types, "Sequence", [0.0, 500.0]).unwrap();
        let new = add.guid().to_owned();
        let batch = Batch::new(
            "Wrap",
            vec![
                add.into(),
                Connect::new(&doc, &types, &a, &e).unwrap().into(),
            ],
        );
        let cmd = Command::from(batch);
        assert_eq!(cmd.label(), "Wrap");
        let after = round_trip(&mut doc, cmd);
        assert!(after.contains(&new));
        assert_eq!(after.parent_of(&e), Some(a.as_str()));
    }

    #[test]
    fn batch_checks_each_step_against_the_previous_ones() {
        let types = NodeTypes::builtin();
        let (doc, [a, _, _, _, e]) = sample();
        let connect = Command::from(Connect::new(&doc, &types, &a, &e).unwrap());
        let twice = Command::from(Batch::new("Twice", vec![connect.clone(), connect]));
        let err = twice.check(&doc, &types).unwrap_err();
        assert!(err.to_string().contains("already a child"), "{err}");
    }
}
