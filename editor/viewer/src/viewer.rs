//! [`TreeViewer`]: the live tree of one running agent, as an egui widget: its nodes placed
//! once ([`PlacedTree`]), each tick watched with the runtime's [`LastVisits`], and every
//! frame drawn fitted into the space given, by the box painter the editor's canvas draws
//! with ([`crate::paint_boxes`]).
//!
//! Limitations: nodes spliced in from Subtree files are not drawn (the Subtree node shows
//! how the whole subtree went), and attached decorators are not shown apart from their
//! node.

use arbor_runtime::format::TreeFile;
use arbor_runtime::{Agent, CompiledTree, LastVisits, NodeId, NodeTypes, Status, Visit};

use crate::boxes::{paint_boxes, Cam, DEFAULT_NODE_SIZE};
use crate::{LiveSource, NodeLive, PlacedTree};

/// A node's last visit, as the viewer keeps it.
#[derive(Clone, Copy, Debug)]
struct Seen {
    visit: Visit,
    /// The agent's clock at that tick.
    at: f64,
    /// The viewer's count of ticks at that tick.
    seq: u64,
}

/// See the module documentation. One viewer per watched agent, for the compiled tree it
/// was made for (after a hot reload, make a new one).
pub struct TreeViewer {
    placed: PlacedTree,
    visits: LastVisits,
    /// Per compiled node: the placed node it is shown on (`None`: from a subtree file).
    shown_on: Vec<Option<u32>>,
    /// Per placed node: its last visit.
    seen: Vec<Option<Seen>>,
    /// Ticks watched, and the agent's clock at the last one (for the fade).
    seq: u64,
    clock: f64,
    root: Option<Status>,
}

impl TreeViewer {
    /// A viewer of agents running `tree`, compiled from `file`; `types` (the registry's,
    /// `registry.types()`) give the category colours.
    pub fn new<C>(tree: &CompiledTree<C>, file: &TreeFile, types: &NodeTypes) -> TreeViewer {
        let placed = PlacedTree::new(file, types);
        // The root is always the tree's own; a node loaded from another file is a subtree's.
        let own_file = (!tree.is_empty()).then(|| tree.info(tree.root()).file.clone());
        let shown_on = (0..tree.len())
            .map(|i| {
                let info = tree.info(NodeId::from_index(i));
                (Some(&info.file) == own_file.as_ref())
                    .then(|| placed.index(&info.guid))
                    .flatten()
            })
            .collect();
        TreeViewer {
            seen: vec![None; placed.len()],
            placed,
            visits: LastVisits::new(tree.len()),
            shown_on,
            seq: 0,
            clock: 0.0,
            root: None,
        }
    }

    /// `agent.tick(data, dt)`, watched: what each node did is shown by the next
    /// [`TreeViewer::ui`]. Returns the root's status.
    pub fn tick<C>(&mut self, agent: &mut Agent<C>, data: &mut C, dt: f64) -> Status {
        self.visits.next_tick();
        let status = agent.tick_traced(data, dt, &mut self.visits);
        self.seq += 1;
        self.clock = agent.now();
        for (node, visit) in self.visits.visited() {
            let Some(Some(placed)) = self.shown_on.get(node.index()) else {
                continue;
            };
            if let Some(slot) = self.seen.get_mut(*placed as usize) {
                *slot = Some(Seen {
                    visit,
                    at: self.clock,
                    seq: self.seq,
                });
            }
        }
        self.root = Some(status);
        status
    }

    /// The root's status at the last watched tick.
    pub fn root_status(&self) -> Option<Status> {
        self.root
    }

    /// What the viewer shows of a node (by GUID): its last visit.
    pub fn node_live(&self, guid: &str) -> Option<NodeLive> {
        let seen = (*self.seen.get(self.placed.index(guid)? as usize)?)?;
        let status = match seen.visit {
            Visit::Running => Status::Running,
            Visit::Success => Status::Success,
            // An abort reads as failure (rule 28).
            Visit::Failure | Visit::Aborted => Status::Failure,
        };
        Some(NodeLive {
            status: Some(status),
            age: (self.clock - seen.at) as f32,
            decorators: Vec::new(),
            aborted: seen.visit == Visit::Aborted,
            ticks_ago: self.seq - seen.seq,
        })
    }

    /// The size the tree takes at 100 %, in points (for a window's default size).
    pub fn natural_size(&self) -> egui::Vec2 {
        let bounds = self.placed.bounds();
        if bounds.is_positive() {
            bounds.size()
        } else {
            egui::vec2(DEFAULT_NODE_SIZE[0] as f32, DEFAULT_NODE_SIZE[1] as f32)
        }
    }

    /// Draws the tree in the space left in `ui`, fitted and centred (never above 100 %).
    pub fn ui(&self, ui: &mut egui::Ui) -> egui::Response {
        let natural = self.natural_size();
        let room = ui.available_size();
        // In a window that sizes itself, start at a readable size rather than a speck.
        let size = egui::vec2(
            room.x.max(natural.x.min(480.0)),
            room.y.max(natural.y.min(320.0)),
        );
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
        let bounds = self.placed.bounds();
        let room = rect.shrink(8.0);
        if bounds.is_positive() && room.is_positive() {
            let visible: Vec<u32> = (0..self.placed.len() as u32).collect();
            let painter = ui.painter().with_clip_rect(rect);
            let cam = Cam::fit(bounds, room);
            paint_boxes(&painter, &self.placed, &visible, cam, self, &|_| None);
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arbor_runtime::builder::{action, sel, TreeBuilder};
    use arbor_runtime::{Agent, NodeType, Registry, Status};
    use egui::epaint::Shape;
    use egui::{Color32, Pos2, Rect};

    use super::TreeViewer;
    use crate::palette::{category_color, status_ring};
    use crate::status_color;

    /// What one frame of the viewer paints: each text with where it starts, each opaque
    /// rect with its fill, and each unfilled outline with its colour.
    struct Frame {
        texts: Vec<(String, Pos2)>,
        rects: Vec<(Rect, Color32)>,
        rings: Vec<(Rect, Color32)>,
    }

    impl Frame {
        /// The fill of the node box the text `name` is written in.
        fn box_of(&self, name: &str) -> Option<Color32> {
            let (_, at) = self.texts.iter().find(|(t, _)| t == name)?;
            let inside = *at + egui::vec2(1.0, 1.0);
            self.rects
                .iter()
                .filter(|(r, _)| r.contains(inside))
                .min_by(|(a, _), (b, _)| a.area().total_cmp(&b.area()))
                .map(|(_, fill)| *fill)
        }

        /// The colour of the ring around the node box the text `name` is written in.
        fn ring_of(&self, name: &str) -> Option<Color32> {
            let (_, at) = self.texts.iter().find(|(t, _)| t == name)?;
            let inside = *at + egui::vec2(1.0, 1.0);
            self.rings
                .iter()
                .filter(|(r, _)| r.contains(inside))
                .min_by(|(a, _), (b, _)| a.area().total_cmp(&b.area()))
                .map(|(_, color)| *color)
        }
    }

    fn frame(viewer: &TreeViewer) -> Frame {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0))),
            ..egui::RawInput::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                viewer.ui(ui);
            });
        });
        // The renderer's part, absent here: egui wants every texture change taken.
        output.textures_delta.clear();
        let mut frame = Frame {
            texts: Vec::new(),
            rects: Vec::new(),
            rings: Vec::new(),
        };
        for clipped in &output.shapes {
            match &clipped.shape {
                Shape::Text(t) => frame.texts.push((t.galley.text().to_owned(), t.pos)),
                Shape::Rect(r) if r.fill.a() == 255 => frame.rects.push((r.rect, r.fill)),
                Shape::Rect(r) if r.fill.a() == 0 && r.stroke.width > 0.0 => {
                    frame.rings.push((r.rect, r.stroke.color));
                }
                _ => {}
            }
        }
        frame
    }

    /// `try` fails, then `work` runs for a tick and succeeds the next.
    fn viewer() -> (TreeViewer, Agent<u32>, Registry<u32>) {
        let mut registry = Registry::<u32>::new();
        registry.action(NodeType::action("Fail", "Fails."), |_| Status::Failure);
        registry.action(NodeType::action("Work", "Works for two ticks."), |cx| {
            *cx.agent += 1;
            if *cx.agent >= 2 {
                Status::Success
            } else {
                Status::Running
            }
        });
        let file = TreeBuilder::new("npc")
            .root(sel([action("Fail").name("try"), action("Work").name("work")]).name("choose"))
            .to_file();
        let tree = Arc::new(registry.loader().load_tree(&file, None).expect("compiles"));
        let viewer = TreeViewer::new(&tree, &file, registry.types());
        (viewer, Agent::new(tree, 1), registry)
    }

    #[test]
    fn before_a_tick_every_node_is_named_in_its_category_colour() {
        let (viewer, _, registry) = viewer();
        let drawn = frame(&viewer);
        let category = |kind: &str| category_color(registry.types().node(kind).map(|t| t.category));
        assert_eq!(drawn.box_of("choose"), Some(category("Selector")));
        assert_eq!(drawn.box_of("try"), Some(category("Fail")));
        assert_eq!(drawn.box_of("work"), Some(category("Work")));
        assert_eq!(viewer.root_status(), None);
    }

    #[test]
    fn after_ticks_each_node_keeps_its_category_colour_ringed_in_its_last_status() {
        let (mut viewer, mut agent, registry) = viewer();
        let category = |kind: &str| category_color(registry.types().node(kind).map(|t| t.category));
        let mut work = 0;
        assert_eq!(viewer.tick(&mut agent, &mut work, 0.1), Status::Running);
        let drawn = frame(&viewer);
        assert_eq!(drawn.ring_of("try"), Some(status_color(Status::Failure)));
        assert_eq!(drawn.ring_of("work"), Some(status_color(Status::Running)));
        assert_eq!(drawn.ring_of("choose"), Some(status_color(Status::Running)));
        assert_eq!(drawn.box_of("try"), Some(category("Fail")));
        assert_eq!(drawn.box_of("choose"), Some(category("Selector")));

        assert_eq!(viewer.tick(&mut agent, &mut work, 0.1), Status::Success);
        assert_eq!(viewer.root_status(), Some(Status::Success));
        let drawn = frame(&viewer);
        assert_eq!(drawn.ring_of("work"), Some(status_color(Status::Success)));
        assert_eq!(drawn.ring_of("choose"), Some(status_color(Status::Success)));
        assert_eq!(drawn.box_of("work"), Some(category("Work")));
        // The selector resumed at `work`: `try`'s failure is a tick old, fading by the
        // tenth of a second the agent's clock moved on.
        let live = viewer.node_live(&guid_of(&viewer, "try")).expect("visited");
        assert_eq!((live.ticks_ago, live.status), (1, Some(Status::Failure)));
        assert!((live.age - 0.1).abs() < 1e-6, "{}", live.age);
        assert_eq!(drawn.ring_of("try"), status_ring(Some(&live)));
        assert_ne!(drawn.ring_of("try"), Some(status_color(Status::Failure)));
    }

    fn guid_of(viewer: &TreeViewer, name: &str) -> String {
        (0..viewer.placed.len() as u32)
            .map(|i| crate::Boxes::node(&viewer.placed, i))
            .find(|n| n.label == name)
            .map(|n| n.guid.to_owned())
            .expect("placed")
    }
}
