//! Fragment: a copied selection (nodes with the connections *inside* it, their positions,
//! notes, groups and the declarations of the blackboard keys they use) as JSON text, so
//! that paste works across windows and files.
//!
//! Invariants of a fragment (checked by [`Fragment::from_json`], which is the only way in
//! from untrusted text): GUIDs unique, every child listed is in the fragment, at most one
//! parent per node, no cycles. Positions are relative to the fragment's top-left corner,
//! so pasting places it anywhere. Connections to nodes outside the selection are dropped
//! on copy: a pasted fragment is never attached to anything.
//!
//! Text format: `{"format": "arbor-fragment", "version": 1, "keys": […], "nodes": […],
//! "positions": {…}, "notes": […], "groups": […]}`. The text of a whole tree file
//! (`"format": "arbor-tree"`) is accepted too and pastes every node of it.

use std::collections::{BTreeMap, HashMap, HashSet};

use arbor_runtime::format::{KeyDecl, NodeDef, FORMAT_NAME};
use arbor_runtime::{LoadError, NodeTypes};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::editor_data::{Group, Note, Pos};
use super::json_path::{deserialize_at, ShapeError};
use super::model::Document;
use super::selection::Selection;

/// The value of a fragment's `format` field.
pub const FRAGMENT_FORMAT: &str = "arbor-fragment";
/// The fragment format version this build writes and reads.
pub const FRAGMENT_VERSION: u64 = 1;
/// Longest clipboard text read, as the runtime's default limit on tree files.
pub const MAX_CLIPBOARD_BYTES: usize = 16 * 1024 * 1024;

/// Why clipboard text cannot be pasted.
#[derive(Debug, thiserror::Error)]
pub enum ClipboardError {
    #[error("the clipboard does not hold Arbor nodes")]
    NotArbor,
    #[error("the clipboard text is {0} bytes; Arbor pastes at most {MAX_CLIPBOARD_BYTES}")]
    TooLarge(usize),
    #[error(
        "the clipboard holds Arbor nodes of a newer version ({0}); update Arbor to paste them"
    )]
    NewerVersion(u64),
    #[error("the clipboard's Arbor nodes are malformed at {0}")]
    Shape(ShapeError),
    #[error("the clipboard's Arbor nodes are inconsistent: {0}")]
    Inconsistent(String),
    #[error("the clipboard holds a tree file that does not parse: {0}")]
    Tree(#[from] LoadError),
}

/// A copied selection. See the module documentation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Fragment {
    pub format: String,
    pub version: u64,
    /// Declarations of the blackboard keys the nodes use, for pasting into another tree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyDecl>,
    /// Nodes in depth-first order; `children` only name nodes of the fragment.
    pub nodes: Vec<NodeDef>,
    /// Node positions relative to the fragment's top-left corner.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub positions: BTreeMap<String, Pos>,
    /// Notes, positions relative to the top-left corner.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// Groups, rectangles relative to the top-left corner; members inside the fragment.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
}

impl Default for Fragment {
    fn default() -> Self {
        Fragment {
            format: FRAGMENT_FORMAT.to_owned(),
            version: FRAGMENT_VERSION,
            keys: Vec::new(),
            nodes: Vec::new(),
            positions: BTreeMap::new(),
            notes: Vec::new(),
            groups: Vec::new(),
        }
    }
}

impl Fragment {
    /// Copies the selected items of `doc`. `types` tells which parameters name blackboard
    /// keys, so the fragment can carry their declarations.
    pub fn copy(doc: &Document, selection: &Selection, types: &NodeTypes) -> Fragment {
        let keys = doc
            .blackboard()
            .iter()
            .filter(|k| {
                doc.key_usages(types, &k.key)
                    .iter()
                    .any(|u| selection.nodes.contains(u.owner.node()))
            })
            .cloned()
            .collect();
        Fragment::copy_with_keys(doc, selection, keys)
    }

    fn copy_with_keys(doc: &Document, selection: &Selection, keys: Vec<KeyDecl>) -> Fragment {
        let selected = |g: &str| selection.nodes.contains(g);
        // Canonical order, so that the text is stable and reads top-down.
        let mut nodes: Vec<NodeDef> = doc
            .to_tree_file()
            .nodes
            .into_iter()
            .filter(|n| selected(&n.guid))
            .collect();
        for node in &mut nodes {
            node.children.retain(|c| selected(c));
        }
        let notes: Vec<&Note> = doc
            .notes()
            .iter()
            .filter(|n| selection.notes.contains(&n.guid))
            .collect();
        let groups: Vec<&Group> = doc
            .groups()
            .iter()
            .filter(|g| selection.groups.contains(&g.guid))
            .collect();

        let origin = selection_origin(doc, selection);
        let rel = |p: Pos| [p[0] - origin[0], p[1] - origin[1]];

        Fragment {
            positions: nodes
                .iter()
                .filter_map(|n| Some((n.guid.clone(), rel(doc.position(&n.guid)?))))
                .collect(),
            notes: notes
                .into_iter()
                .map(|n| Note {
                    pos: rel(n.pos),
                    ..n.clone()
                })
                .collect(),
            groups: groups
                .into_iter()
                .map(|g| {
                    let [x, y] = rel([g.rect[0], g.rect[1]]);
                    Group {
                        rect: [x, y, g.rect[2], g.rect[3]],
                        members: g.members.iter().filter(|m| selected(m)).cloned().collect(),
                        ..g.clone()
                    }
                })
                .collect(),
            nodes,
            keys,
            ..Fragment::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.notes.is_empty() && self.groups.is_empty()
    }

    /// Nodes with no parent inside the fragment, in order.
    pub fn tops(&self) -> Vec<&str> {
        let children: HashSet<&str> = self
            .nodes
            .iter()
            .flat_map(|n| n.children.iter().map(String::as_str))
            .collect();
        self.nodes
            .iter()
            .map(|n| n.guid.as_str())
            .filter(|g| !children.contains(g))
            .collect()
    }

    /// The clipboard text: pretty JSON.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("fragments serialise");
        text.push('\n');
        text
    }

    /// Reads clipboard text: a fragment, or the text of a whole tree file. Never panics;
    /// anything else is an error the UI can show (or ignore, for foreign clipboard text).
    pub fn from_json(text: &str) -> Result<Fragment, ClipboardError> {
        if text.len() > MAX_CLIPBOARD_BYTES {
            return Err(ClipboardError::TooLarge(text.len()));
        }
        let value: Value = serde_json::from_str(text).map_err(|_| ClipboardError::NotArbor)?;
        let format = value.get("format").and_then(Value::as_str);
        let fragment = match format {
            Some(FRAGMENT_FORMAT) => {
                let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
                if version > FRAGMENT_VERSION {
                    return Err(ClipboardError::NewerVersion(version));
                }
                deserialize_at::<Fragment, _>("$", value).map_err(ClipboardError::Shape)?
            }
            Some(FORMAT_NAME) => {
                let file = arbor_runtime::parse_str(text, None)?;
                let keys = file.blackboard.clone();
                let doc = Document::from_tree_file(file, None)?;
                Fragment::copy_with_keys(&doc, &Selection::all(&doc), keys)
            }
            _ => return Err(ClipboardError::NotArbor),
        };
        fragment.check()?;
        Ok(fragment)
    }

    /// The invariants listed in the module documentation.
    fn check(&self) -> Result<(), ClipboardError> {
        let bad = |m: String| Err(ClipboardError::Inconsistent(m));
        let mut seen = HashSet::new();
        let guids = self
            .nodes
            .iter()
            .flat_map(|n| std::iter::once(&n.guid).chain(n.decorators.iter().map(|d| &d.guid)))
            .chain(self.notes.iter().map(|n| &n.guid))
            .chain(self.groups.iter().map(|g| &g.guid));
        for guid in guids {
            if !seen.insert(guid.as_str()) {
                return bad(format!("GUID {guid} is used twice"));
            }
        }
        let index: HashMap<&str, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.guid.as_str(), i))
            .collect();
        let mut parent: Vec<Option<usize>> = vec![None; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            for child in &node.children {
                let Some(&c) = index.get(child.as_str()) else {
                    return bad(format!("child {child} of node {} is not in it", node.guid));
                };
                if parent[c].replace(i).is_some() {
                    return bad(format!("node {child} has two parents"));
                }
            }
        }
        // With one parent each, a cycle is a loop of parent links; a walk longer than the
        // node count must be in one.
        for start in 0..self.nodes.len() {
            let mut at = parent[start];
            let mut steps = 0;
            while let Some(p) = at {
                steps += 1;
                if p == start || steps > self.nodes.len() {
                    return bad(format!(
                        "node {} is its own ancestor",
                        self.nodes[start].guid
                    ));
                }
                at = parent[p];
            }
        }
        Ok(())
    }
}

/// The top-left corner of the selected items (node positions, notes, group frames):
/// fragment positions are relative to it. `(0, 0)` if nothing selected has a place.
pub(crate) fn selection_origin(doc: &Document, selection: &Selection) -> Pos {
    let nodes = selection.nodes.iter().filter_map(|g| doc.position(g));
    let notes = selection
        .notes
        .iter()
        .filter_map(|g| doc.note(g))
        .map(|n| n.pos);
    let groups = selection
        .groups
        .iter()
        .filter_map(|g| doc.group(g))
        .map(|g| [g.rect[0], g.rect[1]]);
    nodes
        .chain(notes)
        .chain(groups)
        .reduce(|a, b| [a[0].min(b[0]), a[1].min(b[1])])
        .unwrap_or([0.0, 0.0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::model::fixtures::sample;
    use serde_json::json;

    #[test]
    fn copy_keeps_inner_connections_and_relative_positions() {
        let (doc, [a, b, c, d, _e]) = sample();
        let types = NodeTypes::builtin();
        // a -> [b, c]; c -> d. Copy a, b, d: a keeps b, loses c; d is a top.
        let frag = Fragment::copy(&doc, &Selection::of_nodes([&a, &b, &d]), &types);
        let order: Vec<&str> = frag.nodes.iter().map(|n| n.guid.as_str()).collect();
        assert_eq!(order, [&a, &b, &d]);
        assert_eq!(frag.nodes[0].children, std::slice::from_ref(&b));
        assert_eq!(frag.tops(), [&a, &d]);
        assert_eq!(frag.positions[&a], [0.0, 0.0]);
        assert_eq!(frag.positions[&d], [300.0, 150.0]);
        assert!(!frag.positions.contains_key(&c));
    }

    #[test]
    fn text_round_trips() {
        let (doc, [a, b, ..]) = sample();
        let frag = Fragment::copy(&doc, &Selection::of_nodes([&a, &b]), &NodeTypes::builtin());
        let back = Fragment::from_json(&frag.to_json()).unwrap();
        assert_eq!(back, frag);
    }

    #[test]
    fn copy_carries_the_keys_it_uses() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut cond = NodeDef::new("Condition");
        cond.params.insert("key".into(), json!("hp"));
        let guid = cond.guid.clone();
        doc.file.nodes.push(cond);
        for key in ["hp", "unused"] {
            doc.file.blackboard.push(KeyDecl {
                key: key.into(),
                ty: arbor_runtime::ValueType::Int,
                default: None,
                description: String::new(),
                unknown: Default::default(),
            });
        }
        let frag = Fragment::copy(&doc, &Selection::of_nodes([guid]), &types);
        assert_eq!(frag.keys.len(), 1);
        assert_eq!(frag.keys[0].key, "hp");
    }

    #[test]
    fn foreign_and_broken_text_is_refused() {
        assert!(matches!(
            Fragment::from_json("hello"),
            Err(ClipboardError::NotArbor)
        ));
        assert!(matches!(
            Fragment::from_json("{\"a\":1}"),
            Err(ClipboardError::NotArbor)
        ));
        let newer = json!({"format": "arbor-fragment", "version": 9}).to_string();
        assert!(matches!(
            Fragment::from_json(&newer),
            Err(ClipboardError::NewerVersion(9))
        ));
        let shape = json!({"format": "arbor-fragment", "version": 1, "nodes": [{"guid": 3}]});
        let err = Fragment::from_json(&shape.to_string()).unwrap_err();
        assert!(
            matches!(&err, ClipboardError::Shape(e) if e.path.starts_with("$.nodes[0]")),
            "{err}"
        );
    }

    #[test]
    fn inconsistent_fragments_are_refused() {
        let node = |g: &str, children: &[&str]| json!({"guid": g, "type": "Sequence", "children": children});
        let cases = [
            (vec![node("a", &[]), node("a", &[])], "used twice"),
            (vec![node("a", &["zz"])], "not in it"),
            (
                vec![node("a", &["c"]), node("b", &["c"]), node("c", &[])],
                "two parents",
            ),
            (vec![node("a", &["b"]), node("b", &["a"])], "own ancestor"),
        ];
        for (nodes, expect) in cases {
            let text = json!({"format": "arbor-fragment", "version": 1, "nodes": nodes});
            let err = Fragment::from_json(&text.to_string())
                .unwrap_err()
                .to_string();
            assert!(err.contains(expect), "{err} should contain {expect}");
        }
    }

    #[test]
    fn a_tree_file_pastes_as_a_fragment() {
        let (doc, _) = sample();
        let frag = Fragment::from_json(&doc.to_json()).unwrap();
        assert_eq!(frag.nodes.len(), 5);
        assert_eq!(frag.tops().len(), 2);
    }
}
