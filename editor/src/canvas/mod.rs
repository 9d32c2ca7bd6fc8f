//! The node-graph canvas: egui_node_graph2 as a *view* of the document.
//!
//! egui_node_graph2 applies connections and deletions to its own graph before reporting
//! them, so its graph is only a cache: each reported gesture becomes a command on the
//! session, and the cache is resynced from the document whenever the session's generation
//! changes (edits, undo, redo). Positions are rewritten from the document every frame.
//!
//! The cost of a frame follows what is visible, not the document (issue 9): the cache holds
//! only the nodes in the viewport plus a margin and their neighbours (so an edge to a node
//! off screen is still drawn and can still be dragged off), found through `scene`'s grid and
//! updated incrementally as the view moves. Below `lod::LOD_ZOOM` no widgets are drawn at
//! all: `lod` paints plain boxes and lines from the scene. The selection lives in `UiCx`, by
//! GUID, so selected nodes stay selected while culled.
//! Layout is left to right: a node's `parent` port is on its left edge, `children` on its
//! right, and children run top to bottom in execution order.

mod annotations;
mod camera;
mod influence;
mod lod;
mod scene;
mod sync;
mod view;

pub use annotations::group_around;
pub use camera::DEFAULT_NODE_SIZE;
pub use lod::LOD_ZOOM;
pub use view::{CanvasResponse, DrawnNode};

use std::collections::{BTreeSet, HashMap, HashSet};

use arbor_runtime::Status;
use egui::{Pos2, Rect};
use egui_node_graph2 as eng;

use crate::commands::{Connect, Disconnect, MoveItems, RemoveItems, SetGroup};
use crate::document::Selection;
use crate::live::{status_color, LiveSource};
use crate::view::{Request, UiCx};
use annotations::{Annotations, Cam};
use lod::LodBox;
use scene::Scene;
use sync::ViewCache;
use view::{freshness, CanvasState, NoTemplates};

/// The canvas and its view state (camera, cache); no document data of its own.
pub struct Canvas {
    cache: ViewCache,
    user: CanvasState,
    /// Nodes to frame next frame (empty: the whole tree).
    pending_frame: Option<Vec<String>>,
    /// A zoom to apply next frame, keeping the centre of the view.
    pending_zoom: Option<f32>,
    /// Gesture id of the drag in progress, so that its moves merge into one undo step.
    drag_gesture: Option<u64>,
    /// Where the canvas was drawn last frame.
    view: Rect,
    /// Set when the user asked for the node finder here (right-click): the app opens the
    /// palette at this screen position.
    pub palette_request: Option<Pos2>,
    /// Sticky notes and groups.
    pub annotations: Annotations,
    /// Nodes moved by the drag in progress: on release they may join or leave groups.
    dragged_nodes: BTreeSet<String>,
    /// The node selection handed to egui_node_graph2 this frame (only the nodes its graph
    /// holds), to tell its own changes.
    pushed_selection: BTreeSet<String>,
    /// Where every node is, per generation, for viewport queries.
    scene: Scene,
    /// The size each node was last drawn at, in canvas units (it survives culling).
    sizes: HashMap<String, [f64; 2]>,
    /// Nodes drawn as boxes this frame (level of detail), empty when widgets are drawn.
    lod_boxes: Vec<LodBox>,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            cache: ViewCache::default(),
            user: CanvasState::default(),
            pending_frame: Some(Vec::new()),
            pending_zoom: None,
            drag_gesture: None,
            view: Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0)),
            palette_request: None,
            annotations: Annotations::default(),
            dragged_nodes: BTreeSet::new(),
            pushed_selection: BTreeSet::new(),
            scene: Scene::default(),
            sizes: HashMap::new(),
            lod_boxes: Vec::new(),
        }
    }
}

impl Canvas {
    /// Centres the view on these nodes next frame (all nodes if empty).
    pub fn frame(&mut self, guids: &[String]) {
        self.pending_frame = Some(guids.to_vec());
    }

    pub fn zoom(&self) -> f32 {
        self.cache.state.pan_zoom.zoom
    }

    /// Zooms to `zoom` (1 = 100 %) next frame, keeping the centre of the view.
    pub fn set_zoom(&mut self, zoom: f32) {
        self.pending_zoom = Some(zoom);
    }

    /// The document point under a screen position (for adding and pasting at the cursor).
    pub fn to_doc(&self, screen: Pos2) -> [f64; 2] {
        camera::to_doc(&self.cache, self.view, screen)
    }

    /// The screen rect the canvas covers.
    pub fn view_rect(&self) -> Rect {
        self.view
    }

    /// Where a node and its ports were drawn last frame.
    pub fn drawn(&self, guid: &str) -> Option<DrawnNode> {
        let id = self.cache.ids.get(guid)?;
        self.user.drawn.get(id).copied()
    }

    /// Drawn node sizes in canvas units, for the tidy layout: the last size each node was
    /// drawn at, culled ones included.
    pub fn measured_sizes(&self) -> HashMap<String, [f64; 2]> {
        self.sizes.clone()
    }

    /// Whether egui_node_graph2's graph holds this node this frame (it is in or near the
    /// view, or connected to a node that is, and the zoom is above `LOD_ZOOM`).
    pub fn has_widget(&self, guid: &str) -> bool {
        self.cache.ids.contains_key(guid)
    }

    /// How many nodes egui_node_graph2's graph holds.
    pub fn widget_count(&self) -> usize {
        self.cache.ids.len()
    }

    /// Whether egui_node_graph2's graph connects `parent`'s children port to `child`.
    pub fn widgets_connected(&self, parent: &str, child: &str) -> bool {
        let output = self
            .cache
            .ids
            .get(parent)
            .and_then(|p| self.cache.outputs.get(p));
        let input = self
            .cache
            .ids
            .get(child)
            .and_then(|c| self.cache.inputs.get(c));
        match (output, input) {
            (Some(o), Some(i)) => self.cache.state.graph.connections(*i).contains(o),
            _ => false,
        }
    }

    /// Whether the last frame drew boxes (level of detail) instead of node widgets.
    pub fn level_of_detail(&self) -> bool {
        self.zoom() < LOD_ZOOM
    }

    /// Where a node was drawn as a box last frame (level of detail only).
    pub fn lod_box(&self, guid: &str) -> Option<Rect> {
        let i = self.scene.index(guid)?;
        self.lod_boxes.iter().find(|b| b.node == i).map(|b| b.rect)
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, preview: &dyn LiveSource) {
        self.view = ui.max_rect();
        // Selectable labels would take the press on a node's title for text selection
        // instead of letting the node be dragged. egui_node_graph2 derives its zoomed
        // style from this ui's style.
        ui.style_mut().interaction.selectable_labels = false;
        if let Some(guids) = self.pending_frame.take() {
            self.apply_frame(ui, cx, &guids);
        }
        if let Some(zoom) = self.pending_zoom.take() {
            let centre = camera::to_doc(&self.cache, self.view, self.view.center());
            let factor = zoom / self.cache.state.pan_zoom.zoom;
            self.cache.state.zoom(ui, factor);
            let zoom = self.cache.state.pan_zoom.zoom;
            self.cache.state.pan_zoom.pan =
                self.view.size() / 2.0 - egui::vec2(centre[0] as f32, centre[1] as f32) * zoom;
        }
        let generation = cx.session.generation();
        if self.scene.generation != Some(generation) {
            self.scene = Scene::build(
                cx.session.document(),
                cx.session.types(),
                cx.report,
                &self.sizes,
                generation,
            );
        }
        let lod = self.level_of_detail();
        let wanted = if lod { Vec::new() } else { self.wanted() };
        self.cache.sync(cx.session, cx.report, &self.scene, &wanted);
        self.prepare(cx, preview);
        self.annotations.paint(ui, cx, self.cam(), &self.scene);
        self.lod_boxes = if lod {
            lod::paint(
                ui.painter(),
                &self.scene,
                self.cam(),
                self.view,
                &self.sizes,
                &cx.selection.nodes,
                preview,
            )
        } else {
            Vec::new()
        };

        let zoom_before = self.cache.state.pan_zoom.zoom;
        let response =
            self.cache
                .state
                .draw_graph_editor(ui, NoTemplates, &mut self.user, Vec::new());
        let zoom_after = self.cache.state.pan_zoom.zoom;
        self.remember_sizes(zoom_before);
        if (zoom_after - zoom_before).abs() > f32::EPSILON {
            camera::follow_zoom(&mut self.cache, zoom_after / zoom_before);
        }
        self.draw_active_path(ui);
        self.draw_collapsed_edges(ui, cx);
        if lod {
            self.lod_input(ui, cx);
        }
        self.annotations.interact(ui, cx, self.cam());
        if let Some(finder) = self.cache.state.node_finder.take() {
            self.palette_request = finder.position.or_else(|| ui.ctx().pointer_hover_pos());
        }
        self.handle(ui, cx, response.node_responses);
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

    /// Keeps the size each drawn node had, in canvas units, for culling and layout.
    fn remember_sizes(&mut self, zoom: f32) {
        let zoom = f64::from(zoom.max(0.01));
        for (id, d) in &self.user.drawn {
            let Some(guid) = self.cache.guids.get(id) else {
                continue;
            };
            let r = d.rect();
            let size = [f64::from(r.width()) / zoom, f64::from(r.height()) / zoom];
            match self.sizes.get_mut(guid) {
                Some(s) => *s = size,
                None => {
                    self.sizes.insert(guid.clone(), size);
                }
            }
        }
    }

    /// Clicks and box selection on the boxes of the level of detail. egui_node_graph2 has
    /// no nodes then, so it sees every press as one on its background: it pans, zooms and
    /// starts box selections as usual, and this picks the nodes.
    fn lod_input(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>) {
        let (clicked, double, pos, hover, modifiers) = ui.input(|i| {
            (
                i.pointer.primary_clicked(),
                i.pointer
                    .button_double_clicked(egui::PointerButton::Primary),
                i.pointer.interact_pos(),
                i.pointer.hover_pos(),
                i.modifiers,
            )
        });
        if let (Some(start), Some(end)) = (self.cache.state.ongoing_box_selection, hover) {
            let area = Rect::from_two_pos(start, end);
            cx.selection.nodes = self
                .lod_boxes
                .iter()
                .filter(|b| b.rect.intersects(area))
                .map(|b| self.scene.node(b.node).guid.clone())
                .collect();
            return;
        }
        let Some(pos) = pos.filter(|p| self.view.contains(*p)) else {
            return;
        };
        // A window over the canvas (the palette, a dialog) took the click.
        if !(clicked || double) || ui.ctx().is_pointer_over_area() {
            return;
        }
        let hit = lod::hit(&self.lod_boxes, pos).map(|i| self.scene.node(i).guid.clone());
        match hit {
            // Zoom in to it at 100 % (egui counts a double click whatever moved between the
            // clicks, so it is selected here too).
            Some(guid) if double => {
                *cx.selection = Selection::of_nodes([guid.clone()]);
                self.pending_frame = Some(vec![guid]);
            }
            Some(guid) if modifiers.shift || modifiers.command => {
                if !cx.selection.nodes.remove(&guid) {
                    cx.selection.nodes.insert(guid);
                }
            }
            Some(guid) => *cx.selection = Selection::of_nodes([guid]),
            None if double => {}
            None => *cx.selection = Selection::default(),
        }
    }

    fn cam(&self) -> Cam {
        Cam {
            origin: self.view.min + self.cache.state.pan_zoom.pan,
            zoom: self.cache.state.pan_zoom.zoom,
        }
    }

    /// Edges between a visible node and one hidden in a collapsed group end at the group's box.
    fn draw_collapsed_edges(&self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let doc = cx.session.document();
        let cam = self.cam();
        let stroke = egui::Stroke::new(3.0 * cam.zoom, egui::Color32::from_rgb(140, 150, 165));
        let scene = &self.scene;
        for group in doc.groups().iter().filter(|g| g.collapsed) {
            let r = annotations::collapsed_rect(cam, group);
            let members: HashSet<u32> = group
                .members
                .iter()
                .filter_map(|m| scene.index(m))
                .collect();
            // Only edges that leave the group; their other end is drawn only if in view.
            for &m in &members {
                let node = scene.node(m);
                if let Some(p) = node.parent.filter(|p| !members.contains(p)) {
                    if let Some(from) = self
                        .drawn(&scene.node(p).guid)
                        .and_then(|d| d.output_port())
                    {
                        ui.painter().line_segment([from, r.left_center()], stroke);
                    }
                }
                for &c in node.children.iter().filter(|c| !members.contains(c)) {
                    if let Some(to) = self.drawn(&scene.node(c).guid).and_then(|d| d.input_port()) {
                        ui.painter().line_segment([r.right_center(), to], stroke);
                    }
                }
            }
        }
    }

    /// Nodes dropped inside a group's frame join it; nodes dragged out leave it.
    fn update_membership(&mut self, cx: &mut UiCx<'_>) {
        let dropped = std::mem::take(&mut self.dragged_nodes);
        let doc = cx.session.document().clone();
        let sizes = self.measured_sizes();
        for group in doc.groups().iter().filter(|g| !g.collapsed) {
            let frame = Rect::from_min_size(
                Pos2::new(group.rect[0] as f32, group.rect[1] as f32),
                egui::vec2(group.rect[2] as f32, group.rect[3] as f32),
            );
            let mut members = group.members.clone();
            for guid in &dropped {
                let Some(p) = doc.position(guid) else {
                    continue;
                };
                let size = sizes.get(guid).copied().unwrap_or(DEFAULT_NODE_SIZE);
                let centre =
                    Pos2::new((p[0] + size[0] / 2.0) as f32, (p[1] + size[1] / 2.0) as f32);
                let member = members.contains(guid);
                if frame.contains(centre) && !member {
                    members.push(guid.clone());
                } else if !frame.contains(centre) && member {
                    members.retain(|m| m != guid);
                }
            }
            if members != group.members {
                let mut g = group.clone();
                g.members = members;
                cx.apply(SetGroup::replace(g));
            }
        }
    }

    /// Positions from the document, selection and preview state into the view.
    fn prepare(&mut self, cx: &mut UiCx<'_>, preview: &dyn LiveSource) {
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
        for guid in self.cache.ids.keys() {
            if let Some(live) = preview.node_live(guid) {
                self.user.live.insert(guid.clone(), live);
            }
            if preview.has_breakpoint(guid) {
                self.user.breakpoints.insert(guid.clone());
            }
        }
        self.user.preview_active = !self.user.live.is_empty();
        self.user.influence = match cx.selection.nodes.iter().next() {
            Some(guid) if cx.selection.nodes.len() == 1 => influence::influenced(doc, guid),
            _ => HashSet::new(),
        };
    }

    fn apply_frame(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>, guids: &[String]) {
        let doc = cx.session.document();
        let wanted: Vec<&str> = if guids.is_empty() {
            doc.nodes().map(|n| n.guid.as_str()).collect()
        } else {
            guids.iter().map(String::as_str).collect()
        };
        let mut bounds: Option<Rect> = None;
        for guid in wanted {
            let Some(p) = doc.position(guid) else {
                continue;
            };
            let size = self.sizes.get(guid).copied().unwrap_or(DEFAULT_NODE_SIZE);
            let r = Rect::from_min_size(
                Pos2::new(p[0] as f32, p[1] as f32),
                egui::vec2(size[0] as f32, size[1] as f32),
            );
            bounds = Some(bounds.map_or(r, |b| b.union(r)));
        }
        if guids.is_empty() {
            // Framing everything includes the notes and group frames around the tree.
            let extra = doc.notes().iter().map(|n| (n.pos, n.size)).chain(
                doc.groups()
                    .iter()
                    .map(|g| ([g.rect[0], g.rect[1]], [g.rect[2], g.rect[3]])),
            );
            for (p, size) in extra {
                let r = Rect::from_min_size(
                    Pos2::new(p[0] as f32, p[1] as f32),
                    egui::vec2(size[0] as f32, size[1] as f32),
                );
                bounds = Some(bounds.map_or(r, |b| b.union(r)));
            }
        }
        if let Some(bounds) = bounds {
            camera::frame(&mut self.cache, ui, self.view, bounds);
        }
    }

    /// Colours the connections into nodes the preview just visited with their status.
    fn draw_active_path(&self, ui: &egui::Ui) {
        if !self.user.preview_active {
            return;
        }
        let zoom = self.zoom();
        let painter = ui.painter();
        // Only nodes in the widget graph are drawn, and only they have live state.
        for guid in self.cache.ids.keys() {
            let Some(from) = self.drawn(guid).and_then(|d| d.output_port()) else {
                continue;
            };
            let Some(i) = self.scene.index(guid) else {
                continue;
            };
            for &c in &self.scene.node(i).children {
                let child = &self.scene.node(c).guid;
                let Some(live) = self.user.live.get(child) else {
                    continue;
                };
                let (Some(status), Some(to)) =
                    (live.status, self.drawn(child).and_then(|d| d.input_port()))
                else {
                    continue;
                };
                let f = freshness(live);
                if f <= 0.0 {
                    continue;
                }
                let color = status_color(status).gamma_multiply(0.3 + 0.7 * f);
                let width = if status == Status::Running { 4.0 } else { 3.0 } * zoom;
                let control = ((to.x - from.x) * zoom / 2.0).max(30.0 * zoom);
                let bezier = egui::epaint::CubicBezierShape::from_points_stroke(
                    [
                        from,
                        from + egui::vec2(control, 0.0),
                        to - egui::vec2(control, 0.0),
                        to,
                    ],
                    false,
                    egui::Color32::TRANSPARENT,
                    egui::Stroke::new(width, color),
                );
                painter.add(bezier);
            }
        }
    }

    /// Turns the library's responses into commands.
    fn handle(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>, responses: Vec<view::Response>) {
        use eng::NodeResponse as R;
        let mut deleted: Vec<String> = Vec::new();
        for r in &responses {
            if let R::DeleteNodeUi(id) = r {
                deleted.extend(self.cache.guid(*id).map(str::to_owned));
            }
        }
        let modifiers = ui.input(|i| i.modifiers);
        let mut clicked: Option<String> = None;
        let mut moved = egui::Vec2::ZERO;
        let mut dragged: Option<String> = None;
        let mut touched = false;
        for r in responses {
            match r {
                R::ConnectEventEnded { output, input, .. } => {
                    touched = true;
                    let (Some(parent), Some(child)) = (
                        self.cache.owner_of_output(output),
                        self.cache.owner_of_input(input),
                    ) else {
                        continue;
                    };
                    let (parent, child) = (parent.to_owned(), child.to_owned());
                    let command =
                        Connect::new(cx.session.document(), cx.session.types(), &parent, &child);
                    match command {
                        Ok(c) => {
                            cx.apply(c);
                        }
                        Err(e) => cx.toasts.error(format!("Cannot connect: {e}")),
                    }
                }
                R::DisconnectEvent { output, input } => {
                    touched = true;
                    let (Some(parent), Some(child)) = (
                        self.cache.owner_of_output(output),
                        self.cache.owner_of_input(input),
                    ) else {
                        continue;
                    };
                    if deleted.iter().any(|d| d == parent || d == child) {
                        continue;
                    }
                    let (parent, child) = (parent.to_owned(), child.to_owned());
                    if let Ok(c) = Disconnect::new(cx.session.document(), &parent, &child) {
                        cx.apply(c);
                    }
                }
                R::MoveNode { node, drag_delta } => {
                    moved += drag_delta;
                    dragged = self.cache.guid(node).map(str::to_owned);
                }
                R::SelectNode(id) => clicked = self.cache.guid(id).map(str::to_owned),
                R::User(CanvasResponse::OpenSubtree(guid)) => {
                    cx.requests.push(Request::OpenSubtree(guid))
                }
                _ => {}
            }
        }
        if !deleted.is_empty() {
            touched = true;
            let sel = Selection::of_nodes(deleted.iter().cloned());
            let command = RemoveItems::new(cx.session.document(), &sel);
            cx.apply(command);
        }
        self.read_selection(ui, cx, clicked, modifiers);
        if let Some(node) = dragged {
            let gesture = *self.drag_gesture.get_or_insert_with(|| cx.gestures.fresh());
            let sel = if cx.selection.nodes.contains(&node) {
                cx.selection.clone()
            } else {
                Selection::of_nodes([node])
            };
            let zoom = f64::from(self.zoom().max(0.01));
            let delta = [f64::from(moved.x) / zoom, f64::from(moved.y) / zoom];
            self.dragged_nodes.extend(sel.nodes.iter().cloned());
            if let Ok(c) = MoveItems::by(cx.session.document(), &sel, delta) {
                cx.apply(c.gesture(gesture));
            }
        }
        if !ui.input(|i| i.pointer.any_down()) {
            self.drag_gesture = None;
            if !self.dragged_nodes.is_empty() {
                self.update_membership(cx);
            }
        }
        if touched {
            // The library changed its own graph: resync it from the document.
            self.cache.synced = None;
        }
    }

    /// The selection after this frame's clicks and box selection.
    fn read_selection(
        &mut self,
        ui: &egui::Ui,
        cx: &mut UiCx<'_>,
        clicked: Option<String>,
        modifiers: egui::Modifiers,
    ) {
        let from_view: std::collections::BTreeSet<String> = self
            .cache
            .state
            .selected_nodes
            .iter()
            .filter_map(|id| self.cache.guid(*id).map(str::to_owned))
            .collect();
        match clicked {
            Some(guid) if modifiers.shift || modifiers.command => {
                if modifiers.command && cx.selection.nodes.contains(&guid) {
                    cx.selection.nodes.remove(&guid);
                } else {
                    cx.selection.nodes.insert(guid);
                }
            }
            Some(guid)
                if cx.selection.nodes.contains(&guid) && ui.input(|i| i.pointer.any_down()) =>
            {
                // Pressing on a node of a multi-selection starts dragging them all.
            }
            Some(guid) => *cx.selection = Selection::of_nodes([guid]),
            None => {
                // egui_node_graph2 clears its selection on any click outside the graph (in
                // the inspector, say): take its changes only when they happened over the
                // canvas, and only when it changed something (a note or group click this
                // frame must not be overridden).
                let over = ui
                    .input(|i| i.pointer.hover_pos())
                    .is_some_and(|p| self.view.contains(p));
                if over && from_view != self.pushed_selection {
                    if from_view.is_empty() {
                        *cx.selection = Selection::default();
                    } else {
                        cx.selection.nodes = from_view;
                    }
                }
            }
        }
    }
}
