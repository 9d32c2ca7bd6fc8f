//! Tidy tree layout for imported trees, whose XML carries no positions.
//!
//! Left to right, as the editor draws trees: a node at depth d sits at x = d * 260; leaves
//! take rows 90 apart in execution order (pre-order), and a parent is centred between its
//! first and last child. Children are therefore ordered top to bottom by y, which is the
//! execution order the editor reads back. Deterministic, and private to the import: the
//! editor has its own layout command for trees that are edited later.

use std::collections::{BTreeMap, HashMap};

use crate::format::TreeFile;

/// Horizontal distance between depths.
pub(crate) const COLUMN: f64 = 260.0;
/// Vertical distance between leaves.
pub(crate) const ROW: f64 = 90.0;

/// `[x, y]` of every node reachable from the root, by GUID.
pub(crate) fn tidy(file: &TreeFile) -> BTreeMap<String, [f64; 2]> {
    let index: HashMap<&str, usize> = file
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.guid.as_str(), i))
        .collect();
    let mut out = BTreeMap::new();
    let Some(root) = file.root.as_deref().and_then(|r| index.get(r)) else {
        return out;
    };
    let mut next_row = 0.0;
    place(file, &index, *root, 0, &mut next_row, &mut out);
    out
}

/// Places node `i` and its subtree; returns its y. Imported trees are at most
/// `xml::MAX_DEPTH` deep, so the recursion is bounded. A GUID seen twice (not possible in
/// an import) is placed once.
fn place(
    file: &TreeFile,
    index: &HashMap<&str, usize>,
    i: usize,
    depth: usize,
    next_row: &mut f64,
    out: &mut BTreeMap<String, [f64; 2]>,
) -> f64 {
    let node = &file.nodes[i];
    if let Some(pos) = out.get(&node.guid) {
        return pos[1];
    }
    // Reserve the entry first, so that a cycle in a hand-made file ends here.
    out.insert(node.guid.clone(), [depth as f64 * COLUMN, 0.0]);
    let ys: Vec<f64> = node
        .children
        .iter()
        .filter_map(|c| index.get(c.as_str()))
        .map(|&c| place(file, index, c, depth + 1, next_row, out))
        .collect();
    let y = match (ys.first(), ys.last()) {
        (Some(first), Some(last)) => (first + last) / 2.0,
        _ => {
            let y = *next_row;
            *next_row += ROW;
            y
        }
    };
    out.insert(node.guid.clone(), [depth as f64 * COLUMN, y]);
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::NodeDef;

    #[test]
    fn parents_are_centred_on_their_children_left_to_right() {
        let mut file = TreeFile::new("t");
        let mut root = NodeDef::new("Sequence");
        let mut mid = NodeDef::new("Selector");
        let (a, b, c) = (
            NodeDef::new("Wait"),
            NodeDef::new("Wait"),
            NodeDef::new("Wait"),
        );
        mid.children = vec![a.guid.clone(), b.guid.clone()];
        root.children = vec![mid.guid.clone(), c.guid.clone()];
        file.root = Some(root.guid.clone());
        file.nodes = vec![root.clone(), mid.clone(), a.clone(), b.clone(), c.clone()];
        let pos = tidy(&file);
        assert_eq!(pos[&a.guid], [2.0 * COLUMN, 0.0]);
        assert_eq!(pos[&b.guid], [2.0 * COLUMN, ROW]);
        assert_eq!(pos[&mid.guid], [COLUMN, ROW / 2.0]);
        assert_eq!(pos[&c.guid], [COLUMN, 2.0 * ROW]);
        assert_eq!(pos[&root.guid], [0.0, (ROW / 2.0 + 2.0 * ROW) / 2.0]);
        // Execution order is increasing y among siblings.
        assert!(pos[&mid.guid][1] < pos[&c.guid][1]);
    }
}
