//! The node-graph canvas: egui_node_editor as a *view* of the document.
//!
//! egui_node_editor applies connections and deletions to its own graph before reporting
//! them, so its graph is only a cache: each reported gesture becomes a command on the
//! session, and the cache is resynced from the document whenever the session's generation
//! changes (edits, undo, redo). Positions are rewritten from the document every frame.
//!
//! The cost of a frame follows what is visible, not the document: the cache holds only
//! the nodes in the viewport plus a margin and their neighbours (so an edge to a node off
//! screen is still drawn and can still be dragged off), found through the scene's grid and
//! updated incrementally as the view moves. Below [`LOD_ZOOM`] no widgets are drawn at all:
//! plain boxes and lines are painted from the scene. The selection lives in `UiCx`, by
//! GUID, so selected nodes stay selected while culled.
//!
//! # A frame, one way through
//! [`Canvas::ui`] runs six stages, each in its own file, each once, in this order (as the
//! runtime's loader goes source → graph → params → analyse → emit):
//! 1. camera.rs: apply a pending "frame these nodes" or zoom.
//! 2. scene.rs: reuse the scene, or rebuild it when the session's generation changed.
//! 3. sync.rs: fit the widget cache to what the view needs, and write positions, the
//!    selection and the live statuses into it.
//! 4. paint.rs: notes and groups (behind), then the node widgets (egui_node_editor, which
//!    calls view.rs for each node and reports what the pointer did) or, zoomed out, the
//!    level-of-detail boxes; the ports' hit areas and wires dropped on empty canvas
//!    (ports.rs); then the overlays (the running path, edges into collapsed groups).
//! 5. input.rs: what the library does not see: clicks on level-of-detail boxes, the handles
//!    of notes and groups; then context_menu.rs: the right-click menu of what is under the
//!    pointer.
//! 6. emit.rs: the library's responses become commands and the new selection.
//!
//! Then the name field of a node being renamed (rename.rs), and the overlays, on top of
//! everything: the minimap and the zoom level (minimap.rs) and the find bar (find_bar.rs).
//!
//! A comparison with another version of the tree (compare.rs) is view state too: its
//! marks outline the node widgets (view.rs) and its removed nodes are painted as ghosts
//! behind them (paint.rs).
//!
//! Layout is left to right: a node's `parent` port is on its left edge, `children` on its
//! right, and children run top to bottom in execution order.

mod camera;
mod compare;
mod context_menu;
mod emit;
mod find_bar;
mod influence;
mod input;
mod lod_input;
mod minimap;
mod paint;
mod ports;
mod rename;
mod scene;
mod subtree_files;
mod sync;
mod view;
mod wires;

pub use camera::{DEFAULT_NODE_SIZE, FIRST_VIEW_FLOOR, FRAME_FLOOR};
pub use context_menu::{ContextMenu, MenuTarget};
pub use find_bar::FindBar;
pub use input::{group_around, Annotations, NOTE_INK, NOTE_PLACEHOLDER};
pub use paint::LOD_ZOOM;
pub use ports::PORT_HIT;
pub use subtree_files::{reads_here as subtree_file_reads_here, READING as SUBTREE_READING};
pub use view::{CanvasResponse, DrawnNode};

use std::collections::{BTreeSet, HashMap};

use egui::{Pos2, Rect};

use crate::live::LiveSource;
use crate::view::UiCx;
use arbor_viewer::LodBox;
use scene::Scene;
use sync::ViewCache;
use view::CanvasState;

/// The canvas and its view state (camera, cache); no document data of its own.
pub struct Canvas {
    cache: ViewCache,
    user: CanvasState,
    /// Nodes to frame next frame (empty: the whole tree).
    pending_frame: Option<Vec<String>>,
    /// An area of the document to frame next frame (a removed node's old place).
    pending_area: Option<Rect>,
    /// The first frame places the view a document opens with (see camera.rs).
    pending_first_view: bool,
    /// A zoom to apply next frame, keeping the centre of the view.
    pending_zoom: Option<f32>,
    /// A Ctrl+drag on the background is panning the view (paint.rs).
    panning: bool,
    /// Gesture id of the drag in progress, so that its moves merge into one undo step.
    drag_gesture: Option<u64>,
    /// Where the canvas was drawn last frame.
    view: Rect,
    /// Set when the user asked for the node finder here ("Add Node…" on the canvas's
    /// menu): the app opens the palette at this screen position.
    pub palette_request: Option<Pos2>,
    /// Set when a wire was dropped on empty canvas (ports.rs): the app opens the node
    /// finder at this screen position, to add a node linked to the wire's port.
    pub wire_request: Option<(Pos2, crate::commands::Link)>,
    /// Sticky notes and groups.
    pub annotations: Annotations,
    /// The right-click menu open on the canvas.
    context: Option<ContextMenu>,
    /// Nodes moved by the drag in progress: on release they may join or leave groups.
    dragged_nodes: BTreeSet<String>,
    /// The node selection handed to egui_node_editor this frame (only the nodes its graph
    /// holds), to tell its own changes.
    pushed_selection: BTreeSet<String>,
    /// Where every node is, per generation, for viewport queries.
    scene: Scene,
    /// The size each node was last drawn at, in canvas units (it survives culling).
    sizes: HashMap<String, [f64; 2]>,
    /// Nodes drawn as boxes this frame (level of detail), empty when widgets are drawn.
    lod_boxes: Vec<LodBox>,
    /// A drag on a level-of-detail box in progress.
    lod_grab: Option<lod_input::LodGrab>,
    /// Find in tree (Ctrl+F).
    find: FindBar,
    /// The minimap is drawn (its switch is beside the zoom level).
    show_minimap: bool,
    /// Where the minimap was placed this frame (minimap.rs), if it was drawn.
    minimap_at: Option<Rect>,
    minimap_cache: minimap::MiniCache,
    /// A node being renamed on the canvas (rename.rs).
    rename: Option<rename::Rename>,
    /// The comparison shown over the document (compare.rs), and the session generation it
    /// describes.
    compare: Option<(crate::compare::Comparison, u64)>,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            cache: ViewCache::default(),
            user: CanvasState::default(),
            pending_frame: None,
            pending_area: None,
            pending_first_view: true,
            pending_zoom: None,
            drag_gesture: None,
            panning: false,
            view: Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0)),
            palette_request: None,
            wire_request: None,
            annotations: Annotations::default(),
            context: None,
            dragged_nodes: BTreeSet::new(),
            pushed_selection: BTreeSet::new(),
            scene: Scene::default(),
            sizes: HashMap::new(),
            lod_boxes: Vec::new(),
            lod_grab: None,
            find: FindBar::default(),
            show_minimap: true,
            minimap_at: None,
            minimap_cache: minimap::MiniCache::default(),
            rename: None,
            compare: None,
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

    /// Whether egui_node_editor's graph holds this node this frame (it is in or near the
    /// view, or connected to a node that is, and the zoom is above `LOD_ZOOM`).
    pub fn has_widget(&self, guid: &str) -> bool {
        self.cache.ids.contains_key(guid)
    }

    /// Whether the node's widget is drawn greyed out, as a node that does not run because
    /// it or an ancestor is disabled; `None` when it has no widget this frame.
    pub fn greyed(&self, guid: &str) -> Option<bool> {
        let id = self.cache.ids.get(guid)?;
        let node = self.cache.state.graph.nodes.get(*id)?;
        Some(node.user_data.disabled)
    }

    /// How many nodes egui_node_editor's graph holds.
    pub fn widget_count(&self) -> usize {
        self.cache.ids.len()
    }

    /// Whether egui_node_editor's graph connects `parent`'s children port to `child`.
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
            (Some(o), Some(i)) => self.cache.state.graph.connection(*i) == Some(*o),
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

    /// One frame of the canvas, in six stages (see the module documentation).
    pub fn ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, live: &dyn LiveSource) {
        self.view = ui.max_rect();
        // Selectable labels would take the press on a node's title for text selection
        // instead of letting the node be dragged. egui_node_editor derives its zoomed
        // style from this ui's style.
        ui.style_mut().interaction.selectable_labels = false;
        self.place_camera(ui, cx);
        self.refresh_scene(cx);
        let lod = self.level_of_detail();
        self.cache.subtrees.set_repaint(ui.ctx());
        self.sync_view(cx, live, lod);
        self.user.found = self.find.highlighted();
        self.user.compare = self.compare_for(cx.session).map(|c| c.marks().clone());
        let responses = self.paint(ui, cx, live, lod);
        self.read_input(ui, cx, lod);
        self.emit(ui, cx, responses);
        self.rename_on_double_click(ui, cx);
        self.rename_ui(ui, cx);
        let found = std::mem::take(&mut self.user.found);
        // The badge's minimap switch first: the minimap placed this frame follows it.
        self.zoom_badge(ui);
        self.minimap(ui, cx, &found);
        self.find_ui(ui, cx);
    }
}
