//! The semantic difference of two versions of one tree, part by part ([`Change`]): what
//! `arbor diff` prints and the editor's compare view shows.
//!
//! Parts are matched by identity (see [`super::flat`]), so a node renamed, moved or
//! reordered is that, not a node removed and another added. The order of `nodes` in the
//! file is layout and is not reported; positions on the canvas are (`node-repositioned`).
//! Linear in the size of the two files (plus a sort of the parts).

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::flat::{Fields, Flat, ListKind, PartId, Scope, PARAMS};
use crate::format::TreeFile;

/// What changed. The names (kebab-case in JSON) are a stable interface (docs/cli.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// The tree's name, description or root.
    TreeChanged,
    /// A node that only the new version has.
    NodeAdded,
    /// A node that only the old version has.
    NodeRemoved,
    /// A node's name.
    NodeRenamed,
    /// A node's type.
    NodeTypeChanged,
    /// A node switched on or off.
    NodeEnabledChanged,
    /// A node under another parent (or connected, or disconnected).
    NodeMoved,
    /// A node's children, the same ones, in another order.
    ChildrenReordered,
    /// A node's place on the canvas.
    NodeRepositioned,
    /// A parameter of a node or decorator: added, removed or changed (literal values).
    ParamChanged,
    /// A parameter bound to a blackboard key (`{"$key": …}`) on either side.
    BindingChanged,
    /// A decorator that only the new version has.
    DecoratorAdded,
    /// A decorator that only the old version has.
    DecoratorRemoved,
    /// A decorator's name or type, or the node it is attached to.
    DecoratorChanged,
    /// A node's decorators, the same ones, in another order.
    DecoratorsReordered,
    /// A blackboard key that only the new version declares.
    KeyAdded,
    /// A blackboard key that only the old version declares.
    KeyRemoved,
    /// A key's type, default or description.
    KeyChanged,
    /// The same keys in another order.
    KeysReordered,
    /// A note that only the new version has.
    NoteAdded,
    /// A note that only the old version has.
    NoteRemoved,
    /// A note's text, colour, place or size.
    NoteChanged,
    /// A group that only the new version has.
    GroupAdded,
    /// A group that only the old version has.
    GroupRemoved,
    /// A group's title, colour, frame, members or collapsed state.
    GroupChanged,
    /// Other data of the editor section (manifests, members a newer editor added).
    EditorChanged,
}

impl ChangeKind {
    /// The kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::TreeChanged => "tree-changed",
            ChangeKind::NodeAdded => "node-added",
            ChangeKind::NodeRemoved => "node-removed",
            ChangeKind::NodeRenamed => "node-renamed",
            ChangeKind::NodeTypeChanged => "node-type-changed",
            ChangeKind::NodeEnabledChanged => "node-enabled-changed",
            ChangeKind::NodeMoved => "node-moved",
            ChangeKind::ChildrenReordered => "children-reordered",
            ChangeKind::NodeRepositioned => "node-repositioned",
            ChangeKind::ParamChanged => "param-changed",
            ChangeKind::BindingChanged => "binding-changed",
            ChangeKind::DecoratorAdded => "decorator-added",
            ChangeKind::DecoratorRemoved => "decorator-removed",
            ChangeKind::DecoratorChanged => "decorator-changed",
            ChangeKind::DecoratorsReordered => "decorators-reordered",
            ChangeKind::KeyAdded => "key-added",
            ChangeKind::KeyRemoved => "key-removed",
            ChangeKind::KeyChanged => "key-changed",
            ChangeKind::KeysReordered => "keys-reordered",
            ChangeKind::NoteAdded => "note-added",
            ChangeKind::NoteRemoved => "note-removed",
            ChangeKind::NoteChanged => "note-changed",
            ChangeKind::GroupAdded => "group-added",
            ChangeKind::GroupRemoved => "group-removed",
            ChangeKind::GroupChanged => "group-changed",
            ChangeKind::EditorChanged => "editor-changed",
        }
    }
}

/// One difference between the old and the new version.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// What changed.
    pub kind: ChangeKind,
    /// The kind of part.
    pub scope: Scope,
    /// The part's GUID or key name (empty for the tree).
    pub id: String,
    /// The part for people: `"Patrol" (Sequence)`, a key's name, a note's text.
    pub label: String,
    /// The field (`name`, `params.seconds`, `parent`, `children`, …); empty when the
    /// part as a whole was added or removed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// The old value (absent: the field or part was not there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    /// The new value (absent: the field or part is not there any more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} {}",
            self.kind.as_str(),
            self.scope.as_str(),
            self.label
        )?;
        if !self.field.is_empty() {
            write!(f, " {}", self.field)?;
        }
        let shown = |v: &Option<Value>| v.as_ref().map_or("(none)".to_owned(), Value::to_string);
        match self.kind {
            ChangeKind::NodeAdded
            | ChangeKind::NodeRemoved
            | ChangeKind::DecoratorAdded
            | ChangeKind::DecoratorRemoved
            | ChangeKind::KeyAdded
            | ChangeKind::KeyRemoved
            | ChangeKind::NoteAdded
            | ChangeKind::NoteRemoved
            | ChangeKind::GroupAdded
            | ChangeKind::GroupRemoved => Ok(()),
            _ => write!(f, ": {} -> {}", shown(&self.old), shown(&self.new)),
        }
    }
}

/// Every difference from `old` to `new`, parts in (scope, id) order, each part's fields
/// in name order. Empty when the trees are the same (canonical layout aside).
pub fn diff(old: &TreeFile, new: &TreeFile) -> Vec<Change> {
    let (a, b) = (Flat::new(old), Flat::new(new));
    let mut out = Vec::new();
    let ids: std::collections::BTreeSet<&PartId> = a.parts.keys().chain(b.parts.keys()).collect();
    for id in ids {
        let (pa, pb) = (a.parts.get(id), b.parts.get(id));
        match (pa, pb) {
            (Some(fa), Some(fb)) => {
                let label = label(id, fb);
                fields(id, &label, fa, fb, &mut out);
                if id.scope == Scope::Node {
                    reorders(id, &label, ListKind::Children, &a, &b, &mut out);
                    reorders(id, &label, ListKind::Decorators, &a, &b, &mut out);
                }
                if id.scope == Scope::Tree {
                    reorders(id, "", ListKind::Keys, &a, &b, &mut out);
                }
            }
            (Some(fa), None) => out.push(whole(id, fa, false)),
            (None, Some(fb)) => out.push(whole(id, fb, true)),
            (None, None) => {}
        }
    }
    out
}

/// A part as a JSON object of its fields.
pub(crate) fn as_object(fields: &Fields) -> Value {
    Value::Object(fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

fn whole(id: &PartId, fields: &Fields, added: bool) -> Change {
    use ChangeKind::*;
    let kind = match (id.scope, added) {
        (Scope::Node, true) => NodeAdded,
        (Scope::Node, false) => NodeRemoved,
        (Scope::Decorator, true) => DecoratorAdded,
        (Scope::Decorator, false) => DecoratorRemoved,
        (Scope::Key, true) => KeyAdded,
        (Scope::Key, false) => KeyRemoved,
        (Scope::Note, true) => NoteAdded,
        (Scope::Note, false) => NoteRemoved,
        (Scope::Group, true) => GroupAdded,
        (Scope::Group, false) => GroupRemoved,
        (Scope::Tree, _) => TreeChanged,
    };
    let value = Some(as_object(fields));
    Change {
        kind,
        scope: id.scope,
        id: id.id.clone(),
        label: label(id, fields),
        field: String::new(),
        old: if added { None } else { value.clone() },
        new: if added { value } else { None },
    }
}

fn fields(id: &PartId, label: &str, a: &Fields, b: &Fields, out: &mut Vec<Change>) {
    let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for name in names {
        let (va, vb) = (a.get(name), b.get(name));
        if va == vb {
            continue;
        }
        out.push(Change {
            kind: field_kind(id.scope, name, va, vb),
            scope: id.scope,
            id: id.id.clone(),
            label: label.to_owned(),
            field: name.clone(),
            old: va.cloned(),
            new: vb.cloned(),
        });
    }
}

fn field_kind(scope: Scope, field: &str, a: Option<&Value>, b: Option<&Value>) -> ChangeKind {
    use ChangeKind::*;
    let bound = |v: Option<&Value>| v.is_some_and(|v| matches!(crate::binding(v), Ok(Some(_))));
    if field.starts_with(PARAMS) {
        return if bound(a) || bound(b) {
            BindingChanged
        } else {
            ParamChanged
        };
    }
    match (scope, field) {
        (Scope::Node, "name") => NodeRenamed,
        (Scope::Node, "type") => NodeTypeChanged,
        (Scope::Node, "enabled") => NodeEnabledChanged,
        (Scope::Node, "parent") => NodeMoved,
        (Scope::Node, "position") => NodeRepositioned,
        // A node has no fields besides those above and its parameters.
        (Scope::Node, _) | (Scope::Decorator, _) => DecoratorChanged,
        (Scope::Key, _) => KeyChanged,
        (Scope::Note, _) => NoteChanged,
        (Scope::Group, _) => GroupChanged,
        (Scope::Tree, f) if f.starts_with(super::flat::EDITOR) || f == "editor" => EditorChanged,
        (Scope::Tree, _) => TreeChanged,
    }
}

/// A reorder of a list both versions have: the elements in both, in another order
/// (elements added or removed are reported as such, not as a reorder).
fn reorders(
    owner: &PartId,
    label: &str,
    kind: ListKind,
    a: &Flat,
    b: &Flat,
    out: &mut Vec<Change>,
) {
    let key = (owner.clone(), kind);
    let (Some(la), Some(lb)) = (a.lists.get(&key), b.lists.get(&key)) else {
        return;
    };
    let (ca, cb) = (common(la, lb), common(lb, la));
    if ca == cb {
        return;
    }
    let (kind, field) = match kind {
        ListKind::Children => (ChangeKind::ChildrenReordered, "children"),
        ListKind::Decorators => (ChangeKind::DecoratorsReordered, "decorators"),
        _ => (ChangeKind::KeysReordered, "blackboard"),
    };
    let list = |l: &[String]| Some(Value::from(l.to_vec()));
    out.push(Change {
        kind,
        scope: owner.scope,
        id: owner.id.clone(),
        label: label.to_owned(),
        field: field.to_owned(),
        old: list(la),
        new: list(lb),
    });
}

/// The elements of `list` that `other` holds too, in `list`'s order.
pub(crate) fn common<'a>(list: &'a [String], other: &[String]) -> Vec<&'a String> {
    let other: HashSet<&String> = other.iter().collect();
    list.iter().filter(|g| other.contains(g)).collect()
}

/// A part for people.
fn label(id: &PartId, fields: &Fields) -> String {
    let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or_default();
    match id.scope {
        Scope::Node | Scope::Decorator => {
            format!("\"{}\" ({}) {}", text("name"), text("type"), id.id)
        }
        Scope::Key => format!("`{}`", id.id),
        Scope::Note => format!("{} \"{}\"", id.id, short(text("text"))),
        Scope::Group => format!("{} \"{}\"", id.id, short(text("title"))),
        Scope::Tree => format!("\"{}\"", text("name")),
    }
}

/// The first 40 characters of a text, for a label.
fn short(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The changes grouped by kind, for a summary line: kind name → count.
pub fn summary(changes: &[Change]) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for c in changes {
        *out.entry(c.kind.as_str()).or_insert(0) += 1;
    }
    out
}
