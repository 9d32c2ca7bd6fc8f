//! The document's nodes as the canvas places them: where each one is, its links, and a
//! coarse grid over canvas space, so the canvas can ask "which nodes are in this rect"
//! without touching every node (the cost of a frame follows what is visible).
//!
//! Brought up to date once per session generation: when only positions (or drawn sizes)
//! changed, as in a drag, the nodes that moved are re-indexed in place ([`Scene::update`],
//! which compares without allocating); any other change rebuilds it (linear in the
//! document, with an allocation per node). The problem marks follow the tab's validation
//! report separately ([`Scene::mark_problems`]), when the report changes. A node's rect
//! uses the size it was last drawn at, else `DEFAULT_NODE_SIZE`; a node drawn larger than
//! its indexed rect can be missed at the very edge of a query, which is why queries carry a
//! margin.
//!
//! Stage 2 of a canvas frame ([`Canvas::refresh_scene`]): reuse the scene, update it, or
//! rebuild it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use arbor_runtime::{Category, NodeTypes, Report, Severity};
use egui::{Pos2, Rect};

use super::camera::DEFAULT_NODE_SIZE;
use super::Canvas;
use crate::document::Document;
use crate::view::UiCx;

/// Side of a grid cell, in canvas units: a few nodes wide, so a 100 % view touches about a
/// dozen cells and a fully zoomed-out one a hundred or so.
const CELL: f32 = 512.0;

/// One node of the document.
#[derive(Clone, Debug)]
pub struct SceneNode {
    pub guid: String,
    /// Its name, or its type when unnamed.
    pub label: String,
    pub category: Option<Category>,
    /// Top-left corner in canvas units.
    pub pos: Pos2,
    /// The rect it is indexed by: `pos` and the size it was last drawn at.
    pub indexed: Rect,
    /// Indices of its children that exist, in order.
    pub children: Vec<u32>,
    /// The first node listing it as a child.
    pub parent: Option<u32>,
    /// Inside a collapsed group: not drawn, the group's box stands for it.
    pub hidden: bool,
    /// Switched off, itself or through an ancestor (`enabled: false`, semantics rule 79):
    /// drawn greyed out.
    pub disabled: bool,
    /// Position in the document's node list.
    pub doc_index: usize,
    /// The worst validation problem reported on it.
    pub problem: Option<Severity>,
}

/// All nodes of one document generation, with a grid for rect queries.
#[derive(Default)]
pub struct Scene {
    pub nodes: Vec<SceneNode>,
    pub by_guid: HashMap<String, u32>,
    /// Depth-first execution index of the nodes the root reaches.
    pub execution: HashMap<String, usize>,
    grid: HashMap<(i32, i32), Vec<u32>>,
    /// Changes whenever what the scene shows changes (the document or the problem marks):
    /// the view cache resyncs when it differs from the one it synced.
    pub generation: Option<u64>,
    /// The session generation the nodes were indexed from.
    doc_generation: Option<u64>,
    /// The document generation of the report the problem marks come from.
    checked: Option<u64>,
    /// The root's GUID when indexed (the execution order hangs from it).
    root: Option<String>,
}

/// The source of [`Scene::generation`]s: unique in the process, as the session's are.
static STAMPS: AtomicU64 = AtomicU64::new(1);

fn next_stamp() -> Option<u64> {
    Some(STAMPS.fetch_add(1, Ordering::Relaxed))
}

impl Scene {
    /// Indexes `doc` (at session generation `generation`), with the problem marks of
    /// `report` (describing generation `checked`); `sizes` are drawn sizes in canvas
    /// units, by GUID.
    pub fn build(
        doc: &Document,
        types: &NodeTypes,
        (report, checked): (&Report, Option<u64>),
        sizes: &HashMap<String, [f64; 2]>,
        generation: u64,
    ) -> Scene {
        let hidden = hidden_nodes(doc);
        let disabled = doc.disabled_branches();
        let mut scene = Scene {
            nodes: Vec::with_capacity(doc.node_count()),
            by_guid: HashMap::with_capacity(doc.node_count()),
            execution: HashMap::new(),
            grid: HashMap::new(),
            generation: next_stamp(),
            doc_generation: Some(generation),
            checked,
            root: doc.root().map(str::to_owned),
        };
        for (doc_index, node) in doc.nodes().enumerate() {
            let p = doc.position(&node.guid).unwrap_or([0.0, 0.0]);
            let label = if node.name.is_empty() {
                node.kind.clone()
            } else {
                node.name.clone()
            };
            // A hand-edited file may repeat a GUID: the first one wins, as in the document.
            if scene.by_guid.contains_key(&node.guid) {
                continue;
            }
            let i = scene.nodes.len() as u32;
            scene.by_guid.insert(node.guid.clone(), i);
            scene.nodes.push(SceneNode {
                guid: node.guid.clone(),
                label,
                category: types.node(&node.kind).map(|t| t.category),
                pos: Pos2::new(p[0] as f32, p[1] as f32),
                indexed: Rect::NOTHING,
                children: Vec::new(),
                parent: None,
                hidden: hidden.contains(&node.guid),
                disabled: disabled.contains(node.guid.as_str()),
                doc_index,
                problem: None,
            });
        }
        for (doc_index, node) in doc.nodes().enumerate() {
            let Some(&i) = scene.by_guid.get(&node.guid) else {
                continue;
            };
            if scene.nodes[i as usize].doc_index != doc_index {
                continue; // a repeated GUID: the first one's children stand
            }
            let children: Vec<u32> = node
                .children
                .iter()
                .filter_map(|c| scene.by_guid.get(c).copied())
                .filter(|&c| c != i)
                .collect();
            for &c in &children {
                let child = &mut scene.nodes[c as usize];
                if child.parent.is_none() {
                    child.parent = Some(i);
                }
            }
            scene.nodes[i as usize].children = children;
        }
        scene.mark_problems(report, checked);
        scene.execution = scene.execution_order(doc.root());
        for i in 0..scene.nodes.len() {
            let r = scene.rect(i as u32, sizes);
            scene.nodes[i].indexed = r;
            let (min, max) = (cell(r.min), cell(r.max));
            for x in min.0..=max.0 {
                for y in min.1..=max.1 {
                    scene.grid.entry((x, y)).or_default().push(i as u32);
                }
            }
        }
        scene
    }

    /// Brings the scene to `doc` at `generation` in place when nothing it indexes but
    /// positions or drawn sizes changed (a drag, a nudge, a parameter's value): the nodes whose rect changed move between grid
    /// cells. Returns false, changing nothing, when anything else differs (a node added,
    /// removed, renamed, retyped or reconnected, the root, a group collapsed): then the
    /// scene must be rebuilt.
    pub fn update(
        &mut self,
        doc: &Document,
        types: &NodeTypes,
        sizes: &HashMap<String, [f64; 2]>,
        generation: u64,
    ) -> bool {
        if !self.same_structure(doc, types) {
            return false;
        }
        for (i, node) in doc.nodes().enumerate() {
            let p = doc.position(&node.guid).unwrap_or([0.0, 0.0]);
            self.nodes[i].pos = Pos2::new(p[0] as f32, p[1] as f32);
            let r = self.rect(i as u32, sizes);
            let old = self.nodes[i].indexed;
            if r == old {
                continue;
            }
            self.nodes[i].indexed = r;
            let (omin, omax) = (cell(old.min), cell(old.max));
            let (min, max) = (cell(r.min), cell(r.max));
            if (omin, omax) == (min, max) {
                continue;
            }
            for x in omin.0..=omax.0 {
                for y in omin.1..=omax.1 {
                    if let Some(members) = self.grid.get_mut(&(x, y)) {
                        members.retain(|&m| m != i as u32);
                    }
                }
            }
            for x in min.0..=max.0 {
                for y in min.1..=max.1 {
                    self.grid.entry((x, y)).or_default().push(i as u32);
                }
            }
        }
        self.doc_generation = Some(generation);
        // The view cache refreshes the nodes it holds from the document (a parameter's
        // new value is not part of the index, but it is drawn).
        self.generation = next_stamp();
        true
    }

    /// Whether `doc` has the nodes, labels, types, links, root, hidden and disabled nodes
    /// this scene indexed, in the same order (positions aside).
    fn same_structure(&self, doc: &Document, types: &NodeTypes) -> bool {
        if self.nodes.len() != doc.node_count() || self.root.as_deref() != doc.root() {
            return false;
        }
        let hidden = hidden_nodes(doc);
        let disabled = doc.disabled_branches();
        doc.nodes().enumerate().all(|(i, node)| {
            let scene = &self.nodes[i];
            let label = if node.name.is_empty() {
                &node.kind
            } else {
                &node.name
            };
            // With no repeated GUID (the counts agree) scene node i is document node i.
            scene.guid == node.guid
                && scene.label == *label
                && scene.category == types.node(&node.kind).map(|t| t.category)
                && scene.hidden == hidden.contains(&node.guid)
                && scene.disabled == disabled.contains(node.guid.as_str())
                && node
                    .children
                    .iter()
                    .filter_map(|c| self.by_guid.get(c.as_str()).copied())
                    .filter(|&c| c != i as u32)
                    .eq(scene.children.iter().copied())
        })
    }

    /// Sets each node's mark to the worst problem `report` (describing document
    /// generation `checked`) has on it; a new [`Scene::generation`], so the view cache
    /// redraws the nodes it holds.
    pub fn mark_problems(&mut self, report: &Report, checked: Option<u64>) {
        for node in &mut self.nodes {
            node.problem = None;
        }
        for p in &report.problems {
            let Some(i) = p.node.as_deref().and_then(|g| self.by_guid.get(g)) else {
                continue;
            };
            let worst = &mut self.nodes[*i as usize].problem;
            if *worst != Some(Severity::Error) {
                *worst = Some(p.severity);
            }
        }
        self.checked = checked;
        self.generation = next_stamp();
    }

    /// Pre-order from the root, as `Document::execution_index` (iterative; a cycle in a
    /// hand-edited file is cut where a node repeats).
    fn execution_order(&self, root: Option<&str>) -> HashMap<String, usize> {
        let mut out = HashMap::new();
        let Some(&root) = root.and_then(|r| self.by_guid.get(r)) else {
            return out;
        };
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i as usize], true) {
                continue;
            }
            let node = &self.nodes[i as usize];
            out.insert(node.guid.clone(), out.len());
            stack.extend(node.children.iter().rev().copied());
        }
        out
    }

    pub fn index(&self, guid: &str) -> Option<u32> {
        self.by_guid.get(guid).copied()
    }

    pub fn node(&self, i: u32) -> &SceneNode {
        &self.nodes[i as usize]
    }

    /// The node's rect in canvas units.
    pub fn rect(&self, i: u32, sizes: &HashMap<String, [f64; 2]>) -> Rect {
        let node = self.node(i);
        let size = sizes.get(&node.guid).copied().unwrap_or(DEFAULT_NODE_SIZE);
        Rect::from_min_size(node.pos, egui::vec2(size[0] as f32, size[1] as f32))
    }

    /// Nodes whose indexed rect meets `area` (canvas units), in document order, hidden
    /// ones included.
    pub fn query(&self, area: Rect) -> Vec<u32> {
        if !area.is_finite() || area.is_negative() {
            return Vec::new();
        }
        let (min, max) = (cell(area.min), cell(area.max));
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let meets = |m: &u32| self.nodes[*m as usize].indexed.intersects(area);
        // Only cells that hold nodes are visited: a view far from the tree costs nothing.
        let cells = (i64::from(max.0 - min.0) + 1) * (i64::from(max.1 - min.1) + 1);
        let mut take = |members: &Vec<u32>| {
            out.extend(
                members
                    .iter()
                    .filter(|m| meets(m))
                    .copied()
                    .filter(|m| seen.insert(*m)),
            )
        };
        if cells as usize > self.grid.len() {
            for (c, members) in &self.grid {
                if (min.0..=max.0).contains(&c.0) && (min.1..=max.1).contains(&c.1) {
                    take(members);
                }
            }
        } else {
            for x in min.0..=max.0 {
                for y in min.1..=max.1 {
                    if let Some(members) = self.grid.get(&(x, y)) {
                        take(members);
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// The GUIDs of nodes hidden inside collapsed groups.
fn hidden_nodes(doc: &Document) -> BTreeSet<String> {
    doc.groups()
        .iter()
        .filter(|g| g.collapsed)
        .flat_map(|g| g.members.iter().cloned())
        .collect()
}

impl Canvas {
    /// Stage 2: when the session's generation changed, the scene is updated in place or
    /// rebuilt; its problem marks are redone when the report changed; else it is reused.
    pub(super) fn refresh_scene(&mut self, cx: &UiCx<'_>) {
        let generation = cx.session.generation();
        let current = self.scene.doc_generation == Some(generation)
            || self.scene.update(
                cx.session.document(),
                cx.session.types(),
                &self.sizes,
                generation,
            );
        if !current {
            self.scene = Scene::build(
                cx.session.document(),
                cx.session.types(),
                (cx.report, cx.checked),
                &self.sizes,
                generation,
            );
        } else if self.scene.checked != cx.checked {
            self.scene.mark_problems(cx.report, cx.checked);
        }
    }
}

impl Canvas {
    /// The worst problem the canvas marks on a node (its colour zoomed out, its border).
    pub fn problem_mark(&self, guid: &str) -> Option<Severity> {
        let i = self.scene.index(guid)?;
        self.scene.node(i).problem
    }

    /// The problem messages a node's widget shows, errors first; `None` when the node has
    /// no widget (off screen, or zoomed out).
    pub fn node_messages(&self, guid: &str) -> Option<Vec<String>> {
        let id = self.cache.ids.get(guid)?;
        let view = &self.cache.state.graph.nodes.get(*id)?.user_data;
        Some(view.errors.iter().chain(&view.warnings).cloned().collect())
    }
}

fn cell(p: Pos2) -> (i32, i32) {
    // `as` saturates, so a node at an absurd position lands in an edge cell, not a panic.
    ((p.x / CELL).floor() as i32, (p.y / CELL).floor() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Session;

    #[test]
    fn query_finds_nodes_in_a_rect_and_links_parents() {
        let mut s = Session::default();
        let a = s.add_node("Sequence", [0.0, 0.0]).expect("added");
        let b = s.add_node("Wait", [5000.0, 0.0]).expect("added");
        s.connect(&a, &b).expect("connected");
        let scene = Scene::build(
            s.document(),
            s.types(),
            (&Report::default(), None),
            &HashMap::new(),
            s.generation(),
        );
        let near = scene.query(Rect::from_min_size(Pos2::ZERO, egui::vec2(600.0, 400.0)));
        assert_eq!(near, vec![scene.index(&a).expect("indexed")]);
        let bi = scene.index(&b).expect("indexed");
        assert_eq!(scene.node(bi).parent, scene.index(&a));
        let far = scene.query(Rect::from_min_size(
            Pos2::new(4900.0, -100.0),
            egui::vec2(150.0, 150.0),
        ));
        assert_eq!(far, vec![bi]);
        assert!(scene
            .query(Rect::from_min_size(
                Pos2::new(-1e9, -1e9),
                egui::vec2(1.0, 1.0)
            ))
            .is_empty());
    }

    #[test]
    fn a_move_is_reindexed_in_place_and_a_new_link_rebuilds() {
        let mut s = Session::default();
        let a = s.add_node("Sequence", [0.0, 0.0]).expect("added");
        let b = s.add_node("Wait", [100.0, 0.0]).expect("added");
        let sizes = HashMap::new();
        let mut scene = Scene::build(
            s.document(),
            s.types(),
            (&Report::default(), None),
            &sizes,
            s.generation(),
        );
        let stamp = scene.generation;
        let bi = scene.index(&b).expect("indexed");
        let cmd = crate::commands::MoveItems::by(
            s.document(),
            &crate::document::Selection::of_nodes([b.clone()]),
            [5000.0, 0.0],
        )
        .expect("finite");
        s.apply(cmd).expect("moved");
        assert!(scene.update(s.document(), s.types(), &sizes, s.generation()));
        assert_ne!(scene.generation, stamp, "the view cache resyncs");
        let near = Rect::from_min_size(Pos2::ZERO, egui::vec2(400.0, 200.0));
        assert_eq!(scene.query(near), vec![scene.index(&a).expect("indexed")]);
        let far = Rect::from_min_size(Pos2::new(5110.0, 10.0), egui::vec2(10.0, 10.0));
        assert_eq!(scene.query(far), vec![bi], "found where it went");
        // The same as a rebuild would index.
        let rebuilt = Scene::build(
            s.document(),
            s.types(),
            (&Report::default(), None),
            &sizes,
            s.generation(),
        );
        assert_eq!(rebuilt.query(far), scene.query(far));

        s.connect(&a, &b).expect("connected");
        assert!(
            !scene.update(s.document(), s.types(), &sizes, s.generation()),
            "a new link is not a move"
        );
        let c = s.add_node("Wait", [0.0, 300.0]).expect("added");
        assert!(!scene.update(s.document(), s.types(), &sizes, s.generation()));
        let _ = c;
    }
}
