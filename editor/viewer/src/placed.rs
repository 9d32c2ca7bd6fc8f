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
        let all_saved = file
            .nodes
            .iter()
            .all(|n| saved.contains_key(n.guid.as_str()));
        let tidy;
        let size = DEFAULT_NODE_SIZE;
        let positions = if all_saved {
            saved
        } else {
            tidy = layout::tidy(file, layout::LayoutDirection::LeftToRight);
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
                egui::vec2(size[0] as f32, size[1] as f32),
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

#[cfg(test)]
mod tests {
    use arbor_runtime::builder::{action, seq, TreeBuilder};
    use arbor_runtime::format::layout::{Spacing, DEFAULT_CARD};
    use arbor_runtime::Registry;

    use super::*;

    fn file() -> TreeFile {
        TreeBuilder::new("t")
            .root(seq([action("Wait").name("a"), action("Wait").name("b")]).name("s"))
            .to_file()
    }

    fn rect_of(tree: &PlacedTree, label: &str) -> Rect {
        (0..tree.len() as u32)
            .map(|i| tree.node(i))
            .find(|n| n.label == label)
            .map(|n| n.rect)
            .expect("placed")
    }

    #[test]
    fn a_file_without_positions_is_laid_out_left_to_right() {
        let types = Registry::<()>::new();
        let tree = PlacedTree::new(&file(), types.types());
        assert_eq!(tree.len(), 3);
        let (s, a, b) = (
            rect_of(&tree, "s"),
            rect_of(&tree, "a"),
            rect_of(&tree, "b"),
        );
        let column = (DEFAULT_CARD[0] + Spacing::default().level_gap) as f32;
        let row = (DEFAULT_CARD[1] + Spacing::default().sibling_gap) as f32;
        assert_eq!(a.min, Pos2::new(column, 0.0));
        assert_eq!(b.min, Pos2::new(column, row));
        assert!(s.min.x < a.min.x && !a.intersects(b), "{s:?} {a:?} {b:?}");
        let root = tree.index(&file().root.expect("a root")).expect("placed");
        assert_eq!(tree.node(root).children.len(), 2);
    }

    #[test]
    fn saved_positions_are_used_when_every_node_has_one() {
        let mut file = file();
        let positions: serde_json::Map<String, serde_json::Value> = file
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.guid.clone(), serde_json::json!([i as f64 * 1000.0, 5.0])))
            .collect();
        file.editor = Some(serde_json::json!({ "positions": positions.clone() }));
        let tree = PlacedTree::new(&file, Registry::<()>::new().types());
        assert_eq!(rect_of(&tree, "s").min, Pos2::new(0.0, 5.0));
        assert_eq!(rect_of(&tree, "s").size(), egui::vec2(200.0, 90.0));

        // One node without a valid position: the whole tree is laid out instead.
        let mut broken = positions;
        if let Some(first) = broken.values_mut().next() {
            *first = serde_json::json!(["x", 1]);
        }
        file.editor = Some(serde_json::json!({ "positions": broken }));
        let tree = PlacedTree::new(&file, Registry::<()>::new().types());
        let column = (DEFAULT_CARD[0] + Spacing::default().level_gap) as f32;
        assert_eq!(rect_of(&tree, "a").min, Pos2::new(column, 0.0));
    }
}
