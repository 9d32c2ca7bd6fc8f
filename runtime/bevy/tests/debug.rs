//! Feature `debug`: the plugin serves Arbor's debug protocol; every agent is listed, and a
//! client's pause stops that entity's agent (and only it) at its next tick.

use crate::common;

use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use arbor_bevy::{ArborDebugServer, ArborPlugin, CompiledTrees};
use arbor_runtime::debug::{is_timeout, DebugConfig, Framed, LineReader};
use arbor_runtime::{NodeType, Registry, Status};
use bevy_app::App;

use bevy_ecs::component::Component;
use serde_json::{json, Value};

#[derive(Component, Default)]
struct Counter {
    steps: u32,
}

struct Client {
    reader: LineReader<BufReader<TcpStream>>,
    writer: TcpStream,
}

impl Client {
    fn send(&mut self, message: Value) {
        self.writer
            .write_all(format!("{message}\n").as_bytes())
            .expect("sends");
    }

    /// The next message of type `ty` (others, such as unasked listings, are skipped).
    fn expect(&mut self, ty: &str) -> Value {
        let start = Instant::now();
        loop {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no `{ty}` message"
            );
            match self.reader.read() {
                Ok(Framed::Line(line)) => {
                    let message: Value = serde_json::from_slice(line).expect("JSON");
                    if message["type"] == ty {
                        return message;
                    }
                }
                Ok(Framed::Eof) => panic!("the server closed the connection"),
                Ok(_) => panic!("an over-long line"),
                Err(e) if is_timeout(&e) => {}
                Err(e) => panic!("read failed: {e}"),
            }
        }
    }
}

#[test]
fn the_editor_can_list_and_pause_the_agents_of_a_bevy_app() {
    let mut registry = Registry::<Counter>::new();
    registry.action(NodeType::action("Step", "Counts a step."), |cx| {
        cx.agent.steps += 1;
        if cx.agent.steps % 3 == 0 {
            Status::Success
        } else {
            Status::Running
        }
    });
    let mut app = common::app(
        ArborPlugin::new(registry)
            .fixed_dt(0.1)
            .debug_server(DebugConfig::new("127.0.0.1:0")),
    );
    let tree = common::load::<Counter>(&mut app, "steps.json");
    assert!(app
        .world()
        .resource::<CompiledTrees<Counter>>()
        .get(&tree)
        .is_some());
    let entities: Vec<_> = (0..3)
        .map(|i| common::spawn::<Counter>(&mut app, &tree, i))
        .collect();
    app.update();

    let addr = app.world().resource::<ArborDebugServer>().0.local_addr();
    let stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .expect("read timeout");
    let writer = stream.try_clone().expect("clones");
    let mut client = Client {
        reader: LineReader::new(BufReader::new(stream)),
        writer,
    };
    client.expect("hello");
    client.send(json!({"type": "hello", "protocol": 1, "client": "test"}));
    client.expect("welcome");
    client.send(json!({"type": "list", "id": 1}));
    let listing = client.expect("instances");
    let instances = listing["instances"].as_array().expect("a list").clone();
    let mut names: Vec<String> = instances
        .iter()
        .filter_map(|i| i["name"].as_str().map(str::to_owned))
        .collect();
    names.sort();
    let mut expected: Vec<String> = entities
        .iter()
        .map(|e| format!("steps #{}", e.index()))
        .collect();
    expected.sort();
    assert_eq!(names, expected);

    // Pause the first entity's agent: it stops counting, the others go on.
    let first = format!("steps #{}", entities[0].index());
    let id = instances
        .iter()
        .find(|i| i["name"] == first.as_str())
        .and_then(|i| i["instance"].as_u64())
        .expect("listed");
    client.send(json!({"type": "pause", "id": 2, "instance": id}));
    client.expect("ok");
    let steps = |app: &App| -> Vec<u32> {
        entities
            .iter()
            .map(|e| {
                app.world()
                    .entity(*e)
                    .get::<Counter>()
                    .map_or(0, |c| c.steps)
            })
            .collect()
    };
    let before = steps(&app);
    for _ in 0..4 {
        app.update();
    }
    let after = steps(&app);
    assert_eq!(after[0], before[0], "the paused agent did not tick");
    assert!(
        after[1] > before[1] && after[2] > before[2],
        "{before:?} -> {after:?}"
    );
}
