//! The node-graph canvas (placeholder).

use crate::app::UiCx;
use crate::preview::Preview;

#[derive(Default)]
pub struct Canvas;

impl Canvas {
    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>, _preview: &Preview) {
        ui.label("Canvas");
    }

    /// Centres the view on these nodes.
    pub fn frame(&mut self, _guids: &[String]) {}
}
