//! Ports, easy to hit, and wires dropped on empty canvas.
//!
//! egui_node_editor's ports take a press only within a few points of their centre, scaled
//! by the zoom (about 7 points wide at 75 %), so a press that misses drags the node instead,
//! which can silently reorder its siblings. The canvas lays a hit area of at least
//! [`PORT_HIT`] points across, whatever the zoom, over every port after the library has
//! drawn its nodes (so it is on top and takes the press), and starts the library's
//! connection from it as the library would. A wire released within the same distance of a
//! port of the other kind connects there.
//!
//! A wire released over empty canvas asks for the node finder at that point: the node
//! chosen there is added connected to the port the wire came from (a child of a children
//! port, the parent of a parent port), as one undo step (`Session::add_linked`).

use egui::{Id, Pos2, Rect, Sense};
use egui_node_editor::{AnyParameterId, NodeId, NodeResponse};

use super::view::Response;
use super::Canvas;
use crate::commands::Link;

/// The smallest width of a port's hit area, in screen points.
pub const PORT_HIT: f32 = 18.0;

/// One end of a wire: a node (by GUID) and which of its ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Parent,
    Children,
}

impl Canvas {
    /// The hit area of a port centred at `at` this frame.
    fn port_hit_rect(&self, at: Pos2) -> Rect {
        // The library's own reach (10 points at 100 %) when it is larger.
        let side = PORT_HIT.max(20.0 * self.zoom());
        Rect::from_center_size(at, egui::vec2(side, side))
    }

    /// Every port drawn this frame: node, which port, where.
    fn ports(&self) -> Vec<(String, NodeId, End, Pos2)> {
        let mut out = Vec::new();
        for (guid, id) in &self.cache.ids {
            let Some(d) = self.drawn(guid) else {
                continue;
            };
            if self.cache.inputs.contains_key(id) {
                out.extend(d.input_port().map(|p| (guid.clone(), *id, End::Parent, p)));
            }
            if self.cache.outputs.contains_key(id) {
                out.extend(
                    d.output_port()
                        .map(|p| (guid.clone(), *id, End::Children, p)),
                );
            }
        }
        out
    }

    /// After the library drew its nodes: the large hit areas start wires, a wire released
    /// near a port connects, and one released on empty canvas asks for the node finder.
    /// `wire_before` is the connection in progress before the library's frame (the
    /// library forgets it on release).
    pub(super) fn port_input(
        &mut self,
        ui: &egui::Ui,
        responses: &mut Vec<Response>,
        wire_before: Option<(NodeId, AnyParameterId)>,
    ) {
        let ports = self.ports();
        for (guid, id, end, at) in &ports {
            let hit = self.port_hit_rect(*at);
            let response = ui.interact(
                hit,
                Id::new(("port hit", guid, *end == End::Parent)),
                Sense::drag(),
            );
            if !response.drag_started() || self.cache.state.connection_in_progress.is_some() {
                continue;
            }
            match end {
                End::Children => {
                    if let Some(out) = self.cache.outputs.get(id) {
                        self.cache.state.connection_in_progress =
                            Some((*id, AnyParameterId::Output(*out)));
                    }
                }
                End::Parent => {
                    let Some(input) = self.cache.inputs.get(id).copied() else {
                        continue;
                    };
                    // Dragging a connected parent port takes the wire off, as the
                    // library does: the wire now hangs from the parent's port.
                    if let Some(output) = self.cache.state.graph.connection(input) {
                        responses.push(NodeResponse::DisconnectEvent { input, output });
                        let parent = self.cache.state.graph.get_output(output).node;
                        self.cache.state.connection_in_progress =
                            Some((parent, AnyParameterId::Output(output)));
                    } else {
                        self.cache.state.connection_in_progress =
                            Some((*id, AnyParameterId::Input(input)));
                    }
                }
            }
        }

        let Some((from_node, from_port)) = wire_before else {
            return;
        };
        let (released, at) = ui.input(|i| (i.pointer.any_released(), i.pointer.interact_pos()));
        let Some(at) = at.filter(|_| released) else {
            return;
        };
        if responses
            .iter()
            .any(|r| matches!(r, NodeResponse::ConnectEventEnded { .. }))
        {
            return;
        }
        // Near a port of the other kind: connect there.
        let near = ports
            .iter()
            .filter(|(_, id, _, p)| *id != from_node && self.port_hit_rect(*p).contains(at))
            .min_by(|a, b| a.3.distance(at).total_cmp(&b.3.distance(at)));
        if let Some((_, id, end, _)) = near {
            let pair = match (from_port, end) {
                (AnyParameterId::Output(output), End::Parent) => {
                    self.cache.inputs.get(id).map(|input| (*input, output))
                }
                (AnyParameterId::Input(input), End::Children) => {
                    self.cache.outputs.get(id).map(|output| (input, *output))
                }
                _ => None,
            };
            if let Some((input, output)) = pair {
                responses.push(NodeResponse::ConnectEventEnded { input, output });
            }
            return;
        }
        // On empty canvas (not a node, not the minimap): the finder, to add a node there.
        let on_node = self.user.drawn.values().any(|d| d.rect().contains(at));
        let on_minimap = self.minimap_rect().is_some_and(|m| m.contains(at));
        if on_node || on_minimap || !self.view.contains(at) {
            return;
        }
        let Some(guid) = self.cache.guid(from_node).map(str::to_owned) else {
            return;
        };
        let link = match from_port {
            AnyParameterId::Output(_) => Link::ChildOf(guid),
            AnyParameterId::Input(_) => Link::ParentOf(guid),
        };
        self.wire_request = Some((at, link));
    }
}
