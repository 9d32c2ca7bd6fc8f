//! `arbor-editor [TREE.json | TREE.xml]`: opens a tree (by default the Villager sample) in
//! the editor; a BehaviorTree.CPP XML file is imported.

use std::path::PathBuf;

use arbor_editor::app::{ArborApp, Recovery, APP_ID};
use arbor_editor::Session;

fn main() -> eframe::Result<()> {
    let path = std::env::args_os().nth(1).map(PathBuf::from);
    let path = path.unwrap_or_else(|| arbor_samples::trees_dir().join("villager.json"));
    let session = match Session::open(&path) {
        Ok(session) => session,
        Err(e) => {
            eprintln!("arbor-editor: {e}");
            Session::default()
        }
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1500.0, 950.0])
            .with_title(APP_ID),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        APP_ID,
        options,
        Box::new(|cc| {
            let mut app =
                ArborApp::with_storage(session, cc.storage).with_recovery(Recovery::standard());
            app.show_notes("Imported");
            Ok(Box::new(app))
        }),
    )
}
