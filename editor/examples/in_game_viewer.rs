//! The in-game tree viewer in a plain eframe app: a villager lives in the window, and a
//! "brain" window draws its tree with live statuses, as a game's debug overlay would
//! (arbor_viewer::TreeViewer; the same drawing and colours as the editor).
//! `cargo run -p arbor-editor --example in_game_viewer`

use std::sync::Arc;

use arbor_runtime::{parse_str, Agent};
use arbor_samples::villager::{registry, VillagerWorld};
use arbor_viewer::TreeViewer;

struct Game {
    world: VillagerWorld,
    agent: Agent<VillagerWorld>,
    viewer: TreeViewer,
    /// Seconds not yet ticked (the tree ticks four times a second).
    pending: f64,
}

const TICK: f64 = 0.25;

impl eframe::App for Game {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = &ui.ctx().clone();
        self.pending += f64::from(ctx.input(|i| i.stable_dt)).min(0.5);
        while self.pending >= TICK {
            self.pending -= TICK;
            self.agent.advance(TICK);
            self.world.step(TICK, self.agent.now());
            self.world.sense(self.agent.blackboard_mut());
            // Advanced above: the viewer watches a tick of zero more seconds.
            self.viewer.tick(&mut self.agent, &mut self.world, 0.0);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("A village (the game)");
            ui.label(self.world.needs_text());
        });
        egui::Window::new("Villager's brain")
            .default_pos([300.0, 80.0])
            .default_size([940.0, 620.0])
            .show(ctx, |ui| self.viewer.ui(ui));
        ctx.request_repaint();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = arbor_samples::trees_dir().join("villager.json");
    let limit = arbor_runtime::LoadOptions::default().max_file_bytes;
    let text = arbor_runtime::files::read_text(&path, limit).map_err(|e| e.to_string())?;
    let file = parse_str(&text, Some(&path))?;
    let registry = registry();
    let tree = Arc::new(registry.loader().load_tree(&file, Some(&path))?);
    let viewer = TreeViewer::new(&tree, &file, registry.types());
    let game = Game {
        world: VillagerWorld::new(7),
        agent: Agent::new(tree, 7),
        viewer,
        pending: 0.0,
    };
    eframe::run_native(
        "Arbor: in-game tree viewer",
        eframe::NativeOptions {
            viewport: egui::ViewportBuilder::default().with_inner_size([1280.0, 800.0]),
            ..eframe::NativeOptions::default()
        },
        Box::new(|_| Ok(Box::new(game))),
    )?;
    Ok(())
}
