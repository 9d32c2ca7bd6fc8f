//! When the plugin ticks an agent: sleeping agents (semantics rules 82 to 84) do what agents
//! ticked at every frame do, with fewer ticks; a change to the entity's data wakes one; a
//! tick interval (rule 87) ticks at due frames with the time in between accumulated.

use crate::common;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use arbor_bevy::{ArborAgent, ArborPlugin};
use arbor_runtime::{NodeType, Registry, Status};
use bevy_app::App;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;

#[derive(Component, Default, Debug, PartialEq)]
struct Napper {
    steps: u32,
    alarm: bool,
}

/// What the host actions saw, shared with the test: calls of any action, and the `dt` of
/// each `Step`.
#[derive(Default)]
struct Seen {
    calls: AtomicU32,
    dts: Mutex<Vec<f64>>,
}

/// `Step` counts a step; `Doze` runs, asleep until an input, until the entity's alarm is
/// set.
fn app(seen: &Arc<Seen>) -> App {
    let mut registry = Registry::<Napper>::new();
    let step = seen.clone();
    registry.action(NodeType::action("Step", "Counts a step."), move |cx| {
        step.calls.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut dts) = step.dts.lock() {
            dts.push(cx.dt());
        }
        cx.agent.steps += 1;
        Status::Success
    });
    let doze = seen.clone();
    registry.action(
        NodeType::action("Doze", "Runs until the alarm.").may_run(),
        move |cx| {
            doze.calls.fetch_add(1, Ordering::Relaxed);
            if cx.agent.alarm {
                cx.agent.alarm = false;
                Status::Success
            } else {
                cx.sleep_until(f64::INFINITY);
                Status::Running
            }
        },
    );
    common::app(ArborPlugin::new(registry).fixed_dt(0.1))
}

fn napper(app: &App, e: Entity) -> &Napper {
    app.world().entity(e).get::<Napper>().expect("a Napper")
}

fn calls(seen: &Seen) -> u32 {
    seen.calls.load(Ordering::Relaxed)
}

#[test]
fn rule82_a_sleeping_agent_does_what_an_agent_ticked_every_frame_does() {
    let (sleeping_seen, awake_seen) = (Arc::new(Seen::default()), Arc::new(Seen::default()));
    let (mut sleeping, mut awake) = (app(&sleeping_seen), app(&awake_seen));
    let tree = common::load::<Napper>(&mut sleeping, "naps.json");
    let a = common::spawn::<Napper>(&mut sleeping, &tree, 1);
    let tree = common::load::<Napper>(&mut awake, "naps.json");
    let b = common::spawn::<Napper>(&mut awake, &tree, 1);
    let mut agent = awake.world_mut().entity_mut(b);
    let mut arbor = agent.get_mut::<ArborAgent<Napper>>().expect("an agent");
    arbor.set_sleeps(false);
    for frame in 0..55 {
        sleeping.update();
        awake.update();
        assert_eq!(napper(&sleeping, a), napper(&awake, b), "frame {frame}");
    }
    // Wait 1 s then Step, at 0.1 s a frame: a step every 11 frames.
    assert_eq!(napper(&awake, b).steps, 5);
    // Both call Step alike; neither calls anything else.
    assert_eq!(calls(&sleeping_seen), calls(&awake_seen));
    assert_eq!(
        *sleeping_seen.dts.lock().expect("dts"),
        *awake_seen.dts.lock().expect("dts")
    );
}

#[test]
fn rule84_a_change_to_the_entity_data_wakes_a_sleeping_agent() {
    let seen = Arc::new(Seen::default());
    let mut app = app(&seen);
    let tree = common::load::<Napper>(&mut app, "dozes.json");
    let e = common::spawn::<Napper>(&mut app, &tree, 1);
    for _ in 0..5 {
        app.update();
    }
    // Ticked once: Doze sleeps until an input.
    assert_eq!(calls(&seen), 1);
    let asleep = app
        .world()
        .entity(e)
        .get::<ArborAgent<Napper>>()
        .is_some_and(ArborAgent::is_asleep);
    assert!(asleep);
    app.world_mut()
        .entity_mut(e)
        .get_mut::<Napper>()
        .expect("a Napper")
        .alarm = true;
    app.update();
    assert_eq!(napper(&app, e).steps, 1);
    assert!(!napper(&app, e).alarm);
}

#[test]
fn rule87_a_tick_interval_ticks_at_due_frames_with_dt_accumulated() {
    let seen = Arc::new(Seen::default());
    let mut app = app(&seen);
    let tree = common::load::<Napper>(&mut app, "step.json");
    app.world_mut().spawn((
        ArborAgent::<Napper>::new(tree, 1).with_tick_interval(0.3),
        Napper::default(),
    ));
    for _ in 0..10 {
        app.update();
    }
    // Frames 1, 4, 7 and 10 at 0.1 s a frame.
    let dts = seen.dts.lock().expect("dts").clone();
    assert_eq!(dts.len(), 4, "{dts:?}");
    assert!((dts[0] - 0.1).abs() < 1e-9, "{dts:?}");
    for dt in &dts[1..] {
        assert!((dt - 0.3).abs() < 1e-9, "{dts:?}");
    }
}
