//! The in-game tree viewer: an egui widget that draws a running agent's tree with live
//! statuses, for a game's debug overlay (any egui app; the editor's own drawing).
//!
//! It is built from the editor's parts, not a copy of them: the canvas's zoomed-out
//! drawing ([`crate::canvas::Overview`]), the preview's mapping of compiled nodes to the
//! file's nodes and its folding of ticks into "the last visit of each node"
//! ([`crate::preview::NodeMap`], [`crate::preview::TickRecorder`],
//! [`crate::preview::LiveState`]), and the one status palette ([`crate::live`]). So a
//! game's viewer colours a tree exactly as the editor's preview does.
//!
//! ```
//! use std::sync::Arc;
//! use arbor_editor::viewer::TreeViewer;
//! use arbor_runtime::builder::{action, seq, TreeBuilder};
//! use arbor_runtime::{Agent, NodeType, Registry, Status};
//!
//! let mut registry = Registry::<u32>::new();
//! registry.action(NodeType::action("Step", "Counts."), |cx| { *cx.agent += 1; Status::Success });
//! let file = TreeBuilder::new("npc").root(seq([action("Step"), action("Step")])).to_file();
//! let tree = Arc::new(registry.loader().load_tree(&file, None).expect("compiles"));
//! let mut viewer = TreeViewer::new(&tree, &file, registry.types()).expect("a tree file");
//! let (mut agent, mut steps) = (Agent::new(tree, 1), 0);
//! // Each frame: tick through the viewer (it watches the tick), then draw it.
//! assert_eq!(viewer.tick(&mut agent, &mut steps, 0.1), Status::Success);
//! let ctx = egui::Context::default();
//! let output = ctx.run_ui(egui::RawInput::default(), |ui| {
//!     egui::Window::new("npc").show(ui.ctx(), |ui| viewer.ui(ui));
//! });
//! // A game hands `output` to its renderer; here there is none.
//! output.drop_without_applying_deltas();
//! ```

use std::collections::HashSet;
use std::sync::Arc;

use arbor_runtime::format::TreeFile;
use arbor_runtime::{Agent, CompiledTree, LoadError, NodeTypes, Status};

use crate::canvas::Overview;
use crate::document::Document;
use crate::live::{LiveSource, NodeLive};
use crate::preview::{LiveState, NodeMap, TickRecorder};

/// See the module documentation. One viewer per watched agent.
pub struct TreeViewer {
    overview: Overview,
    map: Arc<NodeMap>,
    live: LiveState,
    /// The viewer has no breakpoints; the recorder asks for a set.
    breakpoints: HashSet<String>,
    /// Ticks watched, and the agent's clock at the last one (for the fade).
    seq: u64,
    clock: f64,
    root: Option<Status>,
}

impl TreeViewer {
    /// A viewer of agents running `tree`, compiled from `file`; `types` (the registry's,
    /// `registry.types()`) give the category colours. Fails only on a file whose editor
    /// data is malformed.
    pub fn new<C>(
        tree: &CompiledTree<C>,
        file: &TreeFile,
        types: &NodeTypes,
    ) -> Result<TreeViewer, LoadError> {
        let doc = Document::from_tree_file(file.clone(), tree.source())?;
        Ok(TreeViewer {
            overview: Overview::new(&doc, types),
            map: Arc::new(NodeMap::new(tree)),
            live: LiveState::default(),
            breakpoints: HashSet::new(),
            seq: 0,
            clock: 0.0,
            root: None,
        })
    }

    /// `agent.tick(data, dt)`, watched: what each node did is shown by the next
    /// [`TreeViewer::ui`]. Returns the root's status.
    pub fn tick<C>(&mut self, agent: &mut Agent<C>, data: &mut C, dt: f64) -> Status {
        let mut recorder = TickRecorder::new(&self.map, &self.breakpoints);
        let status = agent.tick_traced(data, dt, &mut recorder);
        self.seq += 1;
        self.clock = agent.now();
        let record = recorder.finish(self.seq, self.clock, self.clock, status, self.map.clone());
        self.live.apply(&record);
        self.root = Some(status);
        status
    }

    /// The root's status at the last watched tick.
    pub fn root_status(&self) -> Option<Status> {
        self.root
    }

    /// What the viewer shows of a node (by GUID): its last visit, as the canvas reads it.
    pub fn node_live(&self, guid: &str) -> Option<NodeLive> {
        self.live.node_live(guid, self.clock, self.seq)
    }

    /// Draws the tree in the space left in `ui`, fitted and centred.
    pub fn ui(&self, ui: &mut egui::Ui) -> egui::Response {
        let natural = self.overview.natural_size();
        let room = ui.available_size();
        // In a window that sizes itself, start at a readable size rather than a speck.
        let size = egui::vec2(
            room.x.max(natural.x.min(480.0)),
            room.y.max(natural.y.min(320.0)),
        );
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
        self.overview.paint(ui.painter(), rect, self);
        response
    }
}

impl LiveSource for TreeViewer {
    fn node_live(&self, guid: &str) -> Option<NodeLive> {
        TreeViewer::node_live(self, guid)
    }

    fn has_breakpoint(&self, _guid: &str) -> bool {
        false
    }
}
