//! [`PlacedTree`]: a tree file's nodes where the viewer draws them: at the positions the
//! editor saved in the file, or, for a file without them (one written by code), where the
//! runtime's tidy layout puts them (`arbor_runtime::format::layout`). If any node lacks a
//! saved position the whole tree is laid out, so a half-placed file never piles nodes up.

use std::collections::HashMap;

use arbor_runtime::format::{layout, TreeFile};
use arbor_runtime::{Category, NodeTypes};
use egui::{Pos2, Rect};

use crate::boxes::{BoxNode, Boxes, DEFAULT_NODE_SIZE};

/// One placed node.
#[derive(Clone, Debug)]
struct PlacedNode {
    guid: String,
    label: String,
    category: Option<Category>,
    rect: Rect,
    children: Vec<u32>,
    parent: Option<u32>,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct PlacedTree {
    nodes: Vec<PlacedNode>,
    by_guid: HashMap<String, u32>,
    /// Where the nodes lie, in canvas units.
    bounds: Rect,
}

impl PlacedTree {
    /// Places `file`'s nodes; `types` give their categories (the colours).
    pub fn new(file: &TreeFile, types: &NodeTypes) -> PlacedTree {
        let saved = saved_positions(file);
        let tidy;
        let positions = if file
            .nodes
            .iter()
            .all(|n| saved.contains_key(n.guid.as_str()))
        {
            saved
        } else {
            tidy = layout::tidy(file);
            tidy.iter().map(|(g, p)| (g.as_str(), *p)).collect()
        };
        let mut tree = PlacedTree {
            nodes: Vec::with_capacity(file.nodes.len()),
            by_guid: HashMap::with_capacity(file.nodes.len()),
            bounds: Rect::NOTHING,
        };
        // The file index each placed node came from.
        let mut sources = Vec::new();
        for (at, node) in file.nodes.iter().enumerate() {
            // Unplaced nodes are not reachable from the root: not part of what runs.
            let Some(p) = positions.get(node.guid.as_str()) else {
                continue;
            };
            // A hand-edited file may repeat a GUID: the first one wins, as in the editor.
            if tree.by_guid.contains_key(&node.guid) {
                continue;
            }
            let label = if node.name.is_empty() {
                &node.kind
            } else {
                &node.name
            };
            let rect = Rect::from_min_size(
                Pos2::new(p[0] as f32, p[1] as f32),
                egui::vec2(DEFAULT_NODE_SIZE[0] as f32, DEFAULT_NODE_SIZE[1] as f32),
            );
            tree.bounds = tree.bounds.union(rect);
            tree.by_guid
                .insert(node.guid.clone(), tree.nodes.len() as u32);
            sources.push(at);
            tree.nodes.push(PlacedNode {
                guid: node.guid.clone(),
                label: label.clone(),
                category: types.node(&node.kind).map(|t| t.category),
                rect,
                children: Vec::new(),
                parent: None,
            });
        }
        for (at, node) in file.nodes.iter().enumerate() {
            let Some(&i) = tree.by_guid.get(&node.guid) else {
                continue;
            };
            if sources[i as usize] != at {
                continue; // a repeated GUID: the first one's children stand
            }
            let children: Vec<u32> = node
                .children
                .iter()
                .filter_map(|c| tree.by_guid.get(c).copied())
                .filter(|&c| c != i)
                .collect();
            for &c in &children {
                tree.nodes[c as usize].parent.get_or_insert(i);
            }
            tree.nodes[i as usize].children = children;
        }
        tree
    }

    /// How many nodes are placed.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node is placed (a file without a root, or an empty one).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The index of the node with `guid`.
    pub fn index(&self, guid: &str) -> Option<u32> {
        self.by_guid.get(guid).copied()
    }

    /// Where the nodes lie, in canvas units (`Rect::NOTHING` when there are none).
    pub fn bounds(&self) -> Rect {
        self.bounds
    }
}

impl Boxes for PlacedTree {
    fn node(&self, i: u32) -> BoxNode<'_> {
        let n = &self.nodes[i as usize];
        BoxNode {
            guid: &n.guid,
            label: &n.label,
            category: n.category,
            rect: n.rect,
            children: &n.children,
            parent: n.parent,
            hidden: false,
        }
    }
}

/// The positions the editor saved in the file (`editor.positions`: `{guid: [x, y]}`);
/// malformed or non-finite entries are left out (the tree is then laid out).
fn saved_positions(file: &TreeFile) -> HashMap<&str, [f64; 2]> {
    let Some(positions) = file
        .editor
        .as_ref()
        .and_then(|e| e.get("positions"))
        .and_then(|p| p.as_object())
    else {
        return HashMap::new();
    };
    positions
        .iter()
        .filter_map(|(guid, p)| {
            let xy = p.as_array()?;
            let (x, y) = (xy.first()?.as_f64()?, xy.get(1)?.as_f64()?);
            (x.is_finite() && y.is_finite()).then_some((guid.as_str(), [x, y]))
        })
        .collect()
}
