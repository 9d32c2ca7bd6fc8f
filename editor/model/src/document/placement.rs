//! Placement: where a block of new items (a paste, a duplicate, an inlined subtree) goes so
//! that it stands on free canvas, never on top of existing nodes or notes.
//!
//! The block keeps its shape; only its offset changes. From the wanted spot it is pushed
//! either down or right past whatever it overlaps (each push lands just beyond the
//! farthest edge of what it hit, plus a gap), and the nearer of the two results wins.
//! Each push strictly increases a coordinate past a finite set of boxes, so the search
//! ends after at most one push per obstacle.
//!
//! Sizes: the document stores only top-left corners, so a node's box comes from the sizes
//! the canvas measured ([`LayoutOptions::sizes`]), or the default node size.
//! Group frames are not obstacles: dropping nodes inside a frame is allowed.

use std::collections::HashSet;

use super::editor_data::{Group, Pos};
use super::layout::{Arrangement, LayoutOptions};
use super::model::{Bounds, Document};

/// Space kept between a placed block and its neighbours, in canvas units.
pub const PLACEMENT_GAP: f64 = 24.0;
/// Height of a group's title bar, in canvas units (the canvas draws it this tall).
pub const GROUP_TITLE: f64 = 26.0;
/// Space between a group's frame and its members, in canvas units.
pub const GROUP_PAD: f64 = 24.0;

impl Bounds {
    /// Whether the two boxes share any area (touching edges do not count).
    pub fn overlaps(&self, other: &Bounds) -> bool {
        self.min[0] < other.max[0]
            && other.min[0] < self.max[0]
            && self.min[1] < other.max[1]
            && other.min[1] < self.max[1]
    }

    fn shifted(&self, d: Pos) -> Bounds {
        Bounds {
            min: [self.min[0] + d[0], self.min[1] + d[1]],
            max: [self.max[0] + d[0], self.max[1] + d[1]],
        }
    }

    /// The box grown by `by` on every side.
    fn grown(&self, by: f64) -> Bounds {
        Bounds {
            min: [self.min[0] - by, self.min[1] - by],
            max: [self.max[0] + by, self.max[1] + by],
        }
    }
}

/// The box of one node drawn at `pos`.
pub fn node_box(options: &LayoutOptions, guid: &str, pos: Pos) -> Bounds {
    let [w, h] = options.size(guid);
    Bounds {
        min: pos,
        max: [pos[0] + w, pos[1] + h],
    }
}

/// The boxes of every positioned node and every note of `doc`, except those in `skip`.
pub fn obstacles(doc: &Document, options: &LayoutOptions, skip: &HashSet<&str>) -> Vec<Bounds> {
    let nodes = doc
        .nodes()
        .filter(|n| !skip.contains(n.guid.as_str()))
        .filter_map(|n| Some(node_box(options, &n.guid, doc.position(&n.guid)?)));
    let notes = doc
        .notes()
        .iter()
        .filter(|n| !skip.contains(n.guid.as_str()))
        .map(|n| Bounds {
            min: n.pos,
            max: [n.pos[0] + n.size[0], n.pos[1] + n.size[1]],
        });
    nodes.chain(notes).collect()
}

/// The `[x, y, w, h]` frame of a group whose members are `boxes` (their padded box with
/// room for the title bar); `None` without members.
pub fn frame_around(boxes: impl IntoIterator<Item = Bounds>) -> Option<[f64; 4]> {
    let b = boxes.into_iter().reduce(|a, b| Bounds {
        min: [a.min[0].min(b.min[0]), a.min[1].min(b.min[1])],
        max: [a.max[0].max(b.max[0]), a.max[1].max(b.max[1])],
    })?;
    Some([
        b.min[0] - GROUP_PAD,
        b.min[1] - GROUP_PAD - GROUP_TITLE,
        b.max[0] - b.min[0] + 2.0 * GROUP_PAD,
        b.max[1] - b.min[1] + 2.0 * GROUP_PAD + GROUP_TITLE,
    ])
}

/// The frame that fits `group`'s members as they stand in `doc`, with node and note
/// positions overridden by `moved` (a layout about to be applied); `None` if no member is
/// placed.
pub fn fit_group(
    doc: &Document,
    group: &Group,
    options: &LayoutOptions,
    moved: &Arrangement,
) -> Option<[f64; 4]> {
    frame_around(group.members.iter().filter_map(|m| {
        if let Some(p) = moved.nodes.get(m).copied().or_else(|| doc.position(m)) {
            return Some(node_box(options, m, p));
        }
        doc.note(m).map(|n| {
            let pos = moved.notes.get(m).copied().unwrap_or(n.pos);
            Bounds {
                min: pos,
                max: [pos[0] + n.size[0], pos[1] + n.size[1]],
            }
        })
    }))
}

/// The offset to add to `block` so that it overlaps none of `obstacles` (keeping
/// [`PLACEMENT_GAP`] from them); `[0, 0]` when it already stands free.
pub fn free_offset(block: Bounds, obstacles: &[Bounds]) -> Pos {
    let down = push(block, obstacles, 1);
    let right = push(block, obstacles, 0);
    if right[0] < down[1] {
        right
    } else {
        down
    }
}

/// Pushes `block` along `axis` (0 = x, 1 = y) past every obstacle it meets.
fn push(block: Bounds, obstacles: &[Bounds], axis: usize) -> Pos {
    let mut offset = [0.0, 0.0];
    loop {
        let here = block.shifted(offset);
        // A hair less than the gap, so rounding in the sum below cannot make the block
        // hit the same box again.
        let hit = obstacles
            .iter()
            .filter(|o| o.grown(PLACEMENT_GAP - 1e-6).overlaps(&here))
            .map(|o| o.max[axis])
            .fold(f64::NEG_INFINITY, f64::max);
        if !hit.is_finite() {
            return offset;
        }
        // Forward, past the farthest box hit (its edge is beyond the block's edge).
        offset[axis] = hit + PLACEMENT_GAP - block.min[axis];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f64, y: f64, w: f64, h: f64) -> Bounds {
        Bounds {
            min: [x, y],
            max: [x + w, y + h],
        }
    }

    #[test]
    fn a_free_block_stays_where_it_is() {
        let block = b(500.0, 500.0, 100.0, 50.0);
        assert_eq!(free_offset(block, &[b(0.0, 0.0, 100.0, 100.0)]), [0.0, 0.0]);
    }

    #[test]
    fn a_block_on_top_of_a_node_moves_off_it_to_the_nearer_side() {
        // A wide, short obstacle: going down is nearer than going right.
        let wide = b(0.0, 0.0, 1000.0, 80.0);
        let block = b(10.0, 10.0, 200.0, 80.0);
        let d = free_offset(block, &[wide]);
        assert_eq!(d[0], 0.0);
        assert!(!block.shifted(d).overlaps(&wide.grown(PLACEMENT_GAP - 1e-3)));
        // A tall, narrow one: going right is nearer.
        let tall = b(0.0, 0.0, 200.0, 1000.0);
        let d = free_offset(block, &[tall]);
        assert_eq!(d[1], 0.0);
        assert!(d[0] > 0.0 && !block.shifted(d).overlaps(&tall));
    }

    #[test]
    fn the_block_clears_a_chain_of_obstacles() {
        // A column of nodes, each pushing the block into the next.
        let column: Vec<Bounds> = (0..10)
            .map(|i| b(0.0, f64::from(i) * 100.0, 200.0, 80.0))
            .chain([b(230.0, 0.0, 200.0, 1000.0)])
            .collect();
        let block = b(50.0, 50.0, 200.0, 200.0);
        let d = free_offset(block, &column);
        assert!(column.iter().all(|o| !block.shifted(d).overlaps(o)));
    }

    #[test]
    fn placement_never_overlaps_over_many_random_layouts() {
        // A cheap property test: random obstacles and blocks, fixed seed.
        let mut rng = fastrand::Rng::with_seed(14);
        for _ in 0..500 {
            let obstacles: Vec<Bounds> = (0..rng.usize(0..30))
                .map(|_| {
                    b(
                        rng.f64() * 2000.0 - 1000.0,
                        rng.f64() * 2000.0 - 1000.0,
                        10.0 + rng.f64() * 400.0,
                        10.0 + rng.f64() * 300.0,
                    )
                })
                .collect();
            let block = b(
                rng.f64() * 1000.0 - 500.0,
                rng.f64() * 1000.0 - 500.0,
                10.0 + rng.f64() * 600.0,
                10.0 + rng.f64() * 600.0,
            );
            let placed = block.shifted(free_offset(block, &obstacles));
            for o in &obstacles {
                assert!(!placed.overlaps(o), "{placed:?} overlaps {o:?}");
            }
        }
    }

    #[test]
    fn obstacles_are_nodes_and_notes_with_measured_sizes() {
        let (doc, [a, ..]) = crate::document::sample();
        let mut options = LayoutOptions::default();
        options.sizes.insert(a.clone(), [300.0, 150.0]);
        let all = obstacles(&doc, &options, &HashSet::new());
        let pos = doc.position(&a).expect("sample nodes have positions");
        assert!(all.contains(&b(pos[0], pos[1], 300.0, 150.0)));
        let without = obstacles(&doc, &options, &HashSet::from([a.as_str()]));
        assert_eq!(without.len() + 1, all.len());
    }
}
