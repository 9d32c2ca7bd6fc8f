//! Placeholders until the panels land.

use crate::app::UiCx;

#[derive(Default)]
pub struct Inspector;
#[derive(Default)]
pub struct BlackboardPanel;
#[derive(Default)]
pub struct ProblemsPanel;
#[derive(Default)]
pub struct HistoryPanel;

impl Inspector {
    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>) {
        ui.label("Inspector");
    }
}
impl BlackboardPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>) {
        ui.label("Blackboard");
    }
}
impl ProblemsPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>) {
        ui.label("Problems");
    }
}
impl HistoryPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, _cx: &mut UiCx<'_>) {
        ui.label("History");
    }
}

/// The node finder: a searchable list of node types that adds the chosen one.
#[derive(Default)]
pub struct Palette {
    pub open_at: Option<egui::Pos2>,
}

impl Palette {
    /// Opens the palette at a screen position.
    pub fn open(&mut self, at: egui::Pos2) {
        self.open_at = Some(at);
    }

    pub fn is_open(&self) -> bool {
        self.open_at.is_some()
    }

    /// Shows the palette if open; returns the chosen node type's name.
    pub fn show(
        &mut self,
        _ctx: &egui::Context,
        _types: &arbor_runtime::NodeTypes,
    ) -> Option<String> {
        None
    }
}
