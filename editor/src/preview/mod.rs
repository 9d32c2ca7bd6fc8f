//! The live preview: runs a sample agent on the document's tree (placeholder).

use crate::app::UiCx;

/// What the canvas shows of a node while the preview runs.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeLive {
    /// The node's last status, if it was visited recently.
    pub status: Option<arbor_runtime::Status>,
    /// Seconds since the node was last visited (for the fade).
    pub age: f32,
    /// Last result of each attached decorator, top first.
    pub decorators: Vec<Option<bool>>,
}

#[derive(Default)]
pub struct Preview;

impl Preview {
    /// Called once per frame before drawing: hot reload, ticking.
    pub fn update(&mut self, _cx: &mut UiCx<'_>, _time: f64) {}

    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>) {
        ui.label("Preview");
    }

    pub fn node_live(&self, _guid: &str) -> Option<NodeLive> {
        None
    }

    pub fn has_breakpoint(&self, _guid: &str) -> bool {
        false
    }

    pub fn toggle_breakpoint(&mut self, _guid: &str) {}
}
