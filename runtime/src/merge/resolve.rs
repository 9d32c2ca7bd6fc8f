//! Resolving one merge conflict by picking a side: the part (or its field, or the order of
//! its list) takes the base's, our or their value recorded in the conflict, and the
//! conflict's entry goes. What the editor's conflict view does for each pick.

use serde_json::Value;

use super::flat::{Fields, Flat, ListKind, PartId, Scope};
use crate::format::TreeFile;

/// Which version of a conflicted part to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The common ancestor's.
    Base,
    /// Our side's (what the merged file holds already).
    Ours,
    /// Their side's.
    Theirs,
}

/// Why a conflict could not be resolved.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ResolveError {
    /// No conflict at that index.
    #[error("the file has no conflict number {0}")]
    NoConflict(usize),
    /// The entry names a scope this build does not know (a hand-edited file).
    #[error("conflict {index}: unknown scope `{scope}`")]
    UnknownScope {
        /// The conflict's index.
        index: usize,
        /// What it said.
        scope: String,
    },
    /// A list's order or a whole part recorded as something else than a list or object.
    #[error("conflict {0}: the recorded value does not fit the part")]
    BadValue(usize),
}

/// `file` with conflict `index` resolved to `side`'s value and its entry removed (the
/// other conflicts stay, in order). The result is in canonical form.
pub fn resolve(file: &TreeFile, index: usize, side: Side) -> Result<TreeFile, ResolveError> {
    let conflict = file
        .conflicts
        .get(index)
        .ok_or(ResolveError::NoConflict(index))?;
    let scope = match conflict.scope.as_str() {
        "tree" => Scope::Tree,
        "key" => Scope::Key,
        "node" => Scope::Node,
        "decorator" => Scope::Decorator,
        "note" => Scope::Note,
        "group" => Scope::Group,
        other => {
            return Err(ResolveError::UnknownScope {
                index,
                scope: other.to_owned(),
            })
        }
    };
    let value = match side {
        Side::Base => conflict.base.clone(),
        Side::Ours => conflict.ours.clone(),
        Side::Theirs => conflict.theirs.clone(),
    };
    let id = PartId::new(scope, conflict.id.clone());
    let mut flat = Flat::new(file);
    let field = conflict.field.as_str();
    if field.is_empty() {
        match value {
            None => {
                flat.parts.remove(&id);
            }
            Some(Value::Object(object)) => {
                let fields: Fields = object.into_iter().collect();
                flat.parts.insert(id, fields);
            }
            Some(_) => return Err(ResolveError::BadValue(index)),
        }
    } else if let Some(list) = list_of(&flat, &id, field) {
        let order = match value {
            Some(Value::Array(items)) => items
                .into_iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            None => Vec::new(),
            Some(_) => return Err(ResolveError::BadValue(index)),
        };
        flat.lists.insert(list, order);
    } else if let Some(fields) = flat.parts.get_mut(&id) {
        match value {
            Some(v) => fields.insert(field.to_owned(), v),
            None => fields.remove(field),
        };
    }
    let mut out = flat.to_file();
    out.conflicts = file.conflicts.clone();
    out.conflicts.remove(index);
    Ok(out)
}

/// The list a conflict's field names, when it names a list's order rather than a field
/// (`editor.notes` is a field of the tree when the notes were not in the documented shape).
fn list_of(flat: &Flat, id: &PartId, field: &str) -> Option<(PartId, ListKind)> {
    let kind = match (id.scope, field) {
        (Scope::Node, "children") => ListKind::Children,
        (Scope::Node, "decorators") => ListKind::Decorators,
        (Scope::Tree, "blackboard") => ListKind::Keys,
        (Scope::Tree, "editor.notes") => ListKind::Notes,
        (Scope::Tree, "editor.groups") => ListKind::Groups,
        _ => return None,
    };
    let is_field = flat
        .parts
        .get(id)
        .is_some_and(|fields| fields.contains_key(field));
    (!is_field).then(|| (id.clone(), kind))
}
