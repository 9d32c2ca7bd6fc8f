//! A merge conflict recorded in a tree file: what `arbor merge` could not decide, with the
//! three versions of the part concerned, so that the editor can list it and resolve it by
//! picking a side. A file with conflicts does not load (the loader reports each one as a
//! located error); an older build refuses it too, as an unknown field.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One part of the tree that the two sides of a merge changed in different ways. The file
/// holds "ours" for that part; `base`, `ours` and `theirs` say what each version held
/// (absent: the part was not there, or was deleted).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conflict {
    /// What kind of part: `tree`, `key`, `node`, `decorator`, `note` or `group`.
    pub scope: String,
    /// Its identity: a GUID, a key's name, or empty for the tree and the editor section.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// The field of the part (`name`, `params.speed`, `parent`, `children`, …); empty
    /// when the part as a whole is concerned (deleted on one side, edited on the other).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What happened, for people.
    pub message: String,
    /// The common ancestor's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Value>,
    /// Our side's value (the one the file holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    /// Their side's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<Value>,
}
