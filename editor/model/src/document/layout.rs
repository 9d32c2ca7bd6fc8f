//! Auto layout of a document: the runtime's tidy tree ([`tidy_forest`], the one layout
//! implementation) fed with what the editor knows: each card's drawn size in canvas
//! units, the file's [`LayoutDirection`], the notes attached to nodes and the groups.
//!
//! - **Notes.** A note attached to a node (overlapping it, or within [`NOTE_REACH`] of it;
//!   the nearest node wins) travels with that node, keeping its offset, and the layout
//!   keeps clear the area the node and its notes cover together. A note attached to no
//!   node stays where it is, unless a card would now cover it: then it moves to the
//!   nearest free spot, so nothing ever lands on a note.
//! - **Groups.** The branches a group holds are packed as one box, padded with room for
//!   the group's frame and title bar, so frames fitted afterwards (AutoLayout does) neither
//!   cross each other nor cover a node outside the group.
//!
//! Deterministic: the same document and options always give the same positions, and the
//! result keeps the child order (siblings follow each other along the breadth in
//! execution order), so applying it never re-orders anything. The root's top-left corner
//! stays where it was; unconnected fragments follow the tree along the breadth, in stored
//! order. Nodes in a cycle (a hand-edited file) are not reached and keep their positions.

use std::collections::{BTreeMap, HashMap};

use arbor_runtime::format::layout::{tidy_forest, Card, Spacing, DEFAULT_CARD};

use super::card::card_size;
use super::editor_data::{Note, Pos};
use super::model::{Bounds, Document};
use super::placement::{free_offset, node_box, GROUP_PAD, GROUP_TITLE};

/// How close a note must be to a node to travel with it, in canvas units.
pub const NOTE_REACH: f64 = 48.0;

/// Sizes and gaps, in canvas units.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Size of a node whose drawn size is not in `sizes`.
    pub node_size: [f64; 2],
    /// Card sizes in canvas units, by node GUID ([`LayoutOptions::cards`] gives each
    /// node's card size, which never depends on the zoom).
    pub sizes: HashMap<String, [f64; 2]>,
    /// Space between neighbouring subtrees, along the breadth.
    pub sibling_gap: f64,
    /// Space between a level of nodes and the next (their children).
    pub level_gap: f64,
    /// Space between the tree and each unconnected fragment.
    pub fragment_gap: f64,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        let spacing = Spacing::default();
        LayoutOptions {
            node_size: DEFAULT_CARD,
            sizes: HashMap::new(),
            sibling_gap: spacing.sibling_gap,
            level_gap: spacing.level_gap,
            fragment_gap: spacing.tree_gap,
        }
    }
}

impl LayoutOptions {
    /// The default gaps, with every node of `doc` at its card size ([`card_size`]): what
    /// the layout and placement use, the same at any zoom.
    pub fn cards(doc: &Document) -> LayoutOptions {
        LayoutOptions {
            sizes: doc
                .nodes()
                .map(|n| (n.guid.clone(), card_size(n)))
                .collect(),
            ..LayoutOptions::default()
        }
    }

    pub(crate) fn size(&self, guid: &str) -> [f64; 2] {
        self.sizes.get(guid).copied().unwrap_or(self.node_size)
    }
}

/// Where auto layout puts things: new top-left corners of nodes and of the notes that
/// move (attached ones, and free ones a card would cover).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arrangement {
    pub nodes: BTreeMap<String, Pos>,
    pub notes: BTreeMap<String, Pos>,
}

fn note_box(note: &Note) -> Bounds {
    Bounds {
        min: note.pos,
        max: [note.pos[0] + note.size[0], note.pos[1] + note.size[1]],
    }
}

/// The gap between two boxes (0 when they touch or overlap).
fn gap(a: &Bounds, b: &Bounds) -> f64 {
    let dx = (a.min[0] - b.max[0]).max(b.min[0] - a.max[0]).max(0.0);
    let dy = (a.min[1] - b.max[1]).max(b.min[1] - a.max[1]).max(0.0);
    dx.hypot(dy)
}

/// Side of a cell of [`Grid`], in canvas units.
const CELL: f64 = 256.0;
/// A box spanning more cells than this is looked up by a plain scan instead.
const MAX_CELLS: i64 = 64;

/// Node boxes bucketed by canvas cell, so finding the nodes near each note does not scan
/// every node for every note.
struct Grid {
    cells: HashMap<(i64, i64), Vec<usize>>,
    all: Vec<usize>,
}

impl Grid {
    fn cells_of(b: &Bounds) -> Option<impl Iterator<Item = (i64, i64)>> {
        let lo = [b.min[0] / CELL, b.min[1] / CELL].map(|v| v.floor());
        let hi = [b.max[0] / CELL, b.max[1] / CELL].map(|v| v.floor());
        let span = (hi[0] - lo[0] + 1.0) * (hi[1] - lo[1] + 1.0);
        if !span.is_finite() || span > MAX_CELLS as f64 {
            return None;
        }
        let (x0, x1, y0, y1) = (lo[0] as i64, hi[0] as i64, lo[1] as i64, hi[1] as i64);
        Some((x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y))))
    }

    fn new(boxes: &[(usize, Bounds)]) -> Grid {
        let mut grid = Grid {
            cells: HashMap::new(),
            all: Vec::new(),
        };
        for (i, b) in boxes {
            match Grid::cells_of(b) {
                Some(cells) => cells.for_each(|c| grid.cells.entry(c).or_default().push(*i)),
                None => grid.all.push(*i),
            }
        }
        grid
    }

    /// Candidates near `b`, possibly repeated; `None` means "scan everything".
    fn near(&self, b: &Bounds) -> Option<Vec<usize>> {
        let cells = Grid::cells_of(b)?;
        let mut out: Vec<usize> = self.all.clone();
        for c in cells {
            out.extend(self.cells.get(&c).into_iter().flatten());
        }
        Some(out)
    }
}

/// For each note, the index (in `doc.file.nodes`) of the node it is attached to.
fn attached_notes(doc: &Document, options: &LayoutOptions) -> Vec<Option<usize>> {
    let boxes: Vec<(usize, Bounds)> = doc
        .file
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Some((i, node_box(options, &n.guid, doc.position(&n.guid)?))))
        .collect();
    let by_index: HashMap<usize, Bounds> = boxes.iter().copied().collect();
    let grid = Grid::new(&boxes);
    doc.notes()
        .iter()
        .map(|note| {
            let b = note_box(note);
            let reach = Bounds {
                min: [b.min[0] - NOTE_REACH, b.min[1] - NOTE_REACH],
                max: [b.max[0] + NOTE_REACH, b.max[1] + NOTE_REACH],
            };
            let candidates = grid
                .near(&reach)
                .unwrap_or_else(|| boxes.iter().map(|(i, _)| *i).collect());
            candidates
                .into_iter()
                .filter_map(|i| Some((i, gap(&b, by_index.get(&i)?))))
                .filter(|&(_, g)| g <= NOTE_REACH)
                // Nearest first; ties go to the node stored first, so the result is stable.
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
                .map(|(i, _)| i)
        })
        .collect()
}

/// New positions for every node reached from the root or an unconnected top, and for the
/// notes that move with them or out of their way.
pub fn tidy_layout(doc: &Document, options: &LayoutOptions) -> Arrangement {
    let nodes = &doc.file.nodes;
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.guid.as_str(), i))
        .collect();
    // Which group each node belongs to (the first that lists it).
    let group_of: HashMap<&str, usize> = doc
        .groups()
        .iter()
        .enumerate()
        .rev()
        .flat_map(|(g, group)| group.members.iter().map(move |m| (m.as_str(), g)))
        .collect();
    let mut cards: Vec<Card> = nodes
        .iter()
        .map(|n| Card {
            children: doc
                .children(&n.guid)
                .iter()
                .filter_map(|c| index.get(c.as_str()).copied())
                .collect(),
            group: group_of.get(n.guid.as_str()).copied(),
            ..Card::new(options.size(&n.guid))
        })
        .collect();
    // Attached notes widen what their node keeps clear.
    let attached = attached_notes(doc, options);
    for (note, at) in doc.notes().iter().zip(&attached) {
        let Some(i) = *at else { continue };
        let Some(p) = doc.position(&nodes[i].guid) else {
            continue;
        };
        let r = &mut cards[i].reach;
        let (x, y) = (note.pos[0] - p[0], note.pos[1] - p[1]);
        *r = [
            r[0].min(x),
            r[1].min(y),
            r[2].max(x + note.size[0]),
            r[3].max(y + note.size[1]),
        ];
    }
    let tops: Vec<usize> = doc
        .root()
        .into_iter()
        .chain(doc.unconnected_tops())
        .filter_map(|g| index.get(g).copied())
        .collect();
    let spacing = Spacing {
        sibling_gap: options.sibling_gap,
        level_gap: options.level_gap,
        tree_gap: options.fragment_gap,
        group_margin: [GROUP_PAD, GROUP_PAD + GROUP_TITLE, GROUP_PAD, GROUP_PAD],
    };
    let placed = tidy_forest(&cards, &tops, doc.editor.layout.direction, &spacing);

    // Keep the first top's corner where it was, so the view does not jump.
    let anchor = tops.first().and_then(|&t| {
        let old = doc.position(&nodes[t].guid)?;
        let new = placed[t]?;
        Some([old[0] - new[0], old[1] - new[1]])
    });
    let [dx, dy] = anchor.unwrap_or([0.0, 0.0]);
    let mut out = Arrangement::default();
    for (node, p) in nodes.iter().zip(&placed) {
        if let Some(p) = p {
            out.nodes
                .entry(node.guid.clone())
                .or_insert([p[0] + dx, p[1] + dy]);
        }
    }

    // Attached notes keep their offset from their node.
    for (note, at) in doc.notes().iter().zip(&attached) {
        let Some(guid) = at.map(|i| nodes[i].guid.as_str()) else {
            continue;
        };
        if let (Some(old), Some(new)) = (doc.position(guid), out.nodes.get(guid)) {
            let pos = [note.pos[0] + new[0] - old[0], note.pos[1] + new[1] - old[1]];
            out.notes.insert(note.guid.clone(), pos);
        }
    }
    // Free notes a card now covers step aside, clear of cards and of the other notes.
    let mut obstacles: Vec<Bounds> = out
        .nodes
        .iter()
        .map(|(g, p)| node_box(options, g, *p))
        .collect();
    let cards_end = obstacles.len();
    for note in doc.notes() {
        let pos = out.notes.get(&note.guid).copied().unwrap_or(note.pos);
        obstacles.push(note_box(&Note {
            pos,
            ..note.clone()
        }));
    }
    let cards_grid = Grid::new(
        &obstacles[..cards_end]
            .iter()
            .copied()
            .enumerate()
            .collect::<Vec<_>>(),
    );
    for (k, (note, at)) in doc.notes().iter().zip(&attached).enumerate() {
        if at.is_some() {
            continue;
        }
        let here = obstacles[cards_end + k];
        let covered = match cards_grid.near(&here) {
            Some(near) => near.iter().any(|&i| obstacles[i].overlaps(&here)),
            None => obstacles[..cards_end].iter().any(|o| o.overlaps(&here)),
        };
        if !covered {
            continue;
        }
        let others: Vec<Bounds> = obstacles
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != cards_end + k)
            .map(|(_, b)| *b)
            .collect();
        let d = free_offset(here, &others);
        let pos = [note.pos[0] + d[0], note.pos[1] + d[1]];
        obstacles[cards_end + k] = note_box(&Note {
            pos,
            ..note.clone()
        });
        out.notes.insert(note.guid.clone(), pos);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::model::fixtures::sample;
    use arbor_runtime::format::layout::LayoutDirection;
    use arbor_runtime::format::NodeDef;

    #[test]
    fn parents_are_centred_beside_ordered_children() {
        let (doc, [a, b, c, d, e]) = sample();
        let opts = LayoutOptions::default();
        let pos = tidy_layout(&doc, &opts).nodes;
        assert_eq!(pos.len(), 5);
        // The root keeps its place.
        assert_eq!(pos[&a], doc.position(&a).unwrap());
        let [w, h] = opts.node_size;
        let centre = |g: &String| pos[g][1] + h / 2.0;
        assert!(pos[&b][1] < pos[&c][1]);
        assert!((centre(&a) - (centre(&b) + centre(&c)) / 2.0).abs() < 1e-9);
        assert_eq!(centre(&c), centre(&d));
        // One level per depth, left to right.
        assert!(pos[&d][0] > pos[&c][0] && pos[&c][0] > pos[&a][0]);
        assert_eq!(pos[&b][0], pos[&c][0]);
        assert!(pos[&c][0] - pos[&a][0] >= w + opts.level_gap);
        // Siblings do not overlap, and the unconnected node is below everything.
        assert!(pos[&c][1] - pos[&b][1] >= h + opts.sibling_gap);
        assert!(pos[&e][1] >= pos[&d][1] + h + opts.fragment_gap);
    }

    #[test]
    fn top_down_puts_children_below_and_siblings_left_to_right() {
        let (mut doc, [a, b, c, d, _]) = sample();
        doc.editor.layout.direction = LayoutDirection::TopDown;
        let opts = LayoutOptions::default();
        let pos = tidy_layout(&doc, &opts).nodes;
        let [w, h] = opts.node_size;
        assert!(pos[&b][1] >= pos[&a][1] + h + opts.level_gap);
        assert_eq!(pos[&b][1], pos[&c][1]);
        assert!(pos[&c][0] >= pos[&b][0] + w + opts.sibling_gap);
        assert!(pos[&d][1] > pos[&c][1]);
        assert_eq!(pos[&c][0], pos[&d][0]);
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
        let pos = tidy_layout(&doc, &opts).nodes;
        let h = opts.node_size[1];
        assert!(pos[&y1][1] >= pos[&leaves[2]][1] + h + opts.sibling_gap);
        assert_eq!(pos, tidy_layout(&doc, &opts).nodes);
    }

    #[test]
    fn measured_sizes_are_respected() {
        let (doc, [_, b, c, ..]) = sample();
        let mut opts = LayoutOptions::default();
        opts.sizes.insert(b.clone(), [200.0, 400.0]);
        let pos = tidy_layout(&doc, &opts).nodes;
        assert!(pos[&c][1] - pos[&b][1] >= 400.0 + opts.sibling_gap);
    }

    /// Every note is clear of every card it is not attached to.
    fn assert_notes_uncovered(doc: &Document, arranged: &Arrangement, opts: &LayoutOptions) {
        for note in doc.notes() {
            let pos = arranged.notes.get(&note.guid).copied().unwrap_or(note.pos);
            let b = note_box(&Note {
                pos,
                ..note.clone()
            });
            for (g, p) in &arranged.nodes {
                assert!(
                    !b.overlaps(&node_box(opts, g, *p)),
                    "{g} covers {}",
                    note.guid
                );
            }
        }
    }

    #[test]
    fn an_attached_note_moves_with_its_node_and_nothing_lands_on_it() {
        let (mut doc, [_, b, ..]) = sample();
        let opts = LayoutOptions::default();
        doc.set_position(&b, Some([-3000.0, 4000.0]));
        // Just right of b: attached to it.
        doc.editor.notes.push(Note {
            guid: "n".into(),
            pos: [-3000.0 + opts.node_size[0] + 10.0, 4000.0],
            ..Note::default()
        });
        let arranged = tidy_layout(&doc, &opts);
        let (nb, n) = (arranged.nodes[&b], arranged.notes["n"]);
        assert_eq!(
            [n[0] - nb[0], n[1] - nb[1]],
            [opts.node_size[0] + 10.0, 0.0],
            "the attached note keeps its offset"
        );
        assert_notes_uncovered(&doc, &arranged, &opts);
    }

    #[test]
    fn a_free_note_where_a_card_lands_steps_aside() {
        let (mut doc, [_, b, c, d, e]) = sample();
        let opts = LayoutOptions::default();
        let target = tidy_layout(&doc, &opts).nodes[&c];
        // Everything but the root far away, so only the layout brings c onto the note.
        for (k, g) in [&b, &c, &d, &e].into_iter().enumerate() {
            doc.set_position(g, Some([20_000.0 + 1000.0 * k as f64, 20_000.0]));
        }
        doc.editor.notes.push(Note {
            guid: "n".into(),
            pos: target,
            ..Note::default()
        });
        let arranged = tidy_layout(&doc, &opts);
        assert_eq!(arranged.nodes[&c], target);
        assert!(arranged.notes.contains_key("n"), "the covered note moves");
        assert_notes_uncovered(&doc, &arranged, &opts);
    }
}
