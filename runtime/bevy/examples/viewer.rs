//! The in-game tree viewer in a window: eight walkers tick as in the headless sample, and
//! `ArborViewerPlugin` draws one walker's tree live in an egui window (bevy_egui). Tab
//! watches the next walker.
//!
//! `cargo run -p arbor-bevy --example viewer --features window-example --ignore-rust-version`
//! (Bevy's renderer declares Rust 1.97.1; it builds with the workspace's 1.95.)
//!
//! `-- --frames N` quits after N frames (for a screenshot taken from outside).

use arbor_bevy::{ArborAgent, ArborPlugin, ArborTree, ArborViewer, ArborViewerPlugin};
use bevy_internal::app::{App, AppExit, PluginGroup as _, Startup, Update};
use bevy_internal::asset::{AssetPlugin, AssetServer, Handle};
use bevy_internal::camera::Camera2d;
use bevy_internal::ecs::entity::Entity;
use bevy_internal::ecs::message::MessageWriter;
use bevy_internal::ecs::query::With;
use bevy_internal::ecs::system::{Commands, Local, Query, Res, ResMut};
use bevy_internal::input::keyboard::KeyCode;
use bevy_internal::input::ButtonInput;
use bevy_internal::window::{Window, WindowPlugin};
use bevy_internal::DefaultPlugins;

mod walker;

use walker::{registry, Walker};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frames = args
        .iter()
        .position(|a| a == "--frames")
        .and_then(|at| args.get(at + 1))
        .and_then(|n| n.parse::<u32>().ok());
    App::new()
        .add_plugins((
            DefaultPlugins
                .set(AssetPlugin {
                    file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/assets").to_owned(),
                    ..AssetPlugin::default()
                })
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Arbor: in-game tree viewer".into(),
                        resolution: (960, 540).into(),
                        ..Window::default()
                    }),
                    ..WindowPlugin::default()
                }),
            // A tick every frame, each a tenth of a second of the walkers' time: they
            // walk and rest at a pace one can follow.
            ArborPlugin::new(registry()).fixed_dt(0.1),
            ArborViewerPlugin::<Walker>::default(),
        ))
        .insert_resource(Quit(frames))
        .add_systems(Startup, setup)
        .add_systems(Update, (next_on_tab, quit_after))
        .run();
}

/// Quit after this many frames (`--frames N`), or never.
#[derive(bevy_internal::ecs::resource::Resource)]
struct Quit(Option<u32>);

fn setup(mut commands: Commands, server: Res<AssetServer>) {
    // bevy_egui draws into the primary camera's view.
    commands.spawn(Camera2d);
    let tree: Handle<ArborTree> = server.load("walker.json");
    for seed in 0..8 {
        commands.spawn((
            ArborAgent::<Walker>::new(tree.clone(), seed),
            Walker::default(),
        ));
    }
}

/// Watches the first walker, and the next one on Tab.
fn next_on_tab(
    keys: Res<ButtonInput<KeyCode>>,
    mut viewer: ResMut<ArborViewer>,
    walkers: Query<Entity, With<ArborAgent<Walker>>>,
) {
    if viewer.entity.is_some() && !keys.just_pressed(KeyCode::Tab) {
        return;
    }
    let mut all: Vec<Entity> = walkers.iter().collect();
    all.sort();
    let next = match viewer.entity.and_then(|e| all.iter().position(|w| *w == e)) {
        Some(at) => all.get(at + 1).or(all.first()),
        None => all.first(),
    };
    viewer.entity = next.copied();
}

fn quit_after(quit: Res<Quit>, mut frame: Local<u32>, mut exit: MessageWriter<AppExit>) {
    *frame += 1;
    if quit.0.is_some_and(|n| *frame >= n) {
        exit.write(AppExit::Success);
    }
}
