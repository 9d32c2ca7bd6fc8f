//! Stage 6 of a canvas frame: what the user did to the node widgets, as egui_node_editor
//! reported it, becomes commands on the session. The library has already applied
//! connections and deletions to its own graph, so after any of them the cache is marked
//! for a resync from the document. A drag's moves carry one gesture id and merge into one
//! undo step; nodes dropped into or out of a group's frame join or leave it.

use std::collections::BTreeSet;

use egui::{Pos2, Rect};
use egui_node_editor as eng;

use super::view::{CanvasResponse, Response};
use super::{Canvas, DEFAULT_NODE_SIZE};
use crate::commands::{AutoLayout, Connect, Disconnect, MoveItems, RemoveItems, SetGroup};
use crate::document::{LayoutOptions, Selection};
use crate::view::{Request, UiCx};

impl Canvas {
    /// Stage 6: the library's responses become commands (connect, disconnect, delete,
    /// move), then the selection and group membership follow.
    pub(super) fn emit(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>, responses: Vec<Response>) {
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
            self.drag_nodes(cx, node, moved);
        }
        if !ui.input(|i| i.pointer.any_down()) {
            self.drag_gesture = None;
            self.arrange_after_reorder(cx);
            self.drag_order.end();
            if !self.dragged_nodes.is_empty() {
                self.update_membership(cx);
            }
        }
        if touched {
            // The library changed its own graph: resync it from the document.
            self.cache.synced = None;
        }
    }

    /// Moves `node` by a drag of `screen` points (with the selection, if it is selected),
    /// merging with the rest of the drag into one undo step; widgets and level-of-detail
    /// boxes both move this way.
    pub(super) fn drag_nodes(&mut self, cx: &mut UiCx<'_>, node: String, screen: egui::Vec2) {
        let gesture = *self.drag_gesture.get_or_insert_with(|| cx.gestures.fresh());
        let sel = if cx.selection.nodes.contains(&node) {
            cx.selection.clone()
        } else {
            Selection::of_nodes([node])
        };
        let zoom = f64::from(self.zoom().max(0.01));
        let delta = [f64::from(screen.x) / zoom, f64::from(screen.y) / zoom];
        self.dragged_nodes.extend(sel.nodes.iter().cloned());
        self.drag_order.begin(cx.session.document(), &sel.nodes);
        if let Ok(c) = MoveItems::by(cx.session.document(), &sel, delta) {
            cx.apply(c.gesture(gesture));
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
        let from_view: BTreeSet<String> = self
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
                // egui_node_editor clears its selection on any click outside the graph (in
                // the inspector, say): take its changes only when they happened over the
                // canvas, and only when it changed something (a note or group click this
                // frame must not be overridden). A popup over the canvas (a context menu)
                // is not the canvas either.
                let over = ui.input(|i| i.pointer.hover_pos()).is_some_and(|p| {
                    self.view.contains(p) && super::context_menu::uncovered(ui, p)
                });
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

    /// A drag that changed siblings' order, in a file kept arranged, is followed by a
    /// layout (its own undo step, right after the move's).
    fn arrange_after_reorder(&mut self, cx: &mut UiCx<'_>) {
        let doc = cx.session.document();
        if !doc.layout().keep_arranged || self.drag_order.changes(doc).next().is_none() {
            return;
        }
        let layout = AutoLayout::new(doc, &LayoutOptions::cards(doc));
        cx.apply(layout);
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
}
