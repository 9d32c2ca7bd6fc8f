//! Side panels: each a struct with `ui(&mut self, ui, cx)` (the egui demo's `View` pattern:
//! window chrome stays with the app, contents here).

mod stub;

pub use stub::{BlackboardPanel, HistoryPanel, Inspector, Palette, ProblemsPanel};
