//! Tidy tree layout: the one layout of Arbor. The editor's auto layout (with the cards' real
//! sizes, notes and groups), the BehaviorTree.CPP import and the in-game viewer (files
//! written by code, without positions) all place nodes with [`tidy_forest`].
//!
//! Two axes: *depth*, one level per tree depth, along the layout's [`LayoutDirection`]
//! (x for left to right, y for top down); and *breadth*, across it, along which siblings
//! follow each other in execution order. A parent is centred on its first and last child;
//! subtrees are packed along the breadth as close as their contours allow (Reingold–Tilford's
//! contour idea). Levels are as deep as their deepest card, so every parent lies before its
//! children along the depth axis.
//!
//! Cost: linear in the number of cards. A contour is a list, one entry per level, stored
//! deepest level first and shifted by one offset for the whole list; packing two subtrees
//! costs the depth of the shallower (the walk that compares them, then the merge of the
//! shorter into the longer), and these costs sum to the number of cards, as in
//! Reingold–Tilford. A group's box costs its own depth once. Iterative throughout, so a
//! chain of any depth lays out without exhausting the stack.
//!
//! Deterministic: the same input gives the same positions. Everything is in canvas units;
//! nothing depends on a zoom.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::format::TreeFile;

/// Which way a tree grows: where a node's children are, seen from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LayoutDirection {
    /// Children to the right of their parent, siblings top to bottom.
    #[default]
    LeftToRight,
    /// Children below their parent, siblings left to right.
    TopDown,
}

impl LayoutDirection {
    /// The axis (0 = x, 1 = y) along which siblings follow each other in execution order.
    pub fn breadth_axis(self) -> usize {
        match self {
            LayoutDirection::LeftToRight => 1,
            LayoutDirection::TopDown => 0,
        }
    }

    /// The axis along which children lie beyond their parent.
    pub fn depth_axis(self) -> usize {
        1 - self.breadth_axis()
    }
}

/// One node to place.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// Width and height of the card; the layout centres parents on these.
    pub size: [f64; 2],
    /// What must stay clear around the card, relative to its top-left corner:
    /// `[min_x, min_y, max_x, max_y]`. At least the card itself; more when notes are
    /// attached to it.
    pub reach: [f64; 4],
    /// Indices of the children in `cards`, in execution order.
    pub children: Vec<usize>,
    /// The group the card belongs to, if any: a group's branches are packed as one box,
    /// with [`Spacing::group_margin`] around it, so a frame fitted afterwards neither crosses
    /// another nor covers a card outside the group.
    pub group: Option<usize>,
}

impl Card {
    /// A card of `size` with nothing attached, no children and no group.
    pub fn new(size: [f64; 2]) -> Card {
        Card {
            size,
            reach: [0.0, 0.0, size[0], size[1]],
            children: Vec::new(),
            group: None,
        }
    }
}

/// Gaps, in canvas units.
#[derive(Clone, Debug, PartialEq)]
pub struct Spacing {
    /// Between neighbouring subtrees, along the breadth.
    pub sibling_gap: f64,
    /// Between one level and the next, along the depth.
    pub level_gap: f64,
    /// Between the tree and each unconnected fragment, along the breadth.
    pub tree_gap: f64,
    /// Room a group's frame takes around its members: `[left, top, right, bottom]`.
    pub group_margin: [f64; 4],
}

impl Default for Spacing {
    fn default() -> Self {
        Spacing {
            sibling_gap: 24.0,
            level_gap: 80.0,
            tree_gap: 120.0,
            group_margin: [0.0; 4],
        }
    }
}

/// Size of a card the layout has no measure for (the in-game viewer, an import).
pub const DEFAULT_CARD: [f64; 2] = [200.0, 90.0];

/// A subtree's outline along the breadth: per level, the lowest and highest extent,
/// relative to its top card's centre once `shift` is added. Deepest level first, so a
/// parent adds its own level with a push.
#[derive(Clone, Debug, Default)]
struct Contour {
    levels: Vec<(f64, f64)>,
    shift: f64,
}

impl Contour {
    fn len(&self) -> usize {
        self.levels.len()
    }

    /// The extent of level `i`, counted from the top.
    fn at(&self, i: usize) -> (f64, f64) {
        let (lo, hi) = self.levels[self.levels.len() - 1 - i];
        (lo + self.shift, hi + self.shift)
    }

    /// The lowest and highest extent over all levels.
    fn span(&self) -> (f64, f64) {
        let (lo, hi) = self
            .levels
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &(l, h)| {
                (a.min(l), b.max(h))
            });
        (lo + self.shift, hi + self.shift)
    }

    /// How far `next` must move along the breadth to clear `self` by `gap` on every level
    /// they share.
    fn clearance(&self, next: &Contour, gap: f64) -> f64 {
        (0..self.len().min(next.len()))
            .map(|i| self.at(i).1 - next.at(i).0 + gap)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The union of two contours (both already shifted into place).
    fn merge(self, other: Contour) -> Contour {
        let (mut long, short) = if self.len() >= other.len() {
            (self, other)
        } else {
            (other, self)
        };
        let (nl, ns) = (long.len(), short.len());
        for i in 0..ns {
            let (lo, hi) = short.at(i);
            let slot = &mut long.levels[nl - 1 - i];
            slot.0 = slot.0.min(lo - long.shift);
            slot.1 = slot.1.max(hi - long.shift);
        }
        long
    }

    /// Every level widened to the whole span plus `before`/`after`: a group's box.
    fn boxed(mut self, before: f64, after: f64) -> Contour {
        let (lo, hi) = self.span();
        let level = (lo - before - self.shift, hi + after - self.shift);
        self.levels.iter_mut().for_each(|l| *l = level);
        self
    }
}

/// Packs contours one after another along the breadth, each as close to those before it as
/// `gap` allows; returns each one's offset and their union.
fn pack(contours: Vec<Contour>, gap: f64) -> (Vec<f64>, Contour) {
    let mut offsets = Vec::with_capacity(contours.len());
    let mut acc: Option<Contour> = None;
    for mut c in contours {
        let offset = match &acc {
            None => 0.0,
            Some(a) => a.clearance(&c, gap),
        };
        c.shift += offset;
        offsets.push(offset);
        acc = Some(match acc {
            None => c,
            Some(a) => a.merge(c),
        });
    }
    (offsets, acc.unwrap_or_default())
}

/// Top-left corner of every card reachable from `tops`, by index into `cards` (`None` for
/// the rest). The first top's tree is laid out with its top card's corner at the origin;
/// each further top (an unconnected fragment) follows along the breadth, `tree_gap` beyond
/// the previous. A card reached twice (a hand-made file) is placed where it is first
/// reached, and a cycle is cut where it closes; out-of-range indices are ignored.
pub fn tidy_forest(
    cards: &[Card],
    tops: &[usize],
    direction: LayoutDirection,
    spacing: &Spacing,
) -> Vec<Option<[f64; 2]>> {
    let (b, d) = (direction.breadth_axis(), direction.depth_axis());
    // Breadth extent of a card relative to its centre.
    let extent = |c: &Card| {
        let half = c.size[b] / 2.0;
        (c.reach[b] - half, c.reach[b + 2] - half)
    };

    // Arena in pre-order: a parent's index is below its children's, so walking it
    // backwards meets children before their parents.
    struct Item {
        card: usize,
        depth: usize,
        children: Vec<usize>,
        /// Centre along the breadth, relative to the parent's centre.
        offset: f64,
    }
    let mut items: Vec<Item> = Vec::new();
    let mut fragments = Vec::new();
    let mut seen = vec![false; cards.len()];
    for &top in tops {
        if top >= cards.len() || seen[top] {
            continue;
        }
        seen[top] = true;
        fragments.push(items.len());
        let mut stack = vec![(top, 0usize, None::<usize>)];
        while let Some((card, depth, parent)) = stack.pop() {
            let me = items.len();
            items.push(Item {
                card,
                depth,
                children: Vec::new(),
                offset: 0.0,
            });
            if let Some(p) = parent {
                items[p].children.push(me);
            }
            for &child in cards[card].children.iter().rev() {
                if child < cards.len() && !seen[child] {
                    seen[child] = true;
                    stack.push((child, depth + 1, Some(me)));
                }
            }
        }
    }

    // A child starts a group box when it is in a group its parent is not in.
    let group_start = |parent: usize, child: usize| {
        let g = cards[child].group?;
        (cards[parent].group != Some(g)).then_some(g)
    };
    let (before, after) = (spacing.group_margin[b], spacing.group_margin[b + 2]);
    let mut contours: Vec<Contour> = Vec::with_capacity(items.len());
    contours.resize_with(items.len(), Contour::default);
    for i in (0..items.len()).rev() {
        let card = items[i].card;
        // Children in runs: consecutive children that start the same group form one run,
        // packed together and then boxed; any other child is a run of its own.
        let mut runs: Vec<(Option<usize>, Vec<usize>)> = Vec::new();
        for &c in &items[i].children {
            let g = group_start(card, items[c].card);
            match runs.last_mut() {
                Some((last, members)) if g.is_some() && *last == g => members.push(c),
                _ => runs.push((g, vec![c])),
            }
        }
        let mut run_contours = Vec::with_capacity(runs.len());
        let mut inner = Vec::with_capacity(runs.len());
        for (group, members) in &runs {
            let parts = members
                .iter()
                .map(|&c| std::mem::take(&mut contours[c]))
                .collect();
            let (offsets, contour) = pack(parts, spacing.sibling_gap);
            run_contours.push(match group {
                Some(_) => contour.boxed(before, after),
                None => contour,
            });
            inner.push(offsets);
        }
        let (run_offsets, mut acc) = pack(run_contours, spacing.sibling_gap);
        let offsets: Vec<f64> = run_offsets
            .iter()
            .zip(&inner)
            .flat_map(|(run, inner)| inner.iter().map(move |o| run + o))
            .collect();
        let centre = match (offsets.first(), offsets.last()) {
            (Some(first), Some(last)) => (first + last) / 2.0,
            _ => 0.0,
        };
        for (k, off) in offsets.into_iter().enumerate() {
            let c = items[i].children[k];
            items[c].offset = off - centre;
        }
        acc.shift -= centre;
        let (lo, hi) = extent(&cards[card]);
        acc.levels.push((lo - acc.shift, hi - acc.shift));
        contours[i] = acc;
    }

    // Levels along the depth: each as deep as its deepest reach.
    let levels = items.iter().map(|it| it.depth + 1).max().unwrap_or(0);
    let mut level = vec![(f64::INFINITY, f64::NEG_INFINITY); levels];
    for it in &items {
        let r = &cards[it.card].reach;
        let l = &mut level[it.depth];
        *l = (l.0.min(r[d]), l.1.max(r[d + 2]));
    }
    // Where each level's cards put their top (left, for left to right) edge.
    let mut card_start = Vec::with_capacity(levels);
    let mut origin = 0.0;
    for &(lo, hi) in &level {
        card_start.push(origin - lo);
        origin += hi - lo + spacing.level_gap;
    }
    let first_start = card_start.first().copied().unwrap_or(0.0);

    // Absolute centres along the breadth, fragment after fragment.
    let mut centre = vec![0.0; items.len()];
    let mut edge: Option<f64> = None;
    for (f, &start) in fragments.iter().enumerate() {
        let end = fragments.get(f + 1).copied().unwrap_or(items.len());
        let (lo, hi) = contours[start].span();
        let c = match edge {
            None => cards[items[start].card].size[b] / 2.0,
            Some(e) => e + spacing.tree_gap - lo,
        };
        edge = Some(c + hi);
        centre[start] = c;
        // Pre-order: a parent's centre is known before its children's.
        for i in start..end {
            let parent = centre[i];
            for &ch in &items[i].children {
                centre[ch] = parent + items[ch].offset;
            }
        }
    }

    let mut out = vec![None; cards.len()];
    for (it, c) in items.iter().zip(centre) {
        let card = &cards[it.card];
        let mut p = [0.0; 2];
        p[b] = c - card.size[b] / 2.0;
        p[d] = card_start[it.depth] - first_start;
        out[it.card] = Some(p);
    }
    out
}

/// Tidy positions for a tree file's nodes (those reachable from the root), every card
/// [`DEFAULT_CARD`]-sized, by GUID, with the tree's top-left corner at the origin. For
/// files without positions: imported XML, and the in-game viewer's trees.
pub fn tidy(file: &TreeFile, direction: LayoutDirection) -> BTreeMap<String, [f64; 2]> {
    let index: HashMap<&str, usize> = file
        .nodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.guid.as_str(), i))
        .collect();
    let cards: Vec<Card> = file
        .nodes
        .iter()
        .map(|n| Card {
            children: n
                .children
                .iter()
                .filter_map(|c| index.get(c.as_str()).copied())
                .collect(),
            ..Card::new(DEFAULT_CARD)
        })
        .collect();
    let tops: Vec<usize> = file
        .root
        .as_deref()
        .and_then(|r| index.get(r).copied())
        .into_iter()
        .collect();
    let placed = tidy_forest(&cards, &tops, direction, &Spacing::default());
    let min = placed
        .iter()
        .flatten()
        .fold([f64::INFINITY; 2], |m, p| [m[0].min(p[0]), m[1].min(p[1])]);
    let mut out = BTreeMap::new();
    for (node, p) in file.nodes.iter().zip(placed) {
        if let Some(p) = p {
            out.entry(node.guid.clone())
                .or_insert([p[0] - min[0], p[1] - min[1]]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::NodeDef;

    const DIRECTIONS: [LayoutDirection; 2] =
        [LayoutDirection::LeftToRight, LayoutDirection::TopDown];

    fn boxes_overlap(a: [f64; 4], b: [f64; 4]) -> bool {
        a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
    }

    /// The absolute `[min_x, min_y, max_x, max_y]` a card at `p` keeps clear.
    fn reach_at(c: &Card, p: [f64; 2]) -> [f64; 4] {
        [
            p[0] + c.reach[0],
            p[1] + c.reach[1],
            p[0] + c.reach[2],
            p[1] + c.reach[3],
        ]
    }

    /// A random forest: sizes, notes sticking out on either side, children in pre-order.
    fn random_forest(rng: &mut fastrand::Rng) -> (Vec<Card>, Vec<usize>) {
        let n = rng.usize(1..60);
        let mut cards: Vec<Card> = (0..n)
            .map(|_| {
                let size = [60.0 + rng.f64() * 200.0, 40.0 + rng.f64() * 120.0];
                let mut c = Card::new(size);
                if rng.u8(0..4) == 0 {
                    c.reach = [
                        -rng.f64() * 80.0,
                        -rng.f64() * 80.0,
                        size[0] + rng.f64() * 80.0,
                        size[1] + rng.f64() * 80.0,
                    ];
                }
                c
            })
            .collect();
        let mut tops = vec![0];
        for i in 1..n {
            if rng.u8(0..10) == 0 {
                tops.push(i);
            } else {
                let parent = rng.usize(0..i);
                cards[parent].children.push(i);
            }
        }
        (cards, tops)
    }

    #[test]
    fn random_forests_never_overlap_and_parents_come_before_children() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..300 {
            let (cards, tops) = random_forest(&mut rng);
            for direction in DIRECTIONS {
                let pos = tidy_forest(&cards, &tops, direction, &Spacing::default());
                let placed: Vec<(usize, [f64; 4])> = pos
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (i, reach_at(&cards[i], p.expect("all reachable"))))
                    .collect();
                for (i, a) in &placed {
                    for (j, b) in &placed {
                        assert!(
                            i == j || !boxes_overlap(*a, *b),
                            "{direction:?}: {i} and {j} overlap"
                        );
                    }
                }
                let d = direction.depth_axis();
                let b = direction.breadth_axis();
                for (i, c) in cards.iter().enumerate() {
                    let p = pos[i].expect("placed");
                    for (k, &ch) in c.children.iter().enumerate() {
                        let q = pos[ch].expect("placed");
                        assert!(p[d] + c.size[d] < q[d], "{direction:?}: parent after child");
                        if let Some(&next) = c.children.get(k + 1) {
                            let r = pos[next].expect("placed");
                            assert!(q[b] < r[b], "{direction:?}: siblings out of order");
                        }
                    }
                }
                assert_eq!(
                    pos,
                    tidy_forest(&cards, &tops, direction, &Spacing::default())
                );
            }
        }
    }

    #[test]
    fn a_parent_is_centred_on_its_first_and_last_child() {
        let mut cards = vec![Card::new([100.0, 50.0]); 4];
        cards[0].children = vec![1, 2, 3];
        cards[2].size = [100.0, 200.0];
        cards[2].reach = [0.0, 0.0, 100.0, 200.0];
        for direction in DIRECTIONS {
            let pos = tidy_forest(&cards, &[0], direction, &Spacing::default());
            let b = direction.breadth_axis();
            let centre = |i: usize| pos[i].expect("placed")[b] + cards[i].size[b] / 2.0;
            assert!((centre(0) - (centre(1) + centre(3)) / 2.0).abs() < 1e-9);
            // The root's corner is the origin.
            assert_eq!(pos[0], Some([0.0, 0.0]));
        }
    }

    #[test]
    fn groups_are_packed_as_one_padded_box() {
        // 0 -> [1, 2, 3]; 1 and 2 in a group: 3 (outside) must clear the frame's margin.
        let mut cards = vec![Card::new([100.0, 50.0]); 4];
        cards[0].children = vec![1, 2, 3];
        cards[1].group = Some(0);
        cards[2].group = Some(0);
        let spacing = Spacing {
            group_margin: [10.0, 40.0, 10.0, 30.0],
            ..Spacing::default()
        };
        let pos = tidy_forest(&cards, &[0], LayoutDirection::LeftToRight, &spacing);
        let y = |i: usize| pos[i].expect("placed")[1];
        // Grouped siblings keep the plain gap; the outsider clears the bottom margin too.
        assert_eq!(y(2) - y(1), 50.0 + spacing.sibling_gap);
        assert_eq!(y(3) - y(2), 50.0 + 30.0 + spacing.sibling_gap);
    }

    #[test]
    fn the_file_layout_places_what_the_root_reaches() {
        let mut file = TreeFile::new("t");
        let mut root = NodeDef::new("Sequence");
        let mut mid = NodeDef::new("Selector");
        let (a, b, c) = (
            NodeDef::new("Wait"),
            NodeDef::new("Wait"),
            NodeDef::new("Wait"),
        );
        let stray = NodeDef::new("Wait");
        mid.children = vec![a.guid.clone(), b.guid.clone()];
        root.children = vec![mid.guid.clone(), c.guid.clone()];
        file.root = Some(root.guid.clone());
        let a_guid = a.guid.clone();
        file.nodes = vec![root.clone(), mid.clone(), a, b.clone(), c.clone(), stray];
        let pos = tidy(&file, LayoutDirection::LeftToRight);
        assert_eq!(pos.len(), 5);
        assert_eq!(pos[&root.guid][0], 0.0);
        assert_eq!(pos[&a_guid][1], 0.0, "the top-left corner is the origin");
        assert!(pos[&mid.guid][0] > pos[&root.guid][0] + DEFAULT_CARD[0]);
        assert!(pos[&b.guid][1] < pos[&c.guid][1]);
        let down = tidy(&file, LayoutDirection::TopDown);
        assert_eq!(down[&root.guid][1], 0.0);
        assert!(down[&mid.guid][1] > DEFAULT_CARD[1]);
        assert!(down[&b.guid][0] < down[&c.guid][0]);
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
        let pos = tidy(&file, LayoutDirection::LeftToRight);
        assert_eq!(pos.len(), 100_000);
        assert_eq!(pos[&first], [0.0, 0.0]);
    }

    #[test]
    fn a_deep_comb_lays_out() {
        // A spine of 20 000 with a leaf on every spine node: each packing compares one
        // level (the leaf's), so the whole layout is linear.
        let n = 20_000;
        let mut cards = vec![Card::new(DEFAULT_CARD); 2 * n];
        for (i, spine) in cards.iter_mut().take(n).enumerate() {
            spine.children = if i + 1 < n {
                vec![n + i, i + 1]
            } else {
                vec![n + i]
            };
        }
        let pos = tidy_forest(&cards, &[0], LayoutDirection::TopDown, &Spacing::default());
        assert!(pos.iter().all(Option::is_some));
    }
}
