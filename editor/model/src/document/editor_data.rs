//! EditorData: the typed form of a tree file's `editor` object, which the runtime keeps
//! opaque: manifest paths, node positions, sticky notes, groups and how the tree is laid out.
//!
//! The JSON shape is fixed (docs/format.md):
//! `{"manifests": [path…], "positions": {"<guid>": [x, y]}, "notes": [Note…],
//! "groups": [Group…], "layout": {"direction": "left_to_right" | "top_down",
//! "keep_arranged": bool}}`. Empty parts are omitted when writing, and the whole object is
//! omitted when every part is empty, so a file with no layout stays minimal.
//! Coordinates are canvas units, y down; a node's position is its top-left corner.
//! Fields a newer editor writes and this one does not know are kept in `extra` and written
//! back unchanged, so opening and saving a file never loses them.

use arbor_runtime::format::layout::LayoutDirection;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;

use super::json_path::{deserialize_at, ShapeError};

/// A point on the canvas: `[x, y]`, y down.
pub type Pos = [f64; 2];

/// Everything the editor stores in a tree file besides the tree itself.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditorData {
    /// Node-types manifest files, relative to the tree file's folder.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub manifests: Vec<String>,
    /// Top-left corner of each node, by node GUID. Sorted, so files diff cleanly.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub positions: BTreeMap<String, Pos>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    /// How auto layout arranges the tree; omitted while it is the default.
    #[serde(skip_serializing_if = "LayoutSettings::is_default")]
    pub layout: LayoutSettings,
    /// Unknown fields, kept verbatim.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// How auto layout arranges one file's tree. A file without it is laid out left to right,
/// as every tree was before the direction could be chosen, and is not kept arranged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayoutSettings {
    pub direction: LayoutDirection,
    /// Re-run the layout after every structural edit (add, connect, disconnect, remove,
    /// reorder), in the same undo step.
    pub keep_arranged: bool,
}

impl LayoutSettings {
    pub fn is_default(&self) -> bool {
        *self == LayoutSettings::default()
    }
}

/// A sticky note on the canvas.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Note {
    pub guid: String,
    pub text: String,
    /// Top-left corner.
    pub pos: Pos,
    /// Width and height.
    pub size: [f64; 2],
    pub color: Color,
}

impl Default for Note {
    fn default() -> Self {
        Note {
            guid: String::new(),
            text: String::new(),
            pos: [0.0, 0.0],
            size: [200.0, 120.0],
            color: Color::Yellow,
        }
    }
}

/// A titled frame around some nodes. Membership is explicit (`members`), not geometric, so
/// moving a node out of the frame does not silently change it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Group {
    pub guid: String,
    pub title: String,
    pub color: Color,
    /// `[x, y, w, h]`.
    pub rect: [f64; 4],
    /// GUIDs of the member nodes.
    pub members: Vec<String>,
    /// Drawn as a single box hiding its members.
    pub collapsed: bool,
}

impl Default for Group {
    fn default() -> Self {
        Group {
            guid: String::new(),
            title: String::new(),
            color: Color::Blue,
            rect: [0.0, 0.0, 300.0, 200.0],
            members: Vec::new(),
            collapsed: false,
        }
    }
}

/// The named colors of notes and groups; the UI maps them to its palette.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Color {
    #[default]
    Yellow,
    Blue,
    Green,
    Red,
    Purple,
    Gray,
}

impl Color {
    pub const ALL: [Color; 6] = [
        Color::Yellow,
        Color::Blue,
        Color::Green,
        Color::Red,
        Color::Purple,
        Color::Gray,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Color::Yellow => "yellow",
            Color::Blue => "blue",
            Color::Green => "green",
            Color::Red => "red",
            Color::Purple => "purple",
            Color::Gray => "gray",
        }
    }

    pub fn from_name(name: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl Serialize for Color {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Color {
    /// An unknown name (from a newer editor) reads as the default color rather than making
    /// the whole file unreadable: a note's color is not worth refusing a tree over.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(Color::from_name(&name).unwrap_or_default())
    }
}

impl EditorData {
    pub fn is_empty(&self) -> bool {
        self.manifests.is_empty()
            && self.positions.is_empty()
            && self.notes.is_empty()
            && self.groups.is_empty()
            && self.layout.is_default()
            && self.extra.is_empty()
    }

    /// The JSON for `TreeFile::editor`: `None` when there is nothing to store.
    pub fn to_value(&self) -> Option<Value> {
        if self.is_empty() {
            return None;
        }
        Some(serde_json::to_value(self).expect("editor data serialises: string keys only"))
    }

    /// Reads `TreeFile::editor`. The error names the JSON path from the file's root
    /// (e.g. `$.editor.positions.<guid>`, as the runtime's are) and what was expected.
    pub fn from_value(value: Option<&Value>) -> Result<EditorData, ShapeError> {
        let Some(value) = value else {
            return Ok(EditorData::default());
        };
        deserialize_at("$.editor", value)
    }

    pub fn note(&self, guid: &str) -> Option<&Note> {
        self.notes.iter().find(|n| n.guid == guid)
    }

    pub fn group(&self, guid: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.guid == guid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_data_is_omitted() {
        assert_eq!(EditorData::default().to_value(), None);
        let mut data = EditorData::default();
        data.positions.insert("a".into(), [1.0, 2.5]);
        assert_eq!(
            data.to_value(),
            Some(json!({"positions": {"a": [1.0, 2.5]}}))
        );
    }

    #[test]
    fn layout_settings_round_trip_and_default_to_left_to_right() {
        let data = EditorData::from_value(Some(&json!({"positions": {}}))).expect("reads");
        assert_eq!(data.layout.direction, LayoutDirection::LeftToRight);
        assert!(!data.layout.keep_arranged);
        let data = EditorData {
            layout: LayoutSettings {
                direction: LayoutDirection::TopDown,
                keep_arranged: true,
            },
            ..EditorData::default()
        };
        let value = data.to_value();
        assert_eq!(
            value,
            Some(json!({"layout": {"direction": "top_down", "keep_arranged": true}}))
        );
        assert_eq!(EditorData::from_value(value.as_ref()), Ok(data));
    }

    #[test]
    fn reads_the_fixed_format_and_keeps_unknown_fields() {
        let value = json!({
            "manifests": ["types.json"],
            "positions": {"g1": [10.0, 20.0]},
            "notes": [{"guid": "n", "text": "hi", "pos": [1, 2], "size": [3, 4], "color": "green"}],
            "groups": [{"guid": "g", "title": "T", "color": "red", "rect": [0, 0, 5, 5],
                        "members": ["g1"], "collapsed": true}],
            "zoom": 2
        });
        let data = EditorData::from_value(Some(&value)).unwrap();
        assert_eq!(data.manifests, ["types.json"]);
        assert_eq!(data.notes[0].color, Color::Green);
        assert_eq!(data.groups[0].members, ["g1"]);
        assert!(data.groups[0].collapsed);
        assert_eq!(data.extra["zoom"], json!(2));
        assert_eq!(data.to_value().unwrap()["zoom"], json!(2));
    }

    #[test]
    fn missing_fields_take_defaults_and_unknown_colors_read_as_default() {
        let value = json!({"notes": [{"guid": "n", "color": "octarine"}]});
        let data = EditorData::from_value(Some(&value)).unwrap();
        assert_eq!(data.notes[0].color, Color::Yellow);
        assert_eq!(data.notes[0].size, Note::default().size);
    }

    #[test]
    fn a_bad_shape_names_its_path() {
        let value = json!({"positions": {"g1": "left"}});
        let ShapeError { path, message } = EditorData::from_value(Some(&value)).unwrap_err();
        assert_eq!(path, "$.editor.positions.g1");
        assert!(message.contains("expected"), "{message}");
    }
}
