//! The view cache: egui_node_editor's graph as a view of the part of the document the
//! canvas shows. It holds only the nodes the canvas asks for (those in the
//! viewport plus a margin, and their neighbours) and is updated incrementally: as the view
//! pans, nodes leave and enter; when the session's generation changes (an edit, undo or
//! redo) the nodes it holds are refreshed from the document. Either way the cost follows the
//! number of nodes shown, not the size of the document.
//!
//! A node keeps its `NodeId` for as long as it stays in the graph: egui keys the node's
//! widget state by it, including a drag in progress, which edits the document (and so
//! changes the generation) on every frame.
//!
//! Stage 3 of a canvas frame ([`Canvas::sync_view`]): the nodes the view needs are found in
//! the scene, the cache is fitted to them, and positions, the selection and the live
//! statuses are written into it for the library to draw.

use std::collections::{BTreeSet, HashMap, HashSet};

use arbor_runtime::format::{DecoratorDef, NodeDef};
use arbor_runtime::{Direction, NodeType, NodeTypes, Report, Severity};
use egui::{Pos2, Rect};
use egui_node_editor as eng;
use eng::{InputId, NodeId, OutputId};
use serde_json::Value;

use super::scene::Scene;
use super::subtree_files::SubtreeFiles;
use super::view::{AbortMark, GraphState, NoValue, NodeView, Port};
use super::{influence, Canvas};
use crate::document::Document;
use crate::live::LiveSource;
use crate::view::{short, UiCx};
use crate::Session;

/// The graph the canvas draws, and how its ids map to document GUIDs.
#[derive(Default)]
pub struct ViewCache {
    pub state: GraphState,
    pub ids: HashMap<String, NodeId>,
    pub guids: HashMap<NodeId, String>,
    pub inputs: HashMap<NodeId, InputId>,
    pub outputs: HashMap<NodeId, OutputId>,
    /// The session generation the nodes in the graph show; `None` forces a refresh (after
    /// egui_node_editor changed its own graph).
    pub synced: Option<u64>,
    /// What Subtree nodes' files hold, read off the UI thread.
    pub subtrees: SubtreeFiles,
}

impl ViewCache {
    pub fn guid(&self, id: NodeId) -> Option<&str> {
        self.guids.get(&id).map(String::as_str)
    }

    /// The GUID of the node owning an input or output port.
    pub fn owner_of_input(&self, input: InputId) -> Option<&str> {
        let node = self.state.graph.try_get_input(input)?.node;
        self.guid(node)
    }

    pub fn owner_of_output(&self, output: OutputId) -> Option<&str> {
        let node = self.state.graph.try_get_output(output)?.node;
        self.guid(node)
    }

    /// Makes the graph hold exactly the `wanted` scene nodes, as the document is at the
    /// scene's generation. Keeps the camera and the ids of nodes that stay.
    pub fn sync(&mut self, session: &Session, report: &Report, scene: &Scene, wanted: &[u32]) {
        let doc = session.document();
        if self.subtrees.receive() {
            // A Subtree node's file was read: the nodes show it.
            self.synced = None;
        }
        let stale = self.synced.is_none() || self.synced != scene.generation;
        let wanted_guids: HashSet<&str> = wanted
            .iter()
            .map(|&i| scene.node(i).guid.as_str())
            .collect();
        let mut leaving: HashSet<NodeId> = self
            .ids
            .iter()
            .filter(|(guid, id)| {
                !wanted_guids.contains(guid.as_str()) || !self.state.graph.nodes.contains_key(**id)
            })
            .map(|(_, id)| *id)
            .collect();
        let mut refreshed = Vec::new();
        if stale {
            for (guid, &id) in &self.ids {
                if leaving.contains(&id) {
                    continue;
                }
                let Some(def) = scene
                    .index(guid)
                    .and_then(|i| doc.tree().nodes.get(scene.node(i).doc_index))
                else {
                    leaving.insert(id);
                    continue;
                };
                let (label, view, takes_children) =
                    view_of(session, report, scene, def, &mut self.subtrees);
                if takes_children != self.outputs.contains_key(&id) {
                    // Its ports changed shape: it leaves and comes back as a new node.
                    leaving.insert(id);
                } else {
                    refreshed.push((id, label, view));
                }
            }
        }
        let changed = stale || !leaving.is_empty();
        for (id, label, view) in refreshed {
            if let Some(node) = self.state.graph.nodes.get_mut(id) {
                node.label = label;
                node.user_data = view;
            }
        }
        self.remove(&leaving);
        let mut added = false;
        for &i in wanted {
            let node = scene.node(i);
            if self.ids.contains_key(&node.guid) {
                continue;
            }
            let Some(def) = doc.tree().nodes.get(node.doc_index) else {
                continue;
            };
            self.add(session, report, scene, def);
            added = true;
        }
        if changed || added {
            self.connect(scene);
        }
        self.synced = scene.generation;
    }

    /// Removes nodes from the graph and from every list that refers to them.
    fn remove(&mut self, leaving: &HashSet<NodeId>) {
        if leaving.is_empty() {
            return;
        }
        let state = &mut self.state;
        for &id in leaving {
            if state.graph.nodes.contains_key(id) {
                state.graph.remove_node(id);
            }
            state.node_positions.remove(id);
            if let Some(guid) = self.guids.remove(&id) {
                self.ids.remove(&guid);
            }
            self.inputs.remove(&id);
            self.outputs.remove(&id);
        }
        state.node_order.retain(|id| !leaving.contains(id));
        state.selected_nodes.retain(|id| !leaving.contains(id));
        if state
            .connection_in_progress
            .is_some_and(|(id, _)| leaving.contains(&id))
        {
            state.connection_in_progress = None;
        }
    }

    fn add(&mut self, session: &Session, report: &Report, scene: &Scene, def: &NodeDef) {
        let (label, view, takes_children) =
            view_of(session, report, scene, def, &mut self.subtrees);
        let mut input = None;
        let mut output = None;
        let id = self.state.graph.add_node(label, view, |g, id| {
            input = Some(g.add_input_param(
                id,
                "parent".into(),
                Port,
                NoValue,
                eng::InputParamKind::ConnectionOnly,
                true,
            ));
            if takes_children {
                output = Some(g.add_output_param(id, "children".into(), Port));
            }
        });
        if let Some(i) = input {
            self.inputs.insert(id, i);
        }
        if let Some(o) = output {
            self.outputs.insert(id, o);
        }
        self.ids.insert(def.guid.clone(), id);
        self.guids.insert(id, def.guid.clone());
        // The canvas writes the real position before drawing.
        self.state.node_positions.insert(id, egui::Pos2::ZERO);
        self.state.node_order.push(id);
    }

    /// Connections between the nodes in the graph, from the document.
    fn connect(&mut self, scene: &Scene) {
        let graph = &mut self.state.graph;
        graph.connections.clear();
        for (guid, id) in &self.ids {
            let (Some(i), Some(&output)) = (scene.index(guid), self.outputs.get(id)) else {
                continue;
            };
            for &c in &scene.node(i).children {
                let child = self.ids.get(&scene.node(c).guid);
                if let Some(input) = child.and_then(|c| self.inputs.get(c)) {
                    graph.add_connection(output, *input);
                }
            }
        }
    }
}

impl Canvas {
    /// Stage 3: the widget cache holds what the view needs (nothing when zoomed out), and
    /// the document's positions, the selection and the live statuses are written into it.
    pub(super) fn sync_view(&mut self, cx: &mut UiCx<'_>, live: &dyn LiveSource, lod: bool) {
        let wanted = if lod { Vec::new() } else { self.wanted() };
        self.cache.sync(cx.session, cx.report, &self.scene, &wanted);
        self.prepare(cx, live);
    }

    /// Scene nodes the widget graph should hold: those within a margin of the view, their
    /// parents and children (so edges leaving the view are drawn by the library and can be
    /// dragged), and the node a connection is being dragged from. In document order.
    fn wanted(&self) -> Vec<u32> {
        let cam = self.cam();
        let zoom = cam.zoom.max(0.01);
        // A quarter of the view each side: nodes are built before they scroll in, and a
        // zoom step or a pan within one frame stays inside what is built.
        let margin = self.view.width().max(self.view.height()) * 0.25;
        let view = self.view.expand(margin);
        let to_doc = |p: Pos2| ((p - cam.origin) / zoom).to_pos2();
        let area = Rect::from_min_max(to_doc(view.min), to_doc(view.max));
        let scene = &self.scene;
        let mut out: BTreeSet<u32> = BTreeSet::new();
        for i in scene.query(area) {
            let node = scene.node(i);
            if node.hidden {
                continue;
            }
            out.insert(i);
            out.extend(node.parent.filter(|p| !scene.node(*p).hidden));
            out.extend(node.children.iter().filter(|c| !scene.node(**c).hidden));
        }
        let dragging = self.cache.state.connection_in_progress;
        if let Some(guid) = dragging.and_then(|(id, _)| self.cache.guid(id)) {
            out.extend(scene.index(guid));
        }
        out.into_iter().collect()
    }

    /// Positions from the document, selection and preview state into the view.
    fn prepare(&mut self, cx: &mut UiCx<'_>, live: &dyn LiveSource) {
        let doc = cx.session.document();
        let zoom = self.cache.state.pan_zoom.zoom;
        for (guid, &id) in &self.cache.ids {
            let p = doc.position(guid).unwrap_or([0.0, 0.0]);
            if let Some(pos) = self.cache.state.node_positions.get_mut(id) {
                *pos = Pos2::new(p[0] as f32 * zoom, p[1] as f32 * zoom);
            }
        }
        self.cache.state.selected_nodes = cx
            .selection
            .nodes
            .iter()
            .filter_map(|g| self.cache.ids.get(g).copied())
            .collect();
        self.pushed_selection = cx
            .selection
            .nodes
            .iter()
            .filter(|g| self.cache.ids.contains_key(*g))
            .cloned()
            .collect();
        self.user.zoom = zoom;
        self.user.drawn.clear();
        self.user.live.clear();
        self.user.breakpoints.clear();
        self.user.stand_ins.clear();
        for guid in live.stand_ins() {
            if self.cache.ids.contains_key(guid) {
                self.user.stand_ins.insert(guid.to_owned());
            }
        }
        for guid in self.cache.ids.keys() {
            if let Some(live) = live.node_live(guid) {
                self.user.live.insert(guid.clone(), live);
            }
            if live.has_breakpoint(guid) {
                self.user.breakpoints.insert(guid.clone());
            }
        }
        self.user.preview_active = !self.user.live.is_empty();
        self.user.influence = match cx.selection.nodes.iter().next() {
            Some(guid) if cx.selection.nodes.len() == 1 => influence::influenced(doc, guid),
            _ => HashSet::new(),
        };
        self.user.key_users.clear();
        if let Some(key) = &cx.selection.key {
            for usage in doc.key_usages(cx.session.types(), key) {
                let access = self
                    .user
                    .key_users
                    .entry(usage.owner.node().to_owned())
                    .or_insert(usage.access);
                if *access != usage.access {
                    *access = Direction::InOut;
                }
            }
        }
    }
}

/// A node's title, what its widget shows, and whether it has a `children` port.
fn view_of(
    session: &Session,
    report: &Report,
    scene: &Scene,
    node: &NodeDef,
    subtrees: &mut SubtreeFiles,
) -> (String, NodeView, bool) {
    let doc = session.document();
    let index = scene.execution.get(&node.guid).copied();
    let mut view = node_view(doc, session.types(), report, node, index);
    view.disabled = scene
        .index(&node.guid)
        .is_some_and(|i| scene.node(i).disabled);
    if node.kind == "Subtree" {
        // The referenced tree and a compact remap replace the raw parameters.
        let path = node
            .params
            .get("path")
            .and_then(Value::as_str)
            .unwrap_or("?");
        let keys: Vec<&str> = node
            .params
            .get("remap")
            .and_then(Value::as_object)
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        view.summary = vec![
            subtree_summary(session.path(), node, subtrees),
            path.to_owned(),
        ];
        if !keys.is_empty() {
            view.summary.push(format!("remaps {}", keys.join(", ")));
        }
    }
    // An unknown type with children keeps its connections visible.
    let takes_children = arbor_viewer::takes_children(view.category, !node.children.is_empty());
    (crate::document::card_title(node), view, takes_children)
}

fn node_view(
    doc: &Document,
    types: &NodeTypes,
    report: &Report,
    node: &NodeDef,
    index: Option<usize>,
) -> NodeView {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for problem in report.for_node(&node.guid) {
        match problem.severity {
            Severity::Error => errors.push(problem.message()),
            Severity::Warning => warnings.push(problem.message()),
        }
    }
    NodeView {
        guid: node.guid.clone(),
        kind: node.kind.clone(),
        category: types.node(&node.kind).map(|t| t.category),
        index,
        is_root: doc.root() == Some(node.guid.as_str()),
        summary: summary(&node.params, types.node(&node.kind)),
        decorators: node
            .decorators
            .iter()
            .map(|d| (decorator_label(d), abort_mark(d)))
            .collect(),
        errors,
        warnings,
        disabled: false,
        overrides: doc.overrides_on(&node.guid),
        card: crate::document::card_content(node).map(|v| v as f32),
    }
}

/// What a Subtree node refers to: the referenced tree's name and root type as its file
/// was last read (relative to this document's file), or why it cannot be read. The file is
/// read off the UI thread (subtree_files.rs).
fn subtree_summary(
    doc_path: Option<&std::path::Path>,
    node: &NodeDef,
    subtrees: &mut SubtreeFiles,
) -> String {
    let Some(rel) = node.params.get("path").and_then(Value::as_str) else {
        return "no file yet".to_owned();
    };
    let Some(dir) = doc_path.and_then(std::path::Path::parent) else {
        return format!("{rel} (save this tree to resolve it)");
    };
    subtrees.summary(&dir.join(rel))
}

/// Up to three lines for the parameters the file sets: `name = value` for a literal, and
/// for a parameter bound to a key `name ← key` (read), `name → key` (written) or
/// `name ↔ key` (both), as the node type declares its direction.
fn summary(params: &serde_json::Map<String, Value>, ty: Option<&NodeType>) -> Vec<String> {
    let mut lines: Vec<String> = params
        .iter()
        .take(3)
        .map(|(k, v)| match arbor_runtime::binding(v) {
            Ok(Some(key)) => {
                let direction = ty
                    .and_then(|t| t.param_spec(k))
                    .map_or(Direction::In, |s| s.direction);
                let arrow = match direction {
                    Direction::In => "←",
                    Direction::Out => "→",
                    Direction::InOut => "↔",
                };
                format!("{k} {arrow} {key}")
            }
            _ => format!("{k} = {}", short(v)),
        })
        .collect();
    if params.len() > 3 {
        lines.push(format!("… {} more", params.len() - 3));
    }
    lines
}

/// What an attached decorator aborts: its `abort` parameter; a Precondition always
/// aborts its own node.
pub fn abort_mark(d: &DecoratorDef) -> Option<AbortMark> {
    if d.kind == "Precondition" {
        return Some(AbortMark::Own);
    }
    d.params
        .get("abort")
        .and_then(Value::as_str)
        .and_then(AbortMark::parse)
}

/// `Condition hungry == true` and the like (what it aborts is drawn as a badge, see
/// [`abort_mark`]).
pub fn decorator_label(d: &DecoratorDef) -> String {
    let p = &d.params;
    let s = |k: &str| p.get(k).map(short).unwrap_or_default();
    let not = if p.get("invert").and_then(Value::as_bool) == Some(true) {
        "not "
    } else {
        ""
    };
    let mut label = match d.kind.as_str() {
        "Condition" | "Precondition" => {
            let other = match p.get("equals_key").and_then(Value::as_str) {
                Some(k) => format!("@{k}"),
                None => s("equals"),
            };
            let key = p.get("key").and_then(Value::as_str).unwrap_or("?");
            format!("{} {not}{key} == {other}", d.kind)
        }
        "CheckEvent" => format!("{not}event {}", s("event")),
        "CheckTrigger" => {
            let reset = p
                .get("reset")
                .and_then(Value::as_str)
                .unwrap_or("Immediate");
            format!("{not}trigger {} ({reset})", s("trigger"))
        }
        other => other.to_owned(),
    };
    if !d.name.is_empty() {
        label = format!("{}: {label}", d.name);
    }
    label
}
