//! arbor-viewer: Arbor's tree painter. It draws a tree's nodes as boxes joined by edges,
//! named where the names are legible, coloured by node category, and, while the tree runs,
//! ringed in each node's last status colour (fading as the visit ages). It depends on egui and the
//! runtime only, so a game shows its trees without linking the editor.
//!
//! # Brief overview
//!
//! - [`TreeViewer`]: the live tree of one running agent, as an egui widget. Tick the agent
//!   through it (`viewer.tick(&mut agent, &mut data, dt)`) and draw it anywhere
//!   (`viewer.ui(ui)`). `arbor-bevy`'s feature `viewer` puts it in a Bevy game.
//! - [`paint_boxes`]: the painter itself, over any [`Boxes`] (the viewer's
//!   [`PlacedTree`], the editor canvas's scene) and any [`LiveSource`] of statuses (the
//!   viewer, the editor's preview, an attached program). The editor's zoomed-out canvas
//!   draws with it, so a tree looks the same in the editor and in a game.
//! - [`palette`]: the one set of status and category colours; [`legible`]: text that
//!   stays readable when zoomed out.
//!
//! ```
//! use std::sync::Arc;
//! use arbor_viewer::TreeViewer;
//! use arbor_runtime::builder::{action, seq, TreeBuilder};
//! use arbor_runtime::{Agent, NodeType, Registry, Status};
//!
//! let mut registry = Registry::<u32>::new();
//! registry.action(NodeType::action("Step", "Counts."), |cx| { *cx.agent += 1; Status::Success });
//! let file = TreeBuilder::new("npc").root(seq([action("Step"), action("Step")])).to_file();
//! let tree = Arc::new(registry.loader().load_tree(&file, None).expect("compiles"));
//! let mut viewer = TreeViewer::new(&tree, &file, registry.types());
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

mod boxes;
pub mod legible;
mod live;
pub mod palette;
mod placed;
mod viewer;

pub use boxes::{
    paint_boxes, port, takes_children, BoxNode, Boxes, Cam, LodBox, DEFAULT_NODE_SIZE,
};
pub use live::{LiveSource, NodeLive};
pub use palette::{category_color, freshness, status_color};
pub use placed::PlacedTree;
pub use viewer::TreeViewer;
