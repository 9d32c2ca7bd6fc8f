//! One `--trace` line per tick: the tick's status, its lifecycle events in execution order,
//! the blackboard (valid values, `null` when none) and the triggers set.

use serde::Serialize;
use serde_json::Value;

use arbor_runtime::{Agent, Status, TraceEvent};

/// Collects a tick's events as JSON objects and its log messages.
#[derive(Default)]
pub(super) struct TraceCollector {
    pub events: Vec<(&'static str, u32, Option<Status>)>,
    pub logs: Vec<(u32, String)>,
}

impl arbor_runtime::Observer for TraceCollector {
    fn event(&mut self, event: TraceEvent<'_>) {
        let node = event.node().index() as u32;
        match event {
            TraceEvent::Enter(_) => self.events.push(("enter", node, None)),
            TraceEvent::Tick(_, s) => self.events.push(("tick", node, Some(s))),
            TraceEvent::Exit(_, s) => self.events.push(("exit", node, s)),
            TraceEvent::Abort(_) => self.events.push(("abort", node, None)),
            TraceEvent::Check { .. } => {}
            TraceEvent::Log { message, .. } => self.logs.push((node, message.to_owned())),
        }
    }
}

/// Field order here is the order on the line: `tick` first, as docs/cli.md shows it.
#[derive(Serialize)]
struct Line<'a> {
    tick: u64,
    status: &'static str,
    events: Vec<Event<'a>>,
    blackboard: Value,
    triggers: Vec<&'a str>,
}

#[derive(Serialize)]
struct Event<'a> {
    event: &'static str,
    node: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
}

pub(super) fn line<C>(
    tick: u64,
    status: Status,
    collected: &TraceCollector,
    agent: &Agent<C>,
) -> String {
    let tree = agent.tree();
    let events = collected
        .events
        .iter()
        .map(|(kind, node, status)| {
            let info = tree.info(arbor_runtime::NodeId::from_index(*node as usize));
            Event {
                event: kind,
                node: &info.guid,
                name: &info.name,
                status: status.map(Status::as_str),
            }
        })
        .collect();
    let line = Line {
        tick,
        status: status.as_str(),
        events,
        blackboard: Value::Object(agent.blackboard().to_json()),
        triggers: agent.triggers_set().collect(),
    };
    serde_json::to_string(&line).expect("trace lines serialise")
}
