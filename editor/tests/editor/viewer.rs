//! The in-game tree viewer: drawn headless in a plain egui context, it shows each node in
//! the colour of its last visit, as the editor's canvas does.

use std::sync::Arc;

use arbor_editor::live::status_color;
use arbor_editor::viewer::TreeViewer;
use arbor_runtime::builder::{action, sel, TreeBuilder};
use arbor_runtime::{Agent, NodeType, Registry, Status};

/// Rect fills painted by one frame of the viewer.
fn fills(viewer: &TreeViewer) -> Vec<egui::Color32> {
    let ctx = egui::Context::default();
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(800.0, 600.0),
        )),
        ..egui::RawInput::default()
    };
    let mut output = ctx.run_ui(input, |ui| {
        egui::CentralPanel::default().show(ui, |ui| {
            viewer.ui(ui);
        });
    });
    output.textures_delta.clear();
    output
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Rect(r) => Some(r.fill),
            _ => None,
        })
        .collect()
}

#[test]
fn the_viewer_colours_each_node_by_its_last_visit() {
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
        .root(sel([action("Fail"), action("Work")]))
        .to_file();
    let tree = Arc::new(registry.loader().load_tree(&file, None).expect("compiles"));
    let mut viewer = TreeViewer::new(&tree, &file, registry.types()).expect("a tree file");
    let mut agent = Agent::new(tree, 1);
    let mut work = 0;

    let before = fills(&viewer);
    assert!(!before.is_empty(), "the tree is drawn before any tick");
    for status in [Status::Running, Status::Success, Status::Failure] {
        assert!(!before.contains(&status_color(status)), "nothing ran yet");
    }

    assert_eq!(viewer.tick(&mut agent, &mut work, 0.1), Status::Running);
    let first = fills(&viewer);
    assert!(
        first.contains(&status_color(Status::Failure)),
        "Fail failed"
    );
    assert!(first.contains(&status_color(Status::Running)), "Work runs");

    assert_eq!(viewer.tick(&mut agent, &mut work, 0.1), Status::Success);
    assert_eq!(viewer.root_status(), Some(Status::Success));
    let second = fills(&viewer);
    assert!(
        second.contains(&status_color(Status::Success)),
        "Work and the root succeeded"
    );
}
