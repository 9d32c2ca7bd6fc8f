//! Tidy tree layout, left to right: a parent sits to the left of its children, centred on
//! them vertically; children stack top to bottom in execution order; subtrees are packed as
//! close as their contours allow (the contour idea of Reingold–Tilford, without threads:
//! O(nodes × depth), ample for hand-made trees). Left to right because the canvas draws a
//! node's parent port on its left edge and its children port on its right edge.
//!
//! The algorithm works along two axes: *breadth*, along which siblings are packed (y), and
//! *depth*, one column per level (x).
//!
//! Groups: the branches a group holds are packed as one box, padded with room for the
//! group's frame and title bar, so frames fitted afterwards (AutoLayout does) neither
//! cross each other nor cover a node outside the group.
//!
//! Deterministic: the same document and options always give the same positions, and the
//! result keeps the child order (children's y increases with their index), so applying it
//! never re-orders anything. The root's top-left corner stays where it was; unconnected
//! fragments are laid out the same way and placed below the tree, in stored order. Nodes
//! in a cycle (a hand-edited file) are not reached and keep their positions.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::editor_data::Pos;
use super::model::Document;
use super::placement::{GROUP_PAD, GROUP_TITLE};

/// Sizes and gaps, in canvas units.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Size of a node whose drawn size is not in `sizes`.
    pub node_size: [f64; 2],
    /// Drawn sizes measured by the canvas, by node GUID.
    pub sizes: HashMap<String, [f64; 2]>,
    /// Vertical space between neighbouring subtrees.
    pub sibling_gap: f64,
    /// Horizontal space between a column of nodes and the next (its children).
    pub level_gap: f64,
    /// Vertical space between the tree and each unconnected fragment.
    pub fragment_gap: f64,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            node_size: [200.0, 80.0],
            sizes: HashMap::new(),
            sibling_gap: 24.0,
            level_gap: 80.0,
            fragment_gap: 120.0,
        }
    }
}

impl LayoutOptions {
    pub(crate) fn size(&self, guid: &str) -> [f64; 2] {
        self.sizes.get(guid).copied().unwrap_or(self.node_size)
    }

    /// Extent along the sibling axis (height).
    fn breadth(&self, guid: &str) -> f64 {
        self.size(guid)[1]
    }
}

struct Item<'a> {
    guid: &'a str,
    depth: usize,
    /// Extent along the sibling axis.
    width: f64,
    children: Vec<usize>,
    /// Centre (along the sibling axis) relative to the parent's centre.
    offset: f64,
    /// Per depth below (and including) this node: the lowest and highest extent along the
    /// sibling axis, relative to this node's centre.
    contour: Vec<(f64, f64)>,
}

/// Packs contours side by side along the sibling axis, each as close to the previous ones
/// as `gap` allows; returns each one's offset and the combined contour.
fn pack(contours: &[&[(f64, f64)]], gap: f64) -> (Vec<f64>, Vec<(f64, f64)>) {
    let mut acc: Vec<(f64, f64)> = Vec::new();
    let mut offsets = Vec::with_capacity(contours.len());
    for contour in contours {
        let offset = if acc.is_empty() {
            0.0
        } else {
            acc.iter()
                .zip(contour.iter())
                .map(|(a, c)| a.1 - c.0 + gap)
                .fold(f64::NEG_INFINITY, f64::max)
        };
        for (d, &(l, r)) in contour.iter().enumerate() {
            match acc.get_mut(d) {
                Some(a) => *a = (a.0.min(l + offset), a.1.max(r + offset)),
                None => acc.push((l + offset, r + offset)),
            }
        }
        offsets.push(offset);
    }
    (offsets, acc)
}

/// New top-left positions for every node reached from the root or an unconnected top.
pub fn tidy_layout(doc: &Document, options: &LayoutOptions) -> BTreeMap<String, Pos> {
    let tops: Vec<&str> = doc
        .root()
        .into_iter()
        .chain(doc.unconnected_tops())
        .collect();
    // One column per level, as wide as the widest node.
    let column = doc
        .nodes()
        .map(|n| options.size(&n.guid)[0])
        .fold(options.node_size[0], f64::max)
        + options.level_gap;

    // Arena in pre-order, so a parent's index is below its children's: iterating
    // backwards visits children before parents.
    let mut items: Vec<Item<'_>> = Vec::new();
    let mut fragments = Vec::new();
    let mut seen = HashSet::new();
    for top in tops {
        if !doc.contains(top) || !seen.insert(top) {
            continue;
        }
        fragments.push(items.len());
        let mut stack = vec![(top, 0usize, None::<usize>)];
        while let Some((guid, depth, parent)) = stack.pop() {
            let me = items.len();
            items.push(Item {
                guid,
                depth,
                width: options.breadth(guid),
                children: Vec::new(),
                offset: 0.0,
                contour: Vec::new(),
            });
            if let Some(p) = parent {
                items[p].children.push(me);
            }
            for child in doc.children(guid).iter().rev() {
                if doc.contains(child) && seen.insert(child.as_str()) {
                    stack.push((child.as_str(), depth + 1, Some(me)));
                }
            }
        }
    }

    // Which group each node belongs to (the first that lists it), so that a group's
    // branches are packed as one box with room for its frame.
    let group_of: HashMap<&str, usize> = doc
        .groups()
        .iter()
        .enumerate()
        .rev()
        .flat_map(|(g, group)| group.members.iter().map(move |m| (m.as_str(), g)))
        .collect();
    let group_top = |parent: &str, child: &str| {
        let g = group_of.get(child).copied()?;
        (group_of.get(parent).copied() != Some(g)).then_some(g)
    };

    for i in (0..items.len()).rev() {
        let half = items[i].width / 2.0;
        // Children in runs: consecutive children that start the same group form one run,
        // packed together and then padded into a box the frame fits in; any other
        // child is a run of its own.
        let mut runs: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        for &c in &items[i].children {
            let g = group_top(items[i].guid, items[c].guid);
            match runs.last_mut() {
                Some((last, members)) if g.is_some() && *last == g => members.push(c),
                _ => runs.push((g, vec![c])),
            }
        }
        let mut run_contours = Vec::with_capacity(runs.len());
        let mut inner_offsets = Vec::with_capacity(runs.len());
        for (group, members) in &runs {
            let contours: Vec<&[(f64, f64)]> = members
                .iter()
                .map(|&c| items[c].contour.as_slice())
                .collect();
            let (offsets, mut contour) = pack(&contours, options.sibling_gap);
            if group.is_some() {
                let lo = contour.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
                let hi = contour
                    .iter()
                    .map(|c| c.1)
                    .fold(f64::NEG_INFINITY, f64::max);
                let boxed = (lo - GROUP_PAD - GROUP_TITLE, hi + GROUP_PAD);
                contour.iter_mut().for_each(|c| *c = boxed);
            }
            run_contours.push(contour);
            inner_offsets.push(offsets);
        }
        let slices: Vec<&[(f64, f64)]> = run_contours.iter().map(Vec::as_slice).collect();
        let (run_offsets, acc) = pack(&slices, options.sibling_gap);
        let offsets: Vec<f64> = run_offsets
            .iter()
            .zip(&inner_offsets)
            .flat_map(|(run, inner)| inner.iter().map(move |o| run + o))
            .collect();
        let centre = match (offsets.first(), offsets.last()) {
            (Some(first), Some(last)) => (first + last) / 2.0,
            _ => 0.0,
        };
        let children = items[i].children.clone();
        for (&c, off) in children.iter().zip(offsets) {
            items[c].offset = off - centre;
        }
        let mut contour = vec![(-half, half)];
        contour.extend(acc.into_iter().map(|(l, r)| (l - centre, r - centre)));
        items[i].contour = contour;
    }

    // Absolute centres, fragment by fragment, top to bottom.
    let mut centre = vec![0.0; items.len()];
    let mut right_edge: Option<f64> = None;
    for (f, &start) in fragments.iter().enumerate() {
        let end = fragments.get(f + 1).copied().unwrap_or(items.len());
        let left = items[start]
            .contour
            .iter()
            .map(|c| c.0)
            .fold(f64::INFINITY, f64::min);
        let right = items[start]
            .contour
            .iter()
            .map(|c| c.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let x = match right_edge {
            None => 0.0,
            Some(edge) => edge + options.fragment_gap - left,
        };
        right_edge = Some(x + right);
        centre[start] = x;
        // Pre-order: a parent's centre is known before its children's.
        for i in start..end {
            for &c in &items[i].children {
                centre[c] = centre[i] + items[c].offset;
            }
        }
    }

    let mut out: BTreeMap<String, Pos> = items
        .iter()
        .zip(&centre)
        .map(|(it, &c)| {
            (
                it.guid.to_owned(),
                [it.depth as f64 * column, c - it.width / 2.0],
            )
        })
        .collect();
    // Keep the first fragment's top where it was, so the view does not jump.
    if let Some(first) = items.first() {
        if let (Some(old), Some(new)) = (doc.position(first.guid), out.get(first.guid).copied()) {
            let (dx, dy) = (old[0] - new[0], old[1] - new[1]);
            for p in out.values_mut() {
                *p = [p[0] + dx, p[1] + dy];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::model::fixtures::sample;
    use arbor_runtime::format::NodeDef;

    #[test]
    fn parents_are_centred_beside_ordered_children() {
        let (doc, [a, b, c, d, e]) = sample();
        let opts = LayoutOptions::default();
        let pos = tidy_layout(&doc, &opts);
        assert_eq!(pos.len(), 5);
        // The root keeps its place.
        assert_eq!(pos[&a], doc.position(&a).unwrap());
        let [w, h] = opts.node_size;
        let centre = |g: &String| pos[g][1] + h / 2.0;
        assert!(pos[&b][1] < pos[&c][1]);
        assert!((centre(&a) - (centre(&b) + centre(&c)) / 2.0).abs() < 1e-9);
        assert_eq!(centre(&c), centre(&d));
        // One column per level, left to right.
        assert!(pos[&d][0] > pos[&c][0] && pos[&c][0] > pos[&a][0]);
        assert_eq!(pos[&b][0], pos[&c][0]);
        assert!(pos[&c][0] - pos[&a][0] >= w + opts.level_gap);
        // Siblings do not overlap, and the unconnected node is below everything.
        assert!(pos[&c][1] - pos[&b][1] >= h + opts.sibling_gap);
        assert!(pos[&e][1] >= pos[&d][1] + h + opts.fragment_gap);
    }

    #[test]
    fn contours_pack_subtrees_without_overlap_and_deterministically() {
        // root -> [x -> [x1, x2, x3], y -> [y1]]: y's child must clear x's children.
        let mut doc = Document::new("t");
        let mut mk = |kind: &str, children: Vec<String>| {
            let mut n = NodeDef::new(kind);
            n.children = children;
            let g = n.guid.clone();
            doc.file.nodes.push(n);
            g
        };
        let leaves: Vec<String> = (0..3).map(|_| mk("Wait", vec![])).collect();
        let x = mk("Sequence", leaves.clone());
        let y1 = mk("Wait", vec![]);
        let y = mk("Sequence", vec![y1.clone()]);
        let root = mk("Sequence", vec![x, y]);
        doc.file.root = Some(root);
        let opts = LayoutOptions::default();
        let pos = tidy_layout(&doc, &opts);
        let h = opts.node_size[1];
        assert!(pos[&y1][1] >= pos[&leaves[2]][1] + h + opts.sibling_gap);
        assert_eq!(pos, tidy_layout(&doc, &opts));
    }

    #[test]
    fn measured_sizes_are_respected() {
        let (doc, [_, b, c, ..]) = sample();
        let mut opts = LayoutOptions::default();
        opts.sizes.insert(b.clone(), [200.0, 400.0]);
        let pos = tidy_layout(&doc, &opts);
        assert!(pos[&c][1] - pos[&b][1] >= 400.0 + opts.sibling_gap);
    }
}
