//! The in-game viewer, headless: bevy_egui with no window and no renderer (an egui context
//! on an entity of its own), frames run by hand, and what the viewer drew read back from
//! egui's output of each frame: the nodes' names, and their boxes in the status colours
//! after ticks.

use crate::common;

use std::path::{Path, PathBuf};

use arbor_bevy::{ArborPlugin, ArborTree, ArborViewer, ArborViewerPlugin};
use arbor_runtime::builder::{action, seq, TreeBuilder};
use arbor_runtime::{NodeType, Registry, Status};
use bevy_app::{App, PostUpdate, PreUpdate};
use bevy_asset::io::embedded::EmbeddedAssetRegistry;
use bevy_asset::{AssetPlugin, Handle};
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs as _;
use bevy_ecs::system::{Query, ResMut};
use bevy_egui::egui::epaint::{ClippedShape, Shape};
use bevy_egui::egui::{Color32, Pos2, Rect};
use bevy_egui::{EguiContext, EguiFullOutput, EguiPostUpdateSet, PrimaryEguiContext};

/// Counts the ticks of its `Busy` node.
#[derive(Component, Default)]
struct Npc {
    busy: u32,
}

/// The shapes egui was asked to paint in the last frame, read before bevy_egui tessellates
/// them.
#[derive(Resource, Default)]
struct Drawn(Vec<ClippedShape>);

fn capture(mut outputs: Query<&mut EguiFullOutput>, mut drawn: ResMut<Drawn>) {
    for mut output in &mut outputs {
        if let Some(output) = output.0.as_mut() {
            drawn.0 = output.shapes.clone();
            // The renderer's part, absent here: it uploads the font atlas and other
            // textures (egui insists that every texture change is taken).
            output.textures_delta.clear();
        }
    }
}

/// No animations: a new window fades in over egui's animation time, drawing every colour
/// translucent meanwhile, and these frames run faster than a screen's.
fn still(mut contexts: Query<&mut EguiContext>) {
    for mut context in &mut contexts {
        context
            .get_mut()
            .all_styles_mut(|style| style.animation_time = 0.0);
    }
}

/// A tree whose nodes end differently: `ok` succeeds, then `busy` runs for a tick and
/// succeeds the next, and the sequence starts over.
fn tree_json() -> String {
    TreeBuilder::new("patrol")
        .root(seq([action("Done").name("ok"), action("Busy").name("busy")]).name("steps"))
        .to_json()
}

/// An app with the viewer and bevy_egui, without a window: the tree comes from the
/// in-memory `embedded://` asset source.
fn app() -> (App, Handle<ArborTree>) {
    let mut registry = Registry::<Npc>::new();
    registry.action(NodeType::action("Done", "Succeeds."), |_| Status::Success);
    registry.action(NodeType::action("Busy", "Runs every other tick."), |cx| {
        cx.agent.busy += 1;
        match cx.agent.busy % 2 {
            1 => Status::Running,
            _ => Status::Success,
        }
    });
    let mut app = App::new();
    app.add_plugins((
        common::minimal_plugins(),
        bevy_input::InputPlugin,
        bevy_window::WindowPlugin {
            primary_window: None,
            exit_condition: bevy_window::ExitCondition::DontExit,
            ..Default::default()
        },
        AssetPlugin::default(),
        ArborPlugin::new(registry).fixed_dt(0.1),
        ArborViewerPlugin::<Npc>::default(),
    ))
    .init_resource::<Drawn>()
    .add_systems(PreUpdate, still)
    .add_systems(
        PostUpdate,
        capture
            .after(EguiPostUpdateSet::EndPass)
            .before(EguiPostUpdateSet::ProcessOutput),
    );
    // bevy_egui's context, as a camera would carry it in a game with a window.
    app.world_mut().spawn(PrimaryEguiContext);
    let path = "viewer/patrol.json";
    app.world()
        .resource::<EmbeddedAssetRegistry>()
        .insert_asset(
            PathBuf::from(path),
            Path::new(path),
            tree_json().into_bytes(),
        );
    let tree = common::load::<Npc>(&mut app, &format!("embedded://{path}"));
    (app, tree)
}

/// Each text drawn, with where it starts.
fn texts(drawn: &Drawn) -> Vec<(String, Pos2)> {
    drawn
        .0
        .iter()
        .filter_map(|c| match &c.shape {
            Shape::Text(t) => Some((t.galley.text().to_owned(), t.pos)),
            _ => None,
        })
        .collect()
}

/// Each text drawn.
fn names(drawn: &Drawn) -> Vec<String> {
    texts(drawn).into_iter().map(|(t, _)| t).collect()
}

/// The fill of the smallest opaque rectangle drawn around `at` (a node's box around its
/// label).
fn fill_under(drawn: &Drawn, at: Pos2) -> Option<Color32> {
    drawn
        .0
        .iter()
        .filter_map(|c| match &c.shape {
            Shape::Rect(r) if r.rect.contains(at) && r.fill.a() == 255 => Some((r.rect, r.fill)),
            _ => None,
        })
        .min_by(|(a, _), (b, _)| area(*a).total_cmp(&area(*b)))
        .map(|(_, fill)| fill)
}

/// The colour of the smallest ring (an unfilled, stroked rectangle) drawn around `at`.
fn ring_around(drawn: &Drawn, at: Pos2) -> Option<Color32> {
    drawn
        .0
        .iter()
        .filter_map(|c| match &c.shape {
            Shape::Rect(r) if r.rect.contains(at) && r.fill.a() == 0 && r.stroke.width > 0.0 => {
                Some((r.rect, r.stroke.color))
            }
            _ => None,
        })
        .min_by(|(a, _), (b, _)| area(*a).total_cmp(&area(*b)))
        .map(|(_, color)| color)
}

fn area(r: Rect) -> f32 {
    r.width() * r.height()
}

/// The fill of the box of the node named `name` (`None` if its name is not drawn).
fn box_of(drawn: &Drawn, name: &str) -> Option<Color32> {
    let (_, at) = texts(drawn).into_iter().find(|(t, _)| t == name)?;
    fill_under(drawn, at + bevy_egui::egui::vec2(1.0, 1.0))
}

/// The status ring around the box of the node named `name` (`None` without one).
fn ring_of(drawn: &Drawn, name: &str) -> Option<Color32> {
    let (_, at) = texts(drawn).into_iter().find(|(t, _)| t == name)?;
    ring_around(drawn, at + bevy_egui::egui::vec2(1.0, 1.0))
}

fn watch(app: &mut App, entity: Option<Entity>) {
    app.world_mut().resource_mut::<ArborViewer>().entity = entity;
}

#[test]
fn the_viewer_draws_the_watched_agents_nodes_in_their_status_colours() {
    let (mut app, tree) = app();
    let npc = common::spawn::<Npc>(&mut app, &tree, 1);
    app.update();
    // Nothing watched: no window, no node.
    assert!(texts(app.world().resource::<Drawn>()).is_empty());

    // The frame the entity is watched its viewer is built, after that frame's tick (the
    // second: `busy` succeeds, and the sequence with it); egui lays a new window out
    // unseen in its first frame. The next frame's tick goes through the viewer: the
    // sequence starts over, `ok` succeeds and `busy` runs. Boxes keep their category
    // colour; freshly visited nodes are ringed in the status colour itself.
    watch(&mut app, Some(npc));
    app.update();
    app.update();
    let drawn = app.world().resource::<Drawn>();
    let shown = names(drawn);
    for name in ["steps", "ok", "busy"] {
        assert!(shown.iter().any(|t| t == name), "{name} drawn: {shown:?}");
    }
    // The window is titled after the tree and the entity.
    let title = format!("patrol #{}", npc.index());
    assert!(shown.contains(&title), "{shown:?}");
    let success = arbor_viewer::status_color(Status::Success);
    let running = arbor_viewer::status_color(Status::Running);
    assert_eq!(ring_of(drawn, "ok"), Some(success));
    assert_eq!(ring_of(drawn, "busy"), Some(running));
    assert_eq!(ring_of(drawn, "steps"), Some(running));
    let fill = box_of(drawn, "ok");
    assert!(
        fill.is_some() && fill != Some(success),
        "the box keeps its category colour: {fill:?}"
    );

    // The sequence resumes at `busy`, which succeeds: `ok` is not ticked again, and its
    // success fades as the agent's clock moves on.
    app.update();
    let drawn = app.world().resource::<Drawn>();
    assert_eq!(ring_of(drawn, "busy"), Some(success));
    assert_eq!(ring_of(drawn, "steps"), Some(success));
    let ok = ring_of(drawn, "ok");
    assert!(ok.is_some() && ok != Some(success), "{ok:?}");

    // Unwatched: the window goes.
    watch(&mut app, None);
    app.update();
    assert!(texts(app.world().resource::<Drawn>()).is_empty());
}

#[test]
fn the_window_follows_the_watched_entity() {
    let (mut app, tree) = app();
    let first = common::spawn::<Npc>(&mut app, &tree, 1);
    let second = common::spawn::<Npc>(&mut app, &tree, 2);
    watch(&mut app, Some(second));
    for _ in 0..3 {
        app.update();
    }
    let title = |e: Entity| format!("patrol #{}", e.index());
    let shown = names(app.world().resource::<Drawn>());
    assert!(shown.contains(&title(second)), "{shown:?}");
    assert!(!shown.contains(&title(first)), "{shown:?}");
    // Switching entities moves the window.
    watch(&mut app, Some(first));
    for _ in 0..3 {
        app.update();
    }
    let shown = names(app.world().resource::<Drawn>());
    assert!(shown.contains(&title(first)), "{shown:?}");
    assert!(!shown.contains(&title(second)), "{shown:?}");
}
