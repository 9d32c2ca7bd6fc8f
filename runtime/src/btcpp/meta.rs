//! The `btcpp` member of a tree file's `editor` section: what the import learnt that Arbor
//! nodes cannot hold, so that an export writes it back.
//!
//! ```json
//! "editor": {"btcpp": {
//!   "id": "DoorClosed",
//!   "origins": {"<node guid>": "Precondition"},
//!   "attributes": {"<node guid>": {"_onSuccess": "door_open := true"}},
//!   "decorators": {"<decorator guid>": "_skipIf"},
//!   "models": {"OpenDoor": {"kind": "Action", "ports": []}}
//! }}
//! ```
//! The runtime never reads it (the `editor` object is opaque to the loader) and the editor
//! keeps members it does not know, so it survives editing. Entries whose node was deleted
//! are simply not used. A hand-made Arbor tree has no such member; export then uses the
//! canonical BT.CPP form of each node.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::NodeModel;
use crate::format::TreeFile;

/// The key of the member in `editor`.
pub(crate) const KEY: &str = "btcpp";

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Meta {
    /// The `<BehaviorTree ID>` the file was imported from.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Node GUID -> the BT.CPP node ID it was imported from, where that is not the
    /// canonical export of its Arbor type (Precondition, Script,
    /// ScriptCondition).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub origins: BTreeMap<String, String>,
    /// Node GUID -> attributes with no Arbor equivalent (post-condition scripts,
    /// `_successIf`, a Parallel's `failure_count`, …), written back on export.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, BTreeMap<String, String>>,
    /// Attached decorator GUID -> the attribute it was imported from; [`DERIVED_SKIP`]
    /// for a SkipIf the import derived from the node's children (rule 72), which export
    /// leaves out.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub decorators: BTreeMap<String, String>,
    /// Attributes of the `<BehaviorTree>` element other than `ID` (`_description`, …),
    /// written back on export.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub tree_attributes: BTreeMap<String, String>,
    /// Host node type -> its BT.CPP model (element and ports).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<String, NodeModel>,
}

/// The `decorators` value of a SkipIf that stands for "every child was skipped" (rule
/// 72): it has no attribute of its own in BT.CPP.
pub(crate) const DERIVED_SKIP: &str = "(every child skipped)";

impl Meta {
    /// The member of `file`, or an empty one (also when it does not parse: it is only a
    /// hint for a faithful export, never required).
    pub(crate) fn read(file: &TreeFile) -> Meta {
        file.editor
            .as_ref()
            .and_then(|e| e.get(KEY))
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    pub(crate) fn to_json(&self) -> serde_json::Value {
        // Plain maps of strings: serialising cannot fail.
        serde_json::to_value(self).expect("btcpp metadata serialises")
    }
}
