//! The `tracing` feature: with a subscriber that wants `arbor` events, `Agent::tick` reports
//! node transitions (TRACE) and `Log` messages (INFO) as `tracing` events carrying the agent
//! and the node; without one, nothing is reported. A subscriber written here captures them.

use std::sync::{Arc, Mutex};

use arbor_runtime::builder::{node, seq, TreeBuilder};
use arbor_runtime::{Agent, Registry};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// One captured event: level, then `field=value` pairs in order.
type Captured = Arc<Mutex<Vec<(Level, Vec<(String, String)>)>>>;

/// Keeps every event at or above `max` (TRACE keeps all).
struct Capture {
    events: Captured,
    max: Level,
}

struct Fields(Vec<(String, String)>);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "arbor" && *metadata.level() <= self.max
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = Fields(Vec::new());
        event.record(&mut fields);
        if let Ok(mut events) = self.events.lock() {
            events.push((*event.metadata().level(), fields.0));
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn agent() -> Agent<()> {
    let tree = TreeBuilder::new("logged").root(
        seq([
            node("Log").name("hello").param("message", "hi there"),
            node("Wait").name("pause").param("seconds", 0.0),
        ])
        .name("root"),
    );
    let mut agent = Agent::new(Arc::new(tree.build(&Registry::new()).expect("loads")), 7);
    agent.set_trace_id(42);
    agent
}

fn capture(max: Level, f: impl FnOnce()) -> Vec<(Level, Vec<(String, String)>)> {
    let events = Captured::default();
    let subscriber = Capture {
        events: events.clone(),
        max,
    };
    tracing::subscriber::with_default(subscriber, f);
    let taken = events.lock().map(|e| e.clone()).unwrap_or_default();
    taken
}

fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn transitions_and_log_messages_are_tracing_events_with_agent_and_node() {
    let mut agent = agent();
    let events = capture(Level::TRACE, || {
        agent.tick(&mut (), 0.1);
    });
    let summary: Vec<String> = events
        .iter()
        .map(|(level, f)| {
            format!(
                "{level} {} {} {}",
                field(f, "message").unwrap_or("?"),
                field(f, "name").unwrap_or("?"),
                field(f, "status").unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "TRACE enter root -",
            "TRACE enter hello -",
            "INFO hi there hello -",
            "TRACE tick hello success",
            "TRACE exit hello success",
            "TRACE enter pause -",
            "TRACE tick pause success",
            "TRACE exit pause success",
            "TRACE tick root success",
            "TRACE exit root success",
        ]
    );
    for (_, fields) in &events {
        assert_eq!(field(fields, "agent"), Some("42"));
        assert!(
            field(fields, "node").is_some_and(|g| g.len() == 36),
            "{fields:?}"
        );
    }
    assert_eq!(field(&events[2].1, "type"), Some("Log"));
}

#[test]
fn an_info_subscriber_gets_log_messages_only_and_none_gets_nothing() {
    let mut agent = agent();
    let events = capture(Level::INFO, || {
        agent.tick(&mut (), 0.1);
    });
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(field(&events[0].1, "message"), Some("hi there"));
    // No subscriber: the agent ticks as without the feature.
    assert_eq!(agent.tick(&mut (), 0.1), arbor_runtime::Status::Success);
}
