//! `arbor-editor [TREE.json | TREE.xml | LOG.btlog | PROJECT | groot2://HOST:PORT]`: opens a
//! tree (by default the Villager sample) in the editor; a BehaviorTree.CPP XML file is
//! imported, a log is replayed, a game project (a folder, or its `arbor-project.json`) is
//! opened with a new tree of it, and a `groot2://` address attaches to a running BT.CPP
//! program.

use std::path::PathBuf;

use arbor_editor::app::{ArborApp, Recovery, APP_ID};
use arbor_editor::Session;

fn main() -> eframe::Result<()> {
    let path = std::env::args_os().nth(1).map(PathBuf::from);
    let path = path.unwrap_or_else(|| arbor_samples::trees_dir().join("villager.json"));
    // Not documents: opened by the app once it runs, in a tab of their own.
    let attach = path
        .to_str()
        .filter(|p| p.starts_with(arbor_editor::remote::groot2::SCHEME))
        .map(str::to_owned);
    // The file is opened by the app, as File > Open would: a file that cannot be opened
    // gets the error window (with Retry) instead of a silent empty "untitled" tree.
    let session = Session::default();
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
            arbor_editor::fonts::install_or_say(&cc.egui_ctx);
            let mut app =
                ArborApp::with_storage(session, cc.storage).with_recovery(Recovery::standard());
            app.show_notes("Imported");
            let project = path.is_dir()
                || path
                    .file_name()
                    .is_some_and(|n| n == arbor_runtime::format::PROJECT_FILE_NAME);
            match &attach {
                Some(addr) => app.attach_to(addr, ""),
                None if project => app.open_project(&path),
                None => app.open(&path),
            }
            Ok(Box::new(app))
        }),
    )
}
