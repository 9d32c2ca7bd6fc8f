//! Tidy tree layout, for trees whose file carries no positions: imported XML, and the
//! in-game viewer's trees (a file written by code rather than by the editor).
//!
//! Left to right, as the editor draws trees: a node at depth d sits at x = d * [`COLUMN`];
//! leaves take rows [`ROW`] apart in execution order (pre-order), and a parent is centred
//! between its first and last child. Children are therefore ordered top to bottom by y,
//! which is the execution order the editor reads back. Deterministic. Iterative, so a
//! hand-made chain of any depth lays out without exhausting the stack. The editor has its
//! own layout command for trees that are edited later.

use std::collections::{BTreeMap, HashMap};

use crate::format::TreeFile;

/// Horizontal distance between depths.
pub const COLUMN: f64 = 260.0;
/// Vertical distance between leaves.
pub const ROW: f64 = 90.0;

/// `[x, y]` (a node's top-left corner) of every node reachable from the root, by GUID. A
/// node listed twice (a hand-made file) is placed once, where it is first reached, and a
/// cycle is cut where it closes.
pub fn tidy(file: &TreeFile) -> BTreeMap<String, [f64; 2]> {
    let index: HashMap<&str, usize> = file
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.guid.as_str(), i))
        .collect();
    let mut out: BTreeMap<String, [f64; 2]> = BTreeMap::new();
    let Some(&root) = file.root.as_deref().and_then(|r| index.get(r)) else {
        return out;
    };
    let mut next_row = 0.0;
    // (node, depth, its children are placed): a node is visited on the way down, where it
    // reserves its entry (so a cycle ends there), and again once its children are placed.
    let mut stack = vec![(root, 0usize, false)];
    while let Some((i, depth, children_placed)) = stack.pop() {
        let node = &file.nodes[i];
        let x = depth as f64 * COLUMN;
        if !children_placed {
            if out.contains_key(&node.guid) {
                continue;
            }
            out.insert(node.guid.clone(), [x, 0.0]);
            stack.push((i, depth, true));
            let children = node.children.iter().filter_map(|c| index.get(c.as_str()));
            stack.extend(children.rev().map(|&c| (c, depth + 1, false)));
            continue;
        }
        let mut ys = node
            .children
            .iter()
            .filter_map(|c| out.get(c.as_str()))
            .map(|p| p[1]);
        let y = match ys.next() {
            Some(first) => (first + ys.next_back().unwrap_or(first)) / 2.0,
            None => {
                let y = next_row;
                next_row += ROW;
                y
            }
        };
        out.insert(node.guid.clone(), [x, y]);
    }
    out
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

    #[test]
    fn a_deep_chain_and_a_cycle_lay_out() {
        let mut file = TreeFile::new("t");
        let mut nodes: Vec<NodeDef> = (0..100_000).map(|_| NodeDef::new("Inverter")).collect();
        for i in 0..nodes.len() - 1 {
            nodes[i].children = vec![nodes[i + 1].guid.clone()];
        }
        // The last node points back at the first: the cycle is cut there.
        let first = nodes[0].guid.clone();
        if let Some(last) = nodes.last_mut() {
            last.children = vec![first.clone()];
        }
        file.root = Some(first.clone());
        file.nodes = nodes;
        let pos = tidy(&file);
        assert_eq!(pos.len(), 100_000);
        assert_eq!(pos[&first], [0.0, 0.0]);
    }
}
